package service

import (
	"context"
	"time"
)

// Limits of the copies report.
const (
	DefaultCopiesLimit = 100
	MaxCopiesLimit     = 1000
	// MaxExportRows bounds an export: a larger one is cut, and says so.
	MaxExportRows = 10000
	// MaxCopiesPeriod bounds the period a report reads.
	MaxCopiesPeriod = 92 * 24 * time.Hour
	// MaxCopiesSources bounds the sources one report names.
	MaxCopiesSources = 50
)

// CopiesQuery asks who copied a desk's stories: copies published in
// [From, To) that link to an article of one of Sources, or of a source one
// of Owners owns; of one Credit class when it is set.
type CopiesQuery struct {
	Sources  []string
	Owners   []string
	From, To time.Time
	Credit   Credit
	Limit    int
}

// Copy is one copy of a desk's story.
type Copy struct {
	CopyID              int64
	CopySource          string
	CopyOwner           string
	CopyTitle           string
	CopyURL             string
	CopyPublishedAt     time.Time
	Credit              Credit
	OriginalID          int64
	OriginalSource      string
	OriginalTitle       string
	OriginalURL         string
	OriginalPublishedAt time.Time
	ClusterID           int64
	// SameOwner marks a copy by a source of the original's own owner (a
	// portal's sections), shown apart from other outlets'.
	SameOwner bool
}

// Delay is how long after the original the copy was published.
func (c Copy) Delay() time.Duration { return c.CopyPublishedAt.Sub(c.OriginalPublishedAt) }

// CopyCount is how many copies one source made in a report's period, by
// credit class.
type CopyCount struct {
	Source       string
	SameOwner    bool
	Copies       int
	Credited     int
	CreditsOther int
	Uncredited   int
	// MedianDelay is the median of the copies' delays.
	MedianDelay time.Duration
}

// CopiesReport is the copies of a desk's stories in a period: counts by
// copying source, and the latest copies, both split by SameOwner.
type CopiesReport struct {
	Query     CopiesQuery
	BySource  []CopyCount
	Copies    []Copy // other outlets', latest first
	OwnCopies []Copy // the same owner's sections', latest first
	// Truncated says that there are more copies than Limit.
	Truncated bool
}

// checkCopies validates q and fills in its defaults: the last seven days
// to now.
func checkCopies(q *CopiesQuery, now time.Time) error {
	if len(q.Sources) == 0 && len(q.Owners) == 0 {
		return Invalid("source", "name at least one source")
	}
	if len(q.Sources)+len(q.Owners) > MaxCopiesSources {
		return Invalid("source", "at most %d sources", MaxCopiesSources)
	}
	for _, s := range append(append([]string(nil), q.Sources...), q.Owners...) {
		if err := checkStrings("", field{"source", s}); err != nil {
			return err
		}
		if err := checkLength("source", s, MaxSourceLength); err != nil {
			return err
		}
	}
	switch q.Credit {
	case "", CreditCredited, CreditCreditsOther, CreditUncredited:
	default:
		return Invalid("credit", "must be credited, credits_other or uncredited, not %q", q.Credit)
	}
	if q.To.IsZero() {
		q.To = now
	}
	if q.From.IsZero() {
		q.From = q.To.Add(-7 * 24 * time.Hour)
	}
	if !q.From.Before(q.To) {
		return Invalid("from", "must be before to")
	}
	if q.To.Sub(q.From) > MaxCopiesPeriod {
		return Invalid("from", "the period may be at most %d days", int(MaxCopiesPeriod.Hours()/24))
	}
	if q.Limit == 0 {
		q.Limit = DefaultCopiesLimit
	}
	if q.Limit < 1 || q.Limit > MaxCopiesLimit {
		return Invalid("limit", "must be 1 to %d", MaxCopiesLimit)
	}
	return nil
}

// Copies returns who copied the stories q names in its period: counts by
// copying source, and the latest q.Limit copies. KindInvalid for a bad
// query.
func (s *Service) Copies(ctx context.Context, q CopiesQuery) (CopiesReport, error) {
	if err := checkCopies(&q, time.Now()); err != nil {
		return CopiesReport{}, err
	}
	r := CopiesReport{Query: q}
	var err error
	if r.BySource, err = s.store.CountCopies(ctx, q); err != nil {
		return CopiesReport{}, err
	}
	n := 0
	err = s.store.EachCopy(ctx, q, q.Limit+1, func(c Copy) error {
		if n++; n > q.Limit {
			r.Truncated = true
			return nil
		}
		if c.SameOwner {
			r.OwnCopies = append(r.OwnCopies, c)
		} else {
			r.Copies = append(r.Copies, c)
		}
		return nil
	})
	return r, err
}

// EachCopy calls fn with each copy q asks for, latest first, at most
// MaxExportRows (q.Limit is ignored), for an export; it says whether it
// was cut there. KindInvalid for a bad query.
func (s *Service) EachCopy(ctx context.Context, q CopiesQuery, fn func(Copy) error) (truncated bool, err error) {
	q.Limit = 1
	if err := checkCopies(&q, time.Now()); err != nil {
		return false, err
	}
	n := 0
	err = s.store.EachCopy(ctx, q, MaxExportRows+1, func(c Copy) error {
		if n++; n > MaxExportRows {
			truncated = true
			return nil
		}
		return fn(c)
	})
	return truncated, err
}

// DeskSources returns the desk's own sources (DEDUP_DESK_SOURCES): the
// copies report's default.
func (s *Service) DeskSources() []string { return s.desk }
