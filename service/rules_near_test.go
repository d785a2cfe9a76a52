package service

import (
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// The decision is pure: these tests feed it candidates directly.

// text is the shingles of the article judged; a candidate shares all of
// them unless it says otherwise.
var text = fingerprint.ShingleSet{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}

func candidate(id, cluster int64, simhash uint64, words ...uint64) Candidate {
	return Candidate{ID: id, ExternalID: "e", ClusterID: cluster, Simhash: simhash,
		Words: fingerprint.NewWordSet(words), Shingles: text, PublishedAt: time.Unix(0, 0)}
}

func withShingles(c Candidate, s ...uint32) Candidate {
	c.Shingles = s
	return c
}

func TestDecide(t *testing.T) {
	fp := fingerprint.Fingerprint{Simhash: 0b1111, Words: fingerprint.NewWordSet([]uint64{1, 2, 3, 4}), Shingles: text}
	opts := Options{MaxDistance: 3, MinOverlap: 0.5, MinWordRatio: 0.5, Limit: 10}

	tests := []struct {
		name        string
		exact, near []Candidate
		opts        Options
		wantStatus  Status
		wantBest    int64 // 0 when unique
		wantMatches []int64
		// wantCoverage is the best match's, for a partial duplicate.
		wantCoverage Coverage
	}{
		{
			name:       "nothing stored",
			wantStatus: StatusUnique,
		},
		{
			name:        "a near duplicate joins the cluster of its closest match",
			near:        []Candidate{candidate(5, 5, 0b0111, 1, 2, 3, 9), candidate(6, 2, 0b1110, 1, 2, 3, 4)},
			wantStatus:  StatusNearDuplicate,
			wantBest:    6, // both at distance 1; 6 shares all words
			wantMatches: []int64{6, 5},
		},
		{
			name:        "too few shared words is no match",
			near:        []Candidate{candidate(5, 5, 0b0111, 1, 9, 10, 11)},
			wantStatus:  StatusUnique,
			wantMatches: nil,
		},
		{
			name:        "too little shared text is no match, however many words",
			near:        []Candidate{withShingles(candidate(5, 5, 0b1111, 1, 2, 3, 4), 1, 2, 3, 4, 11, 12, 13, 14, 15, 16)},
			wantStatus:  StatusUnique,
			wantMatches: nil,
		},
		{
			name:         "a stored text that holds this one plus much more (a digest) is a partial duplicate of it",
			near:         []Candidate{withShingles(candidate(5, 5, 0b1111, 1, 2, 3, 4), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20)},
			wantStatus:   StatusPartialDuplicate,
			wantBest:     5,
			wantMatches:  []int64{5},
			wantCoverage: Coverage{This: 1, That: 0.5},
		},
		{
			name:         "a text that holds a stored one plus much more is a partial duplicate of it",
			near:         []Candidate{withShingles(candidate(5, 5, 0b1111, 1, 2, 3, 4), 1, 2, 3, 4)},
			wantStatus:   StatusPartialDuplicate,
			wantBest:     5,
			wantMatches:  []int64{5},
			wantCoverage: Coverage{This: 0.4, That: 1},
		},
		{
			name:         "a stored text that holds this one plus a quarter more is a partial duplicate",
			near:         []Candidate{withShingles(candidate(5, 5, 0b1111, 1, 2, 3, 4), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14)},
			wantStatus:   StatusPartialDuplicate,
			wantBest:     5,
			wantMatches:  []int64{5},
			wantCoverage: Coverage{This: 1, That: 10.0 / 14},
		},
		{
			name:         "sharing most of the shorter text only is a partial duplicate",
			near:         []Candidate{withShingles(candidate(5, 5, 0b1111, 1, 2, 3, 4), 1, 2, 3, 4, 5, 6, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20)},
			wantStatus:   StatusPartialDuplicate,
			wantBest:     5,
			wantMatches:  []int64{5},
			wantCoverage: Coverage{This: 0.6, That: 0.375},
		},
		{
			name:        "a near match wins over a closer digest",
			near:        []Candidate{withShingles(candidate(6, 6, 0b1111, 1, 2, 3, 4), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20), candidate(5, 5, 0b0111, 1, 2, 3, 4)},
			wantStatus:  StatusNearDuplicate,
			wantBest:    5,
			wantMatches: []int64{5, 6},
		},
		{
			name:        "a stored text that holds this one plus a fifth more is a near duplicate",
			near:        []Candidate{withShingles(candidate(5, 5, 0b1111, 1, 2, 3, 4), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)},
			wantStatus:  StatusNearDuplicate,
			wantBest:    5,
			wantMatches: []int64{5},
		},
		{
			name:        "an edit on both sides sharing three fifths of each: a near duplicate",
			near:        []Candidate{withShingles(candidate(5, 5, 0b1111, 1, 2, 3, 4), 1, 2, 3, 4, 5, 6, 11, 12, 13, 14)},
			wantStatus:  StatusNearDuplicate,
			wantBest:    5,
			wantMatches: []int64{5},
		},
		{
			name:        "most of both texts shared: a near duplicate",
			near:        []Candidate{withShingles(candidate(5, 5, 0b1111, 1, 2, 3, 4), 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12)},
			wantStatus:  StatusNearDuplicate,
			wantBest:    5,
			wantMatches: []int64{5},
		},
		{
			name:        "the match sharing the most text wins a tie of distance",
			near:        []Candidate{withShingles(candidate(5, 5, 0b0111, 1, 2, 3, 4), 1, 2, 3, 4, 5, 6, 7, 11, 12, 13), candidate(6, 6, 0b1110, 1, 2, 3, 4)},
			wantStatus:  StatusNearDuplicate,
			wantBest:    6,
			wantMatches: []int64{6, 5},
		},
		{
			name:        "farther than max_distance is no match",
			near:        []Candidate{candidate(5, 5, 0b0001, 1, 2, 3, 4)},
			opts:        Options{MaxDistance: 2, MinOverlap: 0.5, MinWordRatio: 0.5, Limit: 10},
			wantStatus:  StatusUnique,
			wantMatches: nil,
		},
		{
			name:        "an exact copy wins over a closer-sorted near match and is listed once",
			exact:       []Candidate{candidate(9, 3, 0b1111, 1, 2, 3, 4), candidate(4, 3, 0b1111, 1, 2, 3, 4)},
			near:        []Candidate{candidate(4, 3, 0b1111, 1, 2, 3, 4), candidate(2, 2, 0b1111, 1, 2, 3, 4, 5)},
			wantStatus:  StatusExactDuplicate,
			wantBest:    4, // the earliest exact copy
			wantMatches: []int64{4, 9, 2},
		},
		{
			name:        "matches are cut at limit, closest first",
			near:        []Candidate{candidate(1, 1, 0b0000, 1, 2, 3, 4), candidate(2, 2, 0b1110, 1, 2, 3, 4), candidate(3, 3, 0b1100, 1, 2, 3, 4)},
			opts:        Options{MaxDistance: 3, Limit: 2},
			wantStatus:  StatusNearDuplicate,
			wantBest:    2,
			wantMatches: []int64{2, 3},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := opts
			if tc.opts != (Options{}) {
				o = tc.opts
			}
			d := decide(fp, tc.exact, tc.near, o)
			if d.status != tc.wantStatus {
				t.Errorf("status = %s, want %s", d.status, tc.wantStatus)
			}
			var best int64
			if d.best != nil {
				best = d.best.ID
			}
			if best != tc.wantBest {
				t.Errorf("best = %d, want %d", best, tc.wantBest)
			}
			if d.best != nil && d.best.Coverage != tc.wantCoverage {
				t.Errorf("coverage = %+v, want %+v", d.best.Coverage, tc.wantCoverage)
			}
			var got []int64
			for _, m := range d.matches {
				got = append(got, m.ID)
			}
			if !equalIDs(got, tc.wantMatches) {
				t.Errorf("matches = %v, want %v", got, tc.wantMatches)
			}
		})
	}
}

