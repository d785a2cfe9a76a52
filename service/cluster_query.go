package service

import (
	"math"
	"time"
)

// ClusterQuery asks for a page of the clusters of two or more articles,
// newest first (by their heads' publication time, then id).
type ClusterQuery struct {
	Source           string      // a member from this source; "" for any
	SourcePrefix     string      // a member from a source that begins with this, without case; "" for any
	Sources          []string    // a member from one of these sources (SourcePrefix resolved); nil for any
	From, To         time.Time   // the head published at or after From and before To; zero for no bound
	Status           Status      // a member with this verdict; "" for any
	MinSize, MaxSize int         // 0 for no bound
	Sort             ClusterSort // "" is SortPublished
	Limit            int         // 1 to MaxClusterPage
	// After is where the previous page ended: the clusters after it.
	After *ClusterCursor
	// ActiveFrom: a member stored at or after it ("active today": a story
	// first published days ago that got new copies today); zero for any.
	ActiveFrom time.Time
}

func (q *ClusterQuery) validate() error {
	switch {
	case q.Limit < 1 || q.Limit > MaxClusterPage:
		return Invalid("limit", "must be between 1 and %d, not %d", MaxClusterPage, q.Limit)
	case q.MinSize < 0 || q.MinSize > MaxClusterSize:
		return Invalid("min_size", "must be from 0 to %d, not %d", MaxClusterSize, q.MinSize)
	case q.MaxSize < 0 || q.MaxSize > MaxClusterSize:
		return Invalid("max_size", "must be from 0 to %d, not %d", MaxClusterSize, q.MaxSize)
	case q.MaxSize > 0 && q.MaxSize < q.MinSize:
		return Invalid("max_size", "must not be below min_size (%d)", q.MinSize)
	case !q.From.IsZero() && !q.To.IsZero() && !q.From.Before(q.To):
		return Invalid("to", "must be after from")
	}
	if err := q.validateOrder(); err != nil {
		return err
	}
	if q.Status != "" && !knownStatus(q.Status) {
		return Invalid("status", "%q is not a verdict: unique, near_duplicate, exact_duplicate or partial_duplicate", q.Status)
	}
	if err := checkStrings("", field{"source", q.Source}, field{"source_prefix", q.SourcePrefix}); err != nil {
		return err
	}
	if err := checkLength("source_prefix", q.SourcePrefix, MaxSourceLength); err != nil {
		return err
	}
	return checkLength("source", q.Source, MaxSourceLength)
}

// validateOrder checks the query's order, and that its cursor is of it.
func (q *ClusterQuery) validateOrder() error {
	switch q.Sort.Or() {
	case SortPublished, SortSize, SortLatest:
	default:
		return Invalid("sort", "must be published, size or latest, not %q", q.Sort)
	}
	if q.After != nil && q.After.Sort.Or() != q.Sort.Or() {
		return Invalid("cursor", "is a place in the list in another order (%s): give the sort it was given with", q.After.Sort.Or())
	}
	if q.Source != "" && q.SourcePrefix != "" {
		return Invalid("source_prefix", "cannot be given with source")
	}
	return nil
}

// ClusterSort is an order of the list of clusters.
type ClusterSort string

// The orders of the list.
const (
	SortPublished ClusterSort = "published" // newest head first
	SortSize      ClusterSort = "size"      // largest first
	SortLatest    ClusterSort = "latest"    // latest ingested member first
)

// ClusterSorts are the orders, the default first.
var ClusterSorts = []ClusterSort{SortPublished, SortSize, SortLatest}

// Or is the order, SortPublished for "".
func (s ClusterSort) Or() ClusterSort {
	if s == "" {
		return SortPublished
	}
	return s
}

// ClusterTotal is how many clusters a query's filters match, and how many
// articles they hold.
type ClusterTotal struct {
	Clusters, Articles int
	// More says that more clusters than Clusters match: a count up to a
	// bound stopped there (Articles is then 0).
	More bool
}

// ClusterCursor is a place in the list of clusters, in its order.
type ClusterCursor struct {
	Sort         ClusterSort // "" is SortPublished
	PublishedAt  time.Time   // SortPublished's key
	Size         int         // SortSize's
	LastIngested time.Time   // SortLatest's
	ID           int64
}

// MaxClusterPage is the most clusters one page of the list holds.
const MaxClusterPage = 200

// knownStatus reports a verdict the list may filter by: one of the
// service's, so that a misspelt one is refused rather than matching
// nothing.
func knownStatus(s Status) bool {
	switch s {
	case StatusUnique, StatusNearDuplicate, StatusExactDuplicate, StatusPartialDuplicate:
		return true
	}
	return false
}

// MaxClusterSize is the largest size the list of clusters filters by: the
// database counts a cluster's members in a 32-bit integer.
const MaxClusterSize = math.MaxInt32

// ClusterRow is a cluster as the list reads it: its head, size, sources and
// statuses.
type ClusterRow struct {
	ID           int64 // the head's id
	Title        string
	Source       string
	ExternalID   string
	PublishedAt  time.Time // the head's
	Size         int
	Sources      []string // distinct, sorted
	Statuses     []Status // distinct, sorted
	LastIngested time.Time
}
