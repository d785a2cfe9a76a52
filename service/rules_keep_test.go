package service

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

func TestKeep(t *testing.T) {
	t.Parallel()
	day := time.Date(2026, 6, 18, 8, 0, 0, 0, time.UTC)
	// m is a member holding the sampled 5-grams [from, to) of a text, and
	// extra more that no other member has (promotion, other stories).
	m := func(id int64, source string, from, to uint32, minutes int, extra ...uint32) KeepCandidate {
		var sh fingerprint.ShingleSet
		for g := from; g < to; g++ {
			sh = append(sh, g)
		}
		for _, n := range extra {
			for g := range n {
				sh = append(sh, 1_000_000*uint32(id)+g)
			}
		}
		return KeepCandidate{ID: id, ClusterID: 1, Source: source, Shingles: sh,
			PublishedAt: day.Add(time.Duration(minutes) * time.Minute)}
	}
	// withExtra adds the 5-grams [from, to) to c, in order.
	withExtra := func(c KeepCandidate, from, to uint32) KeepCandidate {
		for g := from; g < to; g++ {
			c.Shingles = append(c.Shingles, g)
		}
		slices.Sort(c.Shingles)
		return c
	}
	kept := func(c KeepCandidate, decision int64) KeepCandidate {
		c.Kept = &Decision{ID: decision, Action: ActionKeep, Editor: "王芳", DecidedAt: day}
		return c
	}
	xinhua := KeepPolicy{Sources: []string{"xinhua", "people"}}
	// partial makes c a partial duplicate with coverage this, that.
	partial := func(c KeepCandidate, this, that float64) KeepCandidate {
		c.Status, c.Coverage = StatusPartialDuplicate, Coverage{This: this, That: that}
		return c
	}
	// compilation makes c a partial duplicate holding the article it links
	// to and half of an article of another cluster.
	compilation := func(c KeepCandidate) KeepCandidate {
		c = partial(c, 0.3, 1)
		c.Compilation = true
		return c
	}
	marked := func(c KeepCandidate) KeepCandidate { c.Compilation = true; return c }

	tests := []struct {
		name     string
		members  []KeepCandidate
		policy   KeepPolicy
		wantID   int64
		wantRule KeepRule
		reason   string // in the reason
	}{
		{"alone", []KeepCandidate{m(1, "sina", 0, 300, 0)}, xinhua, 1, KeepOnlyMember, "only member"},
		{"the text holding the most of the story", []KeepCandidate{m(1, "sina", 0, 300, 0), m(2, "163", 0, 500, 5), m(3, "qq", 200, 500, 1)},
			KeepPolicy{}, 2, KeepByLength, "holds 100% of the story's text, the next 60%"},
		{"text no other member has counts for nothing: a padded repost is no more complete than its original",
			[]KeepCandidate{m(1, "sina", 0, 500, 0), m(2, "163", 0, 500, 180, 300)}, KeepPolicy{}, 1, KeepEarliest, "of 2 complete texts"},
		{"nor a page of several stories", []KeepCandidate{m(1, "sina", 0, 500, 0), m(2, "163", 0, 500, -60, 3000), m(3, "qq", 0, 480, 30)},
			KeepPolicy{}, 2, KeepEarliest, "of 3 complete texts"},
		{"exactly 5% less is complete", []KeepCandidate{m(1, "a", 0, 95, 0), m(2, "b", 0, 100, 1), m(3, "c", 0, 100, 2)}, KeepPolicy{}, 1, KeepEarliest, "3 complete"},
		{"more than 5% less is not", []KeepCandidate{m(1, "a", 0, 94, 0), m(2, "b", 0, 100, 1), m(3, "c", 50, 100, 2)}, KeepPolicy{}, 2, KeepByLength, "holds 100%"},
		{"the earliest published, then the lowest id", []KeepCandidate{m(5, "a", 0, 100, 3), m(4, "b", 0, 100, 3), m(6, "c", 0, 100, 4)}, KeepPolicy{}, 4, KeepEarliest, "3 complete"},
		{"a preferred source beats a more complete text", []KeepCandidate{m(1, "sina", 0, 900, 0), m(2, "people", 0, 300, 5)}, xinhua, 2, KeepBySource, "preferred source people (2nd of 2"},
		{"the better-ranked source wins", []KeepCandidate{m(1, "people", 0, 900, 0), m(2, "xinhua", 0, 300, 5)}, xinhua, 2, KeepBySource, "1st of 2"},
		{"two from the best source: the more complete of them", []KeepCandidate{m(1, "xinhua", 0, 300, 0), m(2, "xinhua", 0, 600, 5), m(3, "sina", 0, 900, 0)}, xinhua,
			2, KeepByLength, "of the 2 members from preferred source xinhua"},
		{"no member from a preferred source", []KeepCandidate{m(1, "sina", 0, 300, 0), m(2, "qq", 0, 600, 5), m(3, "sina", 300, 600, 9)}, xinhua, 2, KeepByLength, "the most complete"},
		{"a digest holding the story plus much more is not the most complete",
			[]KeepCandidate{m(1, "sina", 0, 800, 0), partial(m(2, "163", 0, 800, -5, 2200), 0.3, 1), m(3, "qq", 0, 790, 9)}, KeepPolicy{}, 1, KeepEarliest, "not counted: 1 that hold"},
		{"nor an expansion, even the only other member", []KeepCandidate{m(1, "sina", 0, 800, 0), partial(m(2, "163", 0, 1100, -5), 0.79, 0.8)}, KeepPolicy{}, 1, KeepByLength, "holds 100%"},
		{"a partial copy with 80 % of its text in the other counts", []KeepCandidate{m(1, "sina", 0, 800, 0), partial(m(2, "163", 0, 1000, -5), 0.8, 1)}, KeepPolicy{}, 2, KeepEarliest, "2 complete"},
		{"a partial copy that holds less of the other counts", []KeepCandidate{m(1, "sina", 0, 800, 0), partial(m(2, "163", 0, 3000, -5), 0.3, 0.79)}, KeepPolicy{}, 2, KeepEarliest, "2 complete"},
		{"a digest from the only preferred source is kept by source", []KeepCandidate{m(1, "sina", 0, 800, 0), partial(m(2, "xinhua", 0, 3000, 5), 0.3, 1)}, xinhua, 2, KeepBySource, "preferred source xinhua"},
		{"when every member of the best source holds more, they count", []KeepCandidate{m(1, "sina", 0, 800, 0), partial(m(2, "xinhua", 0, 3000, 5), 0.3, 1), partial(m(3, "xinhua", 0, 2000, 1), 0.4, 1)},
			xinhua, 3, KeepEarliest, "of the 2 members from preferred source xinhua"},
		{"when every member of the best source holds more, a compilation still does not count",
			[]KeepCandidate{m(1, "sina", 0, 800, 0), compilation(m(2, "xinhua", 0, 800, -10, 3000)), partial(m(3, "xinhua", 0, 700, 5), 0.3, 1)},
			xinhua, 3, KeepByLength, "of the 2 members from preferred source xinhua, the most complete text"},
		{"compilations alone: none is kept by completeness, the earliest is",
			[]KeepCandidate{m(1, "sina", 0, 800, 0), compilation(m(2, "xinhua", 0, 800, 10, 3000)), compilation(m(3, "xinhua", 0, 500, 5, 3000))},
			xinhua, 3, KeepEarliest, "of 2 complete texts"},
		{"the mark counts only with a partial link that holds more", []KeepCandidate{m(1, "sina", 0, 800, 0), marked(m(2, "163", 0, 800, -5))},
			KeepPolicy{}, 2, KeepEarliest, "2 complete"},
		{"a footer two reposts of one portal share is no story in a cluster of six",
			[]KeepCandidate{m(1, "xinhua", 0, 500, 0), m(2, "a", 0, 500, 60), m(3, "b", 0, 500, 70), m(4, "c", 0, 500, 80),
				withExtra(m(5, "portal", 0, 500, 90), 10_000, 10_100), withExtra(m(6, "portal", 0, 480, 95), 10_000, 10_100)},
			KeepPolicy{}, 1, KeepEarliest, "of 6 complete texts"},
		{"no text shared: the earliest", []KeepCandidate{m(1, "sina", 0, 0, 5, 100), m(2, "qq", 0, 0, 0, 200)}, KeepPolicy{}, 2, KeepEarliest, "2 complete"},
		{"an editor's choice beats the rule", []KeepCandidate{m(1, "xinhua", 0, 900, 0), kept(m(2, "sina", 0, 100, 5), 7)}, xinhua, 2, KeepByEditor, "kept by an editor, 王芳"},
		{"the latest editor's choice wins", []KeepCandidate{kept(m(1, "xinhua", 0, 900, 0), 9), kept(m(2, "sina", 0, 100, 5), 7)}, xinhua, 1, KeepByEditor, "王芳"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := keep(tt.members, tt.policy)
			if got.ID != tt.wantID || got.Rule != tt.wantRule || !strings.Contains(got.Reason, tt.reason) {
				t.Errorf("keep() = %d by %s (%q), want %d by %s (reason with %q)", got.ID, got.Rule, got.Reason, tt.wantID, tt.wantRule, tt.reason)
			}
			if (got.Rule == KeepByEditor) != (got.By != nil) {
				t.Errorf("keep() rule %s with decision %v", got.Rule, got.By)
			}
		})
	}
}

