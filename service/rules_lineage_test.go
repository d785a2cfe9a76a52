package service

import (
	"slices"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// TestEarliestClosestPartial: of partial matches equally close, the earliest
// published is the one linked to, whichever was stored first; a closer one
// wins whatever its time.
func TestEarliestClosestPartial(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 19, 30, 0, 0, time.UTC)
	m := func(id int64, distance int, overlap float64, published time.Duration) Match {
		return Match{ID: id, PublishedAt: t0.Add(published), ingestedAt: t0.Add(time.Hour),
			Similarity: Similarity{Distance: distance, Overlap: overlap, WordRatio: 0.5}, partial: true}
	}
	for _, c := range []struct {
		name    string
		matches []Match
		want    int64
	}{
		{"repost stored first, story later", []Match{m(1, 0, 1, 10*time.Minute), m(2, 0, 1, 0)}, 2},
		{"story stored first", []Match{m(1, 0, 1, 0), m(2, 0, 1, 10*time.Minute)}, 1},
		{"a closer repost", []Match{m(1, 0, 1, 10*time.Minute), m(2, 1, 1, 0)}, 1},
		{"more shared text", []Match{m(1, 0, 1, 10*time.Minute), m(2, 0, 0.9, 0)}, 1},
		{"equal times", []Match{m(3, 0, 1, 0), m(2, 0, 1, 0)}, 3},
	} {
		if got := earliestClosest(c.matches).ID; got != c.want {
			t.Errorf("%s: links to %d, want %d", c.name, got, c.want)
		}
	}
}

// TestCopyOf: a stored article sharing sentences with the one judged is its
// partial copy when, seen from its own side, it is found there (an
// excerpt) or holds most of it (an expansion); not when only a little of
// it is; not when it is a near or exact copy (the article index links
// those), nor an article of the group not yet stored, nor a member of
// another's cluster that is no partial duplicate.
func TestCopyOf(t *testing.T) {
	stored := time.Date(2026, 3, 1, 20, 0, 0, 0, time.UTC)
	pairs := make([]SentencePair, 5)
	for i := range pairs {
		pairs[i].Position, pairs[i].OtherPosition = i, i
	}
	for _, c := range []struct {
		name      string
		status    Status
		cluster   int64
		ingested  time.Time
		pairs     int
		sentences Coverage // seen from the article judged
		text      Coverage
		want      bool
	}{
		{"an excerpt heading its cluster", StatusUnique, 7, stored, 5, Coverage{This: 0.3, That: 1}, Coverage{This: 0.3, That: 0.95}, true},
		{"an excerpt linked as a partial", StatusPartialDuplicate, 9, stored, 5, Coverage{This: 0.3, That: 0.9}, Coverage{}, true},
		{"an expansion", StatusUnique, 7, stored, 5, Coverage{This: 0.75, That: 0.4}, Coverage{}, true},
		{"an expansion by text", StatusUnique, 7, stored, 5, Coverage{This: 0.5, That: 0.4}, Coverage{This: 0.85, That: 0.3}, true},
		{"a little shared", StatusUnique, 7, stored, 5, Coverage{This: 0.2, That: 0.5}, Coverage{This: 0.2, That: 0.5}, false},
		{"a short one not found whole", StatusUnique, 7, stored, 1, Coverage{This: 0.1, That: 0.9}, Coverage{This: 0.1, That: 0.7}, false},
		{"a short one found whole", StatusUnique, 7, stored, 2, Coverage{This: 0.1, That: 1}, Coverage{}, true},
		// Two shared sentences and some of it not found: it has a third,
		// so it is no short article, and most of it is found.
		{"two sentences shared of a longer one", StatusUnique, 7, stored, 2, Coverage{This: 0.2, That: 0.64}, Coverage{This: 0.3, That: 0.93}, true},
		{"two sentences shared of a longer one, little of it", StatusUnique, 7, stored, 2, Coverage{This: 0.2, That: 0.4}, Coverage{This: 0.3, That: 0.5}, false},
		{"a near copy", StatusNearDuplicate, 9, stored, 5, Coverage{This: 1, That: 1}, Coverage{This: 1, That: 1}, false},
		{"unique in another's cluster", StatusUnique, 9, stored, 5, Coverage{This: 0.3, That: 1}, Coverage{}, false},
		{"of the group, not stored", StatusUnique, 7, time.Time{}, 5, Coverage{This: 0.3, That: 1}, Coverage{}, false},
	} {
		sa := &sharedArticle{match: SentenceMatch{ArticleID: 7, Status: c.status}, pairs: pairs[:c.pairs], coverage: c.sentences}
		cand := Candidate{ID: 7, ClusterID: c.cluster, IngestedAt: c.ingested}
		lc, ok := copyOf(testFingerprint(t, "标题", "一个句子。"), sa, cand, c.sentences, c.text)
		if ok != c.want {
			t.Errorf("%s: a copy %v, want %v", c.name, ok, c.want)
			continue
		}
		if ok && lc.Coverage.This != max(c.sentences.That, c.text.That) {
			t.Errorf("%s: coverage of the copy found %.2f, want it seen from its side (%.2f)", c.name, lc.Coverage.This, max(c.sentences.That, c.text.That))
		}
	}
}

