package service

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// TestDecidePartialByText feeds decidePartial candidates that share few
// whole sentences with the article and more or less of its text: the text
// share decides where the sentences do not, boilerplate's shingles do not
// count, and a short article must be found whole.
func TestDecidePartialByText(t *testing.T) {
	const long, short = 5, 2 // indexed sentences of the article judged
	shingles := func(from, to uint32) fingerprint.ShingleSet {
		var s fingerprint.ShingleSet
		for x := from; x < to; x++ {
			s = append(s, x)
		}
		return s
	}
	article := shingles(0, 100)
	opts := Options{Limit: 10}
	tests := []struct {
		name        string
		sentences   int                    // the article's indexed sentences
		theirs      fingerprint.ShingleSet // the candidate's shingles
		boilerplate fingerprint.ShingleSet
		shared      Coverage // by sentences
		want        Status
		wantThis    float64
	}{
		{"80 % of its text found, few sentences", long, shingles(20, 300), nil, Coverage{This: 0.2, That: 0.1}, StatusPartialDuplicate, 0.8},
		{"79 % of its text found", long, shingles(21, 300), nil, Coverage{This: 0.2, That: 0.1}, StatusUnique, 0},
		{"holds 80 % of the other's text", long, shingles(80, 105), nil, Coverage{This: 0.1, That: 0.2}, StatusPartialDuplicate, 0.2},
		{"the sentences alone suffice", long, shingles(90, 300), nil, Coverage{This: 0.6, That: 0.1}, StatusPartialDuplicate, 0.6},
		{"80 % only with boilerplate counted", long, shingles(20, 300), shingles(20, 50), Coverage{This: 0.2}, StatusUnique, 0},
		{"a short article 80 % found", short, shingles(20, 300), nil, Coverage{This: 0.5}, StatusUnique, 0},
		{"a short article found whole", short, shingles(0, 300), nil, Coverage{This: 0.5}, StatusPartialDuplicate, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fp := fingerprint.Fingerprint{Shingles: article, Sentences: make([]fingerprint.Sentence, tt.sentences)}
			links := map[int64]*sharedArticle{7: {coverage: tt.shared}}
			c := Candidate{ID: 7, Shingles: tt.theirs}
			d := decidePartial(fp, time.Time{}, links, []Candidate{c}, tt.boilerplate, opts)
			if d.status != tt.want {
				t.Fatalf("status %s, want %s", d.status, tt.want)
			}
			if d.best != nil && d.best.Coverage.This != tt.wantThis {
				t.Errorf("coverage %+v, want this %v", d.best.Coverage, tt.wantThis)
			}
		})
	}
}