func TestKeepPolicyValidate(t *testing.T) {
	t.Parallel()
	for _, p := range []KeepPolicy{{Sources: []string{"xinhua", " "}}, {Sources: []string{"a", "a"}}, {Sources: []string{strings.Repeat("x", 257)}}, {Sources: []string{"a\x00"}}} {
		if err := p.Validate(); err == nil {
			t.Errorf("KeepPolicy%v.Validate() = nil, want an error", p.Sources)
		}
	}
	if err := (KeepPolicy{Sources: []string{"xinhua", "people"}}).Validate(); err != nil {
		t.Errorf("Validate() = %v", err)
	}
}

func TestKeywordSpans(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text  string
		words []string
		want  []Span
	}{
		{"长江洪水，长江", []string{"长江"}, []Span{{0, 6}, {15, 21}}},
		{"长江洪水", []string{"长江", "洪水"}, []Span{{0, 12}}},             // touching spans merge
		{"Apple apple", []string{"apple"}, []Span{{0, 5}, {6, 11}}}, // ASCII regardless of case
		{"应急响应", []string{"应急响应", "响应"}, []Span{{0, 12}}},           // overlapping spans merge
		{"无关", []string{"长江", ""}, nil},
	}
	for _, tt := range tests {
		got := KeywordSpans(tt.text, tt.words)
		if len(got) != len(tt.want) {
			t.Errorf("KeywordSpans(%q, %q) = %v, want %v", tt.text, tt.words, got, tt.want)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("KeywordSpans(%q, %q) = %v, want %v", tt.text, tt.words, got, tt.want)
				break
			}
		}
	}
}

