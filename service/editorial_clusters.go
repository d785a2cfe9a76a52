package service

import (
	"context"
	"crypto/rand"
	"math"
	"slices"
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

// MaxClusterSize is the largest size the list of clusters filters by: the
// database counts a cluster's members in a 32-bit integer.
const MaxClusterSize = math.MaxInt32

// cursorKeyName names the key of the list's cursors in the SecretStore.
const cursorKeyName = "cluster_cursor"

// CursorKey returns the key that signs the cursors of the list of clusters
// (32 random bytes). It is made once and stored in the database, so that
// every instance on it accepts the others' cursors and a restart breaks no
// client's paging; it is read once a process.
func (s *Service) CursorKey(ctx context.Context) ([]byte, error) {
	if k := s.editorial.cursorKey.Load(); k != nil {
		return *k, nil
	}
	fresh := make([]byte, 32)
	rand.Read(fresh) // never fails (crypto/rand)
	k, err := s.store.Secret(ctx, cursorKeyName, fresh)
	if err != nil {
		return nil, err
	}
	s.editorial.cursorKey.Store(&k)
	return k, nil
}

// ClusterSummary is a cluster as the list shows it.
type ClusterSummary struct {
	ClusterRow
	Kept       Kept
	KeptMember KeepCandidate
	Original   Original
	// OtherCoverage counts the articles outside the cluster that share
	// sentences with it (OtherCoverage's), up to MaxOtherCoverageCounted.
	OtherCoverage OtherCoverageCount
}

// ClusterPage is a page of the list of clusters.
type ClusterPage struct {
	Clusters []ClusterSummary
	Next     *ClusterCursor // nil on the last page
}

// Clusters returns a page of the clusters of two or more articles, each
// with its kept member. KindInvalid for a query out of range.
func (s *Service) Clusters(ctx context.Context, q ClusterQuery) (ClusterPage, error) {
	if err := q.validate(); err != nil {
		return ClusterPage{}, err
	}
	err := s.ensureKeepPolicy(ctx)
	if err != nil {
		return ClusterPage{}, err
	}
	if q.SourcePrefix != "" {
		if q.Sources, err = s.store.Sources(ctx, q.SourcePrefix, MaxSources); err != nil || len(q.Sources) == 0 {
			return ClusterPage{}, err
		}
	}
	limit := q.Limit
	q.Limit++ // one more, to know whether a next page exists
	rows, err := s.store.ListClusters(ctx, q)
	if err != nil {
		return ClusterPage{}, err
	}
	var page ClusterPage
	if len(rows) > limit {
		rows = rows[:limit]
		last := rows[limit-1]
		page.Next = &ClusterCursor{Sort: q.Sort, PublishedAt: last.PublishedAt, Size: last.Size, LastIngested: last.LastIngested, ID: last.ID}
	}
	ids := make([]int64, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	candidates, err := s.store.KeepCandidates(ctx, ids)
	if err != nil {
		return ClusterPage{}, err
	}
	byCluster := map[int64][]KeepCandidate{}
	for _, c := range candidates {
		byCluster[c.ClusterID] = append(byCluster[c.ClusterID], c)
	}
	asked := make(map[int64][]KeepCandidate, len(rows)) // the original and the kept member of each
	for _, r := range rows {
		members := byCluster[r.ID]
		if len(members) == 0 { // it changed between the two reads: shown as the list read it
			page.Clusters = append(page.Clusters, ClusterSummary{ClusterRow: r})
			continue
		}
		k := keep(members, s.editorial.policy)
		o := originalOf(members)
		i := slices.IndexFunc(members, func(c KeepCandidate) bool { return c.ID == k.ID })
		j := slices.IndexFunc(members, func(c KeepCandidate) bool { return c.ID == o.ID })
		asked[r.ID] = []KeepCandidate{members[j]}
		if j != i {
			asked[r.ID] = append(asked[r.ID], members[i])
		}
		page.Clusters = append(page.Clusters, ClusterSummary{ClusterRow: r, Kept: k, KeptMember: members[i], Original: o})
	}
	counts, err := s.otherCoverageCounts(ctx, asked)
	if err != nil {
		return ClusterPage{}, err
	}
	for i := range page.Clusters {
		page.Clusters[i].OtherCoverage = counts[page.Clusters[i].ID]
	}
	return page, nil
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