// TestDecidePartialNeverLinksToALaterArticle: an article is no partial
// duplicate of an article published after it (its effective time: one
// published far after its arrival counts as its arrival). That one is left
// out (later), the best earlier one taken instead, and when it copies the
// article from its own side it is found as its copy; equal times and no
// bound (a stored article judged again) keep the old choice.
func TestDecidePartialNeverLinksToALaterArticle(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	type cand struct {
		id                  int64
		published, ingested time.Duration // from t0; stored after the publication
		shared              Coverage      // by sentences, from the judged article's side
		inGroup             bool          // of the article's group, not stored yet
	}
	excerpt := Coverage{This: 0.8, That: 0.9} // each holds most of the other
	tests := []struct {
		name      string
		bound     time.Time
		cands     []cand
		want      int64 // the article linked to, 0 for none
		wantLater []int64
		wantCopy  []int64 // the later ones it heads (headsCopies)
	}{
		{"an earlier article", t0, []cand{{7, -time.Hour, 3 * time.Hour, excerpt, false}}, 7, nil, nil},
		{"a later one, its copy", t0, []cand{{7, time.Hour, 3 * time.Hour, excerpt, false}}, 0, []int64{7}, []int64{7}},
		{"a later one covering it, not its copy", t0, []cand{{7, time.Hour, 3 * time.Hour, Coverage{This: 0.65, That: 0.3}, false}}, 0, []int64{7}, nil},
		{"the later one covers more: the earlier taken", t0,
			[]cand{{7, time.Hour, 3 * time.Hour, Coverage{This: 1, That: 0.9}, false}, {8, -time.Hour, 3 * time.Hour, Coverage{This: 0.7}, false}}, 8, []int64{7}, []int64{7}},
		{"published at the same time", t0, []cand{{7, 0, 3 * time.Hour, excerpt, false}}, 7, nil, nil},
		{"no bound: judged again", time.Time{}, []cand{{7, time.Hour, 3 * time.Hour, excerpt, false}}, 7, nil, nil},
		{"a time far after its arrival counts as the arrival", t0, []cand{{7, 2 * time.Hour, -time.Hour, excerpt, false}}, 7, nil, nil},
		{"a time just after its arrival is trusted", t0, []cand{{7, 5 * time.Minute, 0, excerpt, false}}, 0, []int64{7}, []int64{7}},
		{"a later stored one copying it from its side only", t0, []cand{{7, time.Hour, 3 * time.Hour, Coverage{This: 0.3, That: 0.65}, false}}, 0, nil, []int64{7}},
		{"a later one of its group copying it from its side only", t0, []cand{{7, time.Hour, 0, Coverage{This: 0.3, That: 0.65}, true}}, 0, []int64{7}, nil},
		{"a later one of its group sharing little", t0, []cand{{7, time.Hour, 0, Coverage{This: 0.3, That: 0.5}, true}}, 0, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fp := fingerprint.Fingerprint{Sentences: make([]fingerprint.Sentence, 5)}
			links := make(map[int64]*sharedArticle)
			var candidates []Candidate
			for _, c := range tt.cands {
				links[c.id] = &sharedArticle{match: SentenceMatch{ArticleID: c.id, Status: StatusUnique},
					pairs: distinctPairs(5), coverage: c.shared}
				cd := Candidate{ID: c.id, ClusterID: c.id, PublishedAt: t0.Add(c.published), IngestedAt: t0.Add(c.ingested)}
				if c.inGroup {
					cd.ClusterID, cd.IngestedAt = 0, time.Time{}
				}
				candidates = append(candidates, cd)
			}
			d := decidePartial(fp, tt.bound, links, candidates, nil, Options{Limit: 10})
			var got int64
			if d.best != nil {
				got = d.best.ID
			}
			if got != tt.want || (got == 0) != (d.status == StatusUnique) {
				t.Errorf("links to %d (%s), want %d", got, d.status, tt.want)
			}
			if !slices.Equal(d.later, tt.wantLater) {
				t.Errorf("left out as later %v, want %v", d.later, tt.wantLater)
			}
			for _, m := range d.matches {
				if !tt.bound.IsZero() && tt.bound.Before(m.published()) {
					t.Errorf("match %d published after the article", m.ID)
				}
			}
			if tt.bound.IsZero() {
				return
			}
			var copies []int64
			for _, c := range headsCopies(tt.bound, d) {
				copies = append(copies, c.ID)
			}
			if !slices.Equal(copies, tt.wantCopy) {
				t.Errorf("copies it heads %v, want %v", copies, tt.wantCopy)
			}
		})
	}
}