func equalIDs(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestOptionsValidate(t *testing.T) {
	ok := DefaultOptions
	tests := []struct {
		name  string
		opts  Options
		field string // "" when valid
	}{
		{"defaults", ok, ""},
		{"max_distance 0", Options{MaxDistance: 0, Limit: 1}, ""},
		{"max_distance 4", Options{MaxDistance: 4, Limit: 1}, "max_distance"},
		{"max_distance -1", Options{MaxDistance: -1, Limit: 1}, "max_distance"},
		{"min_overlap 1.5", Options{MaxDistance: 3, MinOverlap: 1.5, Limit: 1}, "min_overlap"},
		{"min_overlap -0.1", Options{MaxDistance: 3, MinOverlap: -0.1, Limit: 1}, "min_overlap"},
		{"min_word_ratio 2", Options{MaxDistance: 3, MinWordRatio: 2, Limit: 1}, "min_word_ratio"},
		{"min_word_ratio -0.1", Options{MaxDistance: 3, MinWordRatio: -0.1, Limit: 1}, "min_word_ratio"},
		{"negative window", Options{MaxDistance: 3, Window: -time.Hour, Limit: 1}, "window_hours"},
		{"limit 0", Options{MaxDistance: 3}, "limit"},
		{"limit 1001", Options{MaxDistance: 3, Limit: 1001}, "limit"},
	}
	for _, tc := range tests {
		err := tc.opts.Validate()
		var field string
		if e, isErr := err.(*Error); isErr {
			field = e.Field
		}
		if field != tc.field || (tc.field == "") != (err == nil) {
			t.Errorf("%s: Validate() = %v, want an error on %q", tc.name, err, tc.field)
		}
	}
}
