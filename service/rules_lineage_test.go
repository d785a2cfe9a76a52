package service

import (
	"testing"
	"time"
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
		{"a short one not found whole", StatusUnique, 7, stored, 2, Coverage{This: 0.1, That: 0.9}, Coverage{This: 0.1, That: 0.7}, false},
		{"a short one found whole", StatusUnique, 7, stored, 2, Coverage{This: 0.1, That: 1}, Coverage{}, true},
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
