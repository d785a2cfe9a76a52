package service

import (
	"cmp"
	"context"
	"slices"
	"time"
)

// The day at a glance: today's and the last 24 hours' articles, clusters,
// copies and partial copies and the sources that copy most, and the
// duplicates of each of the last days and of each source. Days are cut in
// the editors' time zone (DEDUP_TIMEZONE); the store counts what is
// published between bounds the service computes, so that the database
// needs no knowledge of the zone. The figures come from indexes alone
// (migration 00021); docs/ui.md has their cost at a million articles.

// The bounds of an overview.
const (
	DefaultOverviewDays = 30
	MaxOverviewDays     = 90
	// TopSources is how many sources an overview ranks.
	TopSources = 10
)

// DuplicateCounts counts duplicates by verdict.
type DuplicateCounts struct {
	Near, Exact, Partial int
}

// Copies is the near and exact duplicates: articles that copy another
// whole.
func (c DuplicateCounts) Copies() int { return c.Near + c.Exact }

// Total is every duplicate.
func (c DuplicateCounts) Total() int { return c.Near + c.Exact + c.Partial }

func (c *DuplicateCounts) add(s Status, n int) {
	switch s {
	case StatusNearDuplicate:
		c.Near += n
	case StatusExactDuplicate:
		c.Exact += n
	case StatusPartialDuplicate:
		c.Partial += n
	}
}

// SourceCount is a source's duplicates.
type SourceCount struct {
	Source string
	DuplicateCounts
	// OwnSections is how many of them copy a source of the same owner (a
	// portal's sections copying each other); counted for Today's and
	// Last24h's TopSources, which rank by the other outlets' copies.
	OwnSections int
}

// Others is how many of the source's duplicates copy other outlets.
func (c SourceCount) Others() int { return c.Total() - c.OwnSections }

// DayCount is a day's duplicates; Day is its start in the overview's zone.
type DayCount struct {
	Day time.Time
	DuplicateCounts
}

// Period is what was published from From to To (excluded).
type Period struct {
	From, To time.Time
	Articles int // every article published then
	Clusters int // clusters of two or more whose first member was published then
	DuplicateCounts
	TopSources []SourceCount // the sources with the most duplicates then, most first
}

// Overview is the day at a glance.
type Overview struct {
	Location *time.Location
	Now      time.Time
	Today    Period
	Last24h  Period
	Days     []DayCount    // the last days, oldest first, today last
	Sources  []SourceCount // the sources with the most duplicates over Days, most first
}

// DuplicateBucket is how many duplicates of one source and verdict were
// published in one bucket of a CountDuplicates.
type DuplicateBucket struct {
	Bucket int // bounds[Bucket] <= published_at < bounds[Bucket+1]
	Source string
	Status Status
	N      int
}

// Overview returns the last days at a glance, cut in loc's days: days of
// them (1 to MaxOverviewDays), today last. KindInvalid for days out of
// range.
func (s *Service) Overview(ctx context.Context, loc *time.Location, days int) (Overview, error) {
	if days < 1 || days > MaxOverviewDays {
		return Overview{}, Invalid("days", "must be from 1 to %d, not %d", MaxOverviewDays, days)
	}
	now := s.now().In(loc)
	o := Overview{Location: loc, Now: now}
	bounds := DayBounds(now, days)
	buckets, err := s.store.CountDuplicates(ctx, bounds)
	if err != nil {
		return Overview{}, err
	}
	o.Days = make([]DayCount, days)
	for i := range o.Days {
		o.Days[i].Day = bounds[i]
	}
	var today []DuplicateBucket
	for _, b := range buckets {
		o.Days[b.Bucket].add(b.Status, b.N)
		if b.Bucket == days-1 {
			today = append(today, b)
		}
	}
	o.Sources = bySource(buckets, nil)
	o.Today = Period{From: bounds[days-1], To: bounds[days], DuplicateCounts: o.Days[days-1].DuplicateCounts}
	own, err := s.store.CountOwnCopies(ctx, o.Today.From, o.Today.To)
	if err != nil {
		return Overview{}, err
	}
	o.Today.TopSources = bySource(today, own)

	o.Last24h = Period{From: now.Add(-24 * time.Hour), To: now}
	last, err := s.store.CountDuplicates(ctx, []time.Time{o.Last24h.From, o.Last24h.To})
	if err != nil {
		return Overview{}, err
	}
	for _, b := range last {
		o.Last24h.add(b.Status, b.N)
	}
	if own, err = s.store.CountOwnCopies(ctx, o.Last24h.From, o.Last24h.To); err != nil {
		return Overview{}, err
	}
	o.Last24h.TopSources = bySource(last, own)
	for _, p := range []*Period{&o.Today, &o.Last24h} {
		if p.Articles, p.Clusters, err = s.store.CountPublished(ctx, p.From, p.To); err != nil {
			return Overview{}, err
		}
	}
	return o, nil
}

// DayBounds returns the starts of the days days up to the one holding now,
// in now's zone, and the start of the day after: days+1 times, ascending.
// A day is from one midnight to the next, 23 or 25 hours long where the
// clocks change.
func DayBounds(now time.Time, days int) []time.Time {
	y, m, d := now.Date()
	out := make([]time.Time, days+1)
	for i := range out {
		out[i] = time.Date(y, m, d-days+1+i, 0, 0, 0, 0, now.Location())
	}
	return out
}

// bySource adds up buckets by source: the TopSources with the most
// duplicates, most first (then by name). With own (CountOwnCopies), each
// says how many of its duplicates copy its own owner's sources, and the
// rank is by the others: a portal's sections copying each other do not
// top the list of who copies most.
func bySource(buckets []DuplicateBucket, own map[string]int) []SourceCount {
	m := map[string]*SourceCount{}
	for _, b := range buckets {
		c, ok := m[b.Source]
		if !ok {
			c = &SourceCount{Source: b.Source}
			m[b.Source] = c
		}
		c.add(b.Status, b.N)
	}
	out := make([]SourceCount, 0, len(m))
	for _, c := range m {
		c.OwnSections = min(own[c.Source], c.Total())
		out = append(out, *c)
	}
	slices.SortFunc(out, func(a, b SourceCount) int {
		return cmp.Or(cmp.Compare(b.Others(), a.Others()), cmp.Compare(b.Total(), a.Total()), cmp.Compare(a.Source, b.Source))
	})
	return out[:min(len(out), TopSources)]
}

// WithClock makes a Service that reads the time from now: the overview's
// today and last 24 hours are now's.
func WithClock(now func() time.Time) Setting {
	return func(s *Service) { s.now = now }
}