// TestWithoutLaterPartials: of the article index's matches, the partial
// ones published after the article in another's cluster are left out and
// the best chosen again (the earliest near one, else the closest partial
// one); near ones and partial ones heading their cluster published after
// it stay (it heads those: promotes), and no bound leaves the decision as
// it was.
func TestWithoutLaterPartials(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	m := func(id int64, partial bool, distance int, published time.Duration) Match {
		return Match{ID: id, PublishedAt: t0.Add(published), ingestedAt: t0.Add(3 * time.Hour), partial: partial,
			Similarity: Similarity{Distance: distance, Overlap: 0.5, WordRatio: 0.5}}
	}
	heads := func(m Match) Match { m.clusterID = m.ID; return m }
	tests := []struct {
		name      string
		bound     time.Time
		matches   []Match
		want      int64
		status    Status
		wantLater []int64
	}{
		{"only a later partial", t0, []Match{m(7, true, 3, time.Hour)}, 0, StatusUnique, []int64{7}},
		{"a later partial, an earlier one", t0, []Match{m(7, true, 2, time.Hour), m(8, true, 5, -time.Hour)}, 8, StatusPartialDuplicate, []int64{7}},
		{"a later near one stays", t0, []Match{m(7, false, 2, time.Hour), m(8, true, 5, time.Hour)}, 7, StatusNearDuplicate, []int64{8}},
		{"an earlier partial", t0, []Match{m(7, true, 3, -time.Hour)}, 7, StatusPartialDuplicate, nil},
		{"a later partial heading its cluster stays", t0, []Match{heads(m(7, true, 3, time.Hour)), m(8, true, 2, time.Hour)}, 7, StatusPartialDuplicate, []int64{8}},
		{"no bound", time.Time{}, []Match{m(7, true, 3, time.Hour)}, 7, StatusPartialDuplicate, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := decision{matches: tt.matches}
			d.chooseBest()
			d = withoutLaterPartials(d, tt.bound)
			var got int64
			if d.best != nil {
				got = d.best.ID
			}
			if got != tt.want || d.status != tt.status {
				t.Errorf("links to %d (%s), want %d (%s)", got, d.status, tt.want, tt.status)
			}
			if !slices.Equal(d.later, tt.wantLater) {
				t.Errorf("left out as later %v, want %v", d.later, tt.wantLater)
			}
		})
	}
}

// TestJudgingLeavesOutLaterPartials: a story judged against a stored
// expansion of it in another's cluster (the story plus two sentences: the
// article index's partial match) or a stored excerpt (the partial step's), published
// after it, links to neither when judged with its publication time — in
// publication order they found it — and to one of them without a bound,
// so the fixture reaches the rule both ways.
func TestJudgingLeavesOutLaterPartials(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	opts := DefaultOptions
	article := func(id int64, title, body string, at time.Duration) indexed {
		fp := testFingerprint(t, title, body)
		in := &ArticleInput{Text: Text{Title: title, Body: body}, Source: "s", ExternalID: fmt.Sprint(id), PublishedAt: t0.Add(at)}
		return indexed{id: id, in: in, fp: fp, text: fingerprint.SentenceTexts(fp.PlainBody, fp.Sentences)}
	}
	a := article(1, "Pier", story(0, 0, 6), 0)
	// The article index finds the expansion within its bits (made so: the
	// made-up stories' fingerprints differ by more), a partial match: it
	// holds the story plus more.
	expansion := article(2, "Pier", story(0, 0, 6)+" "+story(2, 0, 2), time.Hour)
	expansion.fp.Simhash = a.fp.Simhash
	for _, tc := range []struct {
		name    string
		stored  indexed
		partial bool // the article index's partial match, not the partial step's
	}{
		{"an expansion published after it", expansion, true},
		{"an excerpt published after it", article(3, "Pier", story(0, 0, 4), time.Hour), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pool := []indexed{tc.stored}
			judge := func(bound time.Time) decision {
				exact, near := copiesAndNear(pool, a.fp, a.in.PublishedAt, opts)
				return runJudging(judgeCandidates(a.fp, bound, exact, near, opts), sentenceMatches(pool, a.fp), a.in.PublishedAt, byIDs(pool))
			}
			free := judge(time.Time{})
			if free.best == nil || free.best.ID != tc.stored.id || free.status != StatusPartialDuplicate {
				t.Fatalf("without a bound: %s of %v, want a partial duplicate of %d (the fixture)", free.status, free.best, tc.stored.id)
			}
			if free.best.partial != tc.partial {
				t.Fatalf("without a bound, matched by the article index %v, want %v (the fixture)", free.best.partial, tc.partial)
			}
			d := judge(a.in.PublishedAt)
			if d.best != nil || d.status != StatusUnique {
				t.Errorf("with its publication time: %s of %d, want unique", d.status, d.best.ID)
			}
			if !slices.Contains(d.later, tc.stored.id) {
				t.Errorf("left out as later %v, want %d among them", d.later, tc.stored.id)
			}
		})
	}
}

// distinctPairs are n shared sentences, each a different one of both
// articles.
func distinctPairs(n int) []SentencePair {
	pairs := make([]SentencePair, n)
	for i := range pairs {
		pairs[i].Position, pairs[i].OtherPosition = i, i
	}
	return pairs
}