// TestLaterMatchesElsewhere: an article that heads its match's cluster
// also heads its other near or exact matches published after it in other
// clusters (one a cluster) — a bulletin near two later ones that are not
// near each other heads both — but not its partial matches, those
// published before it, nor those in its match's cluster.
func TestLaterMatchesElsewhere(t *testing.T) {
	t0 := time.Date(2022, 10, 20, 19, 8, 0, 0, time.UTC)
	stored := t0.AddDate(1, 0, 0)
	m := func(id, cluster int64, published time.Duration, partial bool) Match {
		return Match{ID: id, clusterID: cluster, PublishedAt: t0.Add(published), ingestedAt: stored, partial: partial}
	}
	for _, c := range []struct {
		name    string
		matches []Match // best first
		want    []int64
	}{
		{"two later bulletins, not near each other", []Match{m(380, 380, 24*time.Hour, false), m(411, 411, 72*time.Hour, false)}, []int64{411}},
		{"both in the match's cluster", []Match{m(380, 380, 24*time.Hour, false), m(411, 380, 72*time.Hour, false)}, nil},
		{"two of one other cluster", []Match{m(1, 1, time.Hour, false), m(2, 5, 2*time.Hour, false), m(3, 5, 3*time.Hour, false)}, []int64{2}},
		{"a partial match", []Match{m(1, 1, time.Hour, false), m(2, 2, 2*time.Hour, true)}, nil},
		{"one published before", []Match{m(1, 1, time.Hour, false), m(2, 2, -time.Hour, false)}, nil},
		{"published at the same time", []Match{m(1, 1, time.Hour, false), m(2, 2, 0, false)}, nil},
	} {
		d := decision{matches: c.matches, best: &c.matches[0]}
		var got []int64
		for _, x := range laterMatchesElsewhere(t0, d) {
			got = append(got, x.ID)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: heads the clusters of %v, want %v", c.name, got, c.want)
		}
	}
	if got := laterMatchesElsewhere(t0, decision{}); got != nil {
		t.Errorf("no match: %v, want none", got)
	}
}

// TestLeavesForHead: a member of a later match's cluster relinks to the
// new head when it heads its cluster or links to an article published
// after the head; one linked to an article published before it, or to one
// not read, keeps its link.
func TestLeavesForHead(t *testing.T) {
	t0 := time.Date(2023, 7, 20, 19, 3, 0, 0, time.UTC)
	for _, c := range []struct {
		name   string
		of     int64
		target time.Time
		known  bool
		want   bool
	}{
		{"heads its cluster", 0, time.Time{}, false, true},
		{"links to a later article", 7, t0.Add(time.Hour), true, true},
		{"links to an earlier article", 7, t0.Add(-time.Hour), true, false},
		{"links to one published with the head", 7, t0, true, false},
		{"links to one not read", 7, time.Time{}, false, false},
	} {
		if got := leavesForHead(t0, Article{ID: 9, DuplicateOf: c.of}, c.target, c.known); got != c.want {
			t.Errorf("%s: relinks %v, want %v", c.name, got, c.want)
		}
	}
}

// TestPromotedLinkLeavesOutBoilerplate: a member of the cluster a new head
// takes over relinks to it when it is near it once the head's boilerplate
// shingles are out of both, as it would have found arriving after it; one
// that shares with it only the boilerplate and a little more keeps its
// link (cctv-xwlb-20221212-1161, docs/reporting.md). Without boilerplate
// both relink.
func TestPromotedLinkLeavesOutBoilerplate(t *testing.T) {
	t0 := time.Date(2022, 12, 11, 19, 8, 0, 0, time.UTC)
	words := fingerprint.NewWordSet([]uint64{1, 2, 3})
	fp := fingerprint.Fingerprint{Version: 1, Simhash: 7, Words: words, Shingles: fingerprint.ShingleSet{1, 2, 3, 4, 5, 6}}
	fp.ContentHash[0] = 1 // another text than the members
	h := Article{ID: 1, PublishedAt: t0}
	opts := Options{MaxDistance: 3, MinOverlap: 0.5}
	member := func(id int64, shingles fingerprint.ShingleSet) Article {
		return Article{ID: id, PublishedAt: t0.Add(24 * time.Hour), IngestedAt: t0.AddDate(1, 0, 0), FingerprintVersion: 1,
			Simhash: 7, Words: words, Shingles: shingles, Status: StatusUnique, ClusterID: id}
	}
	boilerplate := fingerprint.ShingleSet{1, 2, 3}
	for _, c := range []struct {
		name        string
		m           Article
		boilerplate fingerprint.ShingleSet
		want        bool
	}{
		{"the same story", member(2, fingerprint.ShingleSet{1, 2, 3, 4, 5, 6}), boilerplate, true},
		{"the boilerplate and a little more", member(3, fingerprint.ShingleSet{1, 2, 3, 4, 9, 10}), boilerplate, false},
		{"no boilerplate", member(3, fingerprint.ShingleSet{1, 2, 3, 4, 9, 10}), nil, true},
	} {
		l, ok := promotedLink(h, fp, t0, c.m, c.boilerplate, opts)
		if ok != c.want {
			t.Errorf("%s: relinked %v, want %v", c.name, ok, c.want)
		}
		if ok && (l.DuplicateOf != h.ID || l.Status != StatusNearDuplicate) {
			t.Errorf("%s: %s of %d, want a near duplicate of %d", c.name, l.Status, l.DuplicateOf, h.ID)
		}
	}
}