func TestDecisionInputValidate(t *testing.T) {
	t.Parallel()
	for _, in := range []DecisionInput{{Editor: ""}, {Editor: "  "}, {Editor: "a\nb"}, {Editor: strings.Repeat("名", 101)},
		{Editor: "王芳", Note: strings.Repeat("x", 1001)}, {Editor: "\xff"}} {
		if err := in.validate(); err == nil {
			t.Errorf("DecisionInput%+v.validate() = nil, want an error", in)
		}
	}
	in := DecisionInput{Editor: "  王芳 ", Note: "不是同一事件"}
	if err := in.validate(); err != nil || in.Editor != "王芳" {
		t.Errorf("validate() = %v, editor %q; want nil, 王芳", err, in.Editor)
	}
}

// TestStoryHeldAsCounted: storyHeld, which sorts the members' 5-grams
// together, counts what counting each 5-gram's holders in a map counts,
// on random clusters of 1 to 120 members.
func TestStoryHeldAsCounted(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(36, 23))
	for range 200 {
		members := make([]KeepCandidate, 1+rng.IntN(120))
		for i := range members {
			var sh fingerprint.ShingleSet
			for g := uint32(rng.IntN(50)); g < uint32(50+rng.IntN(300)); g += uint32(1 + rng.IntN(3)) {
				sh = append(sh, g*2654435761) // spread over every byte
			}
			slices.Sort(sh)
			members[i] = KeepCandidate{ID: int64(i + 1), Shingles: sh}
		}
		quorum := max(2, (len(members)+1)/2)
		count := map[uint32]int{}
		for _, m := range members {
			for _, s := range m.Shingles {
				count[s]++
			}
		}
		wantStory := 0
		for _, n := range count {
			if n >= quorum {
				wantStory++
			}
		}
		held, story := storyHeld(members)
		if story != wantStory {
			t.Fatalf("%d members: story of %d 5-grams, want %d", len(members), story, wantStory)
		}
		for _, m := range members {
			want := 0
			for _, s := range m.Shingles {
				if count[s] >= quorum {
					want++
				}
			}
			if held[m.ID] != want {
				t.Fatalf("%d members: member %d holds %d, want %d", len(members), m.ID, held[m.ID], want)
			}
		}
	}
}