// TestHeadsLaterPartialMatches: an article heads, besides the copies the
// sentence index found, its partial matches by the article index published
// after it that head their own cluster, seen from their side (a bulletin
// near a later one, and a partial match of two others, cctv-xwlb-20221128-951
// in docs/reporting.md); not one published before it or at the same time,
// one in another's cluster, one of the group not stored yet, a near match,
// nor one the sentence index found already (listed once).
func TestHeadsLaterPartialMatches(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 19, 30, 0, 0, time.UTC)
	stored := t0.Add(48 * time.Hour)
	m := func(id, cluster int64, partial bool, published time.Duration, ingested time.Time) Match {
		return Match{ID: id, clusterID: cluster, PublishedAt: t0.Add(published), ingestedAt: ingested, partial: partial,
			Similarity: Similarity{Distance: 3, Overlap: 0.6, WordRatio: 0.5, Coverage: Coverage{This: 0.55, That: 0.45}}}
	}
	d := decision{
		matches: []Match{
			m(1, 1, false, 24*time.Hour, stored),     // near: linked by the promotion
			m(2, 2, true, 48*time.Hour, stored),      // a later partial heading its cluster
			m(3, 3, true, 72*time.Hour, stored),      // another, found by the sentence index too
			m(4, 9, true, 24*time.Hour, stored),      // in another's cluster
			m(5, 5, true, -24*time.Hour, stored),     // published before
			m(6, 6, true, 0, stored),                 // at the same time
			m(7, 0, true, 24*time.Hour, time.Time{}), // of the group, not stored yet
		},
		copies: []laterCopy{{Match: m(3, 3, true, 72*time.Hour, stored), status: StatusUnique}},
	}
	var got []int64
	for _, c := range headsCopies(t0, d) {
		got = append(got, c.ID)
		if c.ID == 2 && (c.status != StatusUnique || c.Coverage != (Coverage{This: 0.45, That: 0.55})) {
			t.Errorf("later partial match 2 as a copy: status %q, coverage %+v, want unique and its own side's 0.45/0.55", c.status, c.Coverage)
		}
	}
	if want := []int64{3, 2}; !slices.Equal(got, want) {
		t.Errorf("heads %v, want %v", got, want)
	}
	if got := headsCopies(t0.Add(96*time.Hour), d); len(got) != 0 {
		t.Errorf("published after them all, heads %d, want none", len(got))
	}
}

// TestCloserByIndex: an earlier head takes a member linked as a partial
// duplicate to a later article when, by the article index's order, it is
// at least as close (equal: the earliest wins, and the head is earlier);
// not when the later one is closer; always when the later one is no match
// by the index at all (the partial step linked it, which runs only when
// the index finds none).
func TestCloserByIndex(t *testing.T) {
	opts := DefaultOptions
	sim := func(distance int, overlap, words float64) Similarity {
		return Similarity{Distance: distance, Overlap: overlap, WordRatio: words}
	}
	for _, c := range []struct {
		name      string
		head, was Similarity
		want      bool
	}{
		{"as close", sim(1, 0.6, 0.5), sim(1, 0.6, 0.5), true},
		{"fewer bits", sim(0, 0.55, 0.4), sim(2, 0.7, 0.6), true},
		{"more bits", sim(2, 0.7, 0.6), sim(0, 0.55, 0.4), false},
		{"more shared text", sim(1, 0.7, 0.4), sim(1, 0.6, 0.6), true},
		{"less shared text", sim(1, 0.6, 0.6), sim(1, 0.7, 0.4), false},
		{"fewer shared words", sim(1, 0.6, 0.4), sim(1, 0.6, 0.5), false},
		{"linked by the partial step (far in bits)", sim(3, 0.5, 0.3), sim(12, 0.9, 0.8), true},
		{"linked by the partial step (little shared)", sim(3, 0.5, 0.3), sim(0, 0.3, 0.8), true},
	} {
		if got := closerByIndex(c.head, c.was, opts); got != c.want {
			t.Errorf("%s: closer %v, want %v", c.name, got, c.want)
		}
	}
}
