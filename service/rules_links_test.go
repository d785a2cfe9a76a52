package service

import (
	"crypto/sha256"
	"fmt"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// The measures of dependants are pure: these tests give them members
// directly.

var t0 = time.Date(2026, 11, 27, 8, 0, 0, 0, time.UTC)

// sentencesOf are indexed sentences of 10 runes each, one per text hash.
func sentencesOf(hashes ...uint64) []fingerprint.Sentence {
	out := make([]fingerprint.Sentence, len(hashes))
	for i, h := range hashes {
		out[i] = fingerprint.Sentence{TextHash: h, Runes: 10}
	}
	return out
}

// testMember is article id with text name (its content hash), simhash,
// shingles and sentences, in cluster 1, published at t0.
func testMember(id int64, name string, simhash uint64, shingles fingerprint.ShingleSet, sentences ...uint64) *member {
	a := Article{
		ID: id, ExternalID: "e", PublishedAt: t0, IngestedAt: t0.Add(time.Duration(id) * time.Second),
		Simhash: simhash, FingerprintVersion: fingerprint.VersionNews, Words: fingerprint.NewWordSet([]uint64{1, 2, 3}),
		ContentHash: sha256.Sum256([]byte(name)), Shingles: shingles, ClusterID: 1, DuplicateOf: 1,
		Status: StatusExactDuplicate, Similarity: Similarity{Overlap: 1, WordRatio: 1},
	}
	a.Sentences = sentencesOf(sentences...)
	return memberOf(a, a.fingerprint())
}

func TestLinkTo(t *testing.T) {
	opts := DefaultOptions
	target := testMember(1, "corrected", 0b1111, text, 1, 2, 3, 4, 5)
	later := func(m *member, d time.Duration) *member { m.PublishedAt = m.PublishedAt.Add(d); return m }
	version := func(m *member, v fingerprint.Version) *member { m.fp.Version = v; return m }
	tests := []struct {
		name     string
		d        *member
		want     Status
		distance int
	}{
		{"the same text", testMember(2, "corrected", 0b1111, text, 1, 2, 3, 4, 5), StatusExactDuplicate, 0},
		{"a copy of the old text, one bit and a headline apart", testMember(3, "old", 0b1110, text, 1, 2, 3, 4, 5), StatusNearDuplicate, 1},
		{"an excerpt, far by its fingerprint", testMember(4, "excerpt", 0xff00, fingerprint.ShingleSet{1, 2, 3}, 1, 2, 3), StatusPartialDuplicate, 12},
		{"one sentence of five shared", testMember(5, "quote", 0xff00, fingerprint.ShingleSet{1, 99, 98, 97}, 1, 7, 8, 9, 10), StatusUnique, 0},
		{"too little text shared", testMember(6, "other", 0b1111, fingerprint.ShingleSet{1, 99, 98, 97}, 7, 8), StatusUnique, 0},
		{"near but out of the window", later(testMember(7, "old", 0b1110, text), 200*time.Hour), StatusUnique, 0},
		{"a copy out of the window", later(testMember(8, "corrected", 0b1111, text), 200*time.Hour), StatusExactDuplicate, 0},
		{"another fingerprint version", version(testMember(9, "corrected", 0b1111, text), fingerprint.VersionWeighted), StatusUnique, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := linkTo(tt.d, target, opts)
			if d.status != tt.want || (d.best == nil) != (tt.want == StatusUnique) {
				t.Fatalf("linkTo = %s, best %v; want %s", d.status, d.best, tt.want)
			}
			if d.best != nil && (d.best.ID != target.ID || d.best.Distance != tt.distance) {
				t.Errorf("links to %d at distance %d, want %d at %d", d.best.ID, d.best.Distance, target.ID, tt.distance)
			}
		})
	}
}

func TestSentenceCoverage(t *testing.T) {
	own := append(sentencesOf(1, 2), fingerprint.Sentence{TextHash: 3, Runes: 20})
	c, shared := sentenceCoverage(own, sentencesOf(2, 3, 4, 5))
	if !shared || c.This != 0.75 || c.That != 0.5 {
		t.Errorf("sentenceCoverage = %+v, %v; want this 0.75 (30 of 40 runes), that 0.5 (2 of 4 sentences)", c, shared)
	}
	if _, shared := sentenceCoverage(own, sentencesOf(7)); shared {
		t.Error("sentenceCoverage with no sentence in common: shared")
	}
}

func TestGroupWithin(t *testing.T) {
	members := []*member{
		testMember(10, "a", 0b0000, text, 1, 2, 3),                                            // heads the others next
		testMember(11, "b", 0b0001, text, 1, 2, 3),                                            // near 10
		testMember(12, "b", 0b0001, text, 1, 2, 3),                                            // a copy of 11
		testMember(13, "c", 0b0011, text, 1, 2, 3),                                            // near 11 (1 bit) and 10 (2 bits)
		testMember(14, "d", 0xf0f0, text, 1, 2, 3),                                            // far by its fingerprint, all its sentences shared
		testMember(15, "b", 0b0001, text, 1, 2, 3),                                            // a copy of 11, but separated from every other
		testMember(16, "e", 0x0f0f, text, 40, 41),                                             // nothing like the others
		testMember(17, "a", 0b0000, text, 1, 2, 3),                                            // a copy of 10, of another fingerprint version
		testMember(18, "f", 0xff00, fingerprint.ShingleSet{1, 99, 98, 97}, 1, 50, 51, 52, 53), // shares one sentence of five: too little
	}
	members[7].fp.Version = fingerprint.VersionWeighted
	apart := map[int64]separations{15: {10: true, 11: true, 12: true, 13: true, 14: true}}
	g := newGroup(members, apart, DefaultOptions)
	tests := []struct {
		i      int
		want   Status
		linkTo int64
	}{
		{1, StatusNearDuplicate, 10},
		{2, StatusExactDuplicate, 11},
		{3, StatusNearDuplicate, 11},
		{4, StatusPartialDuplicate, 10},
		{5, StatusUnique, 0},
		{6, StatusUnique, 0},
		{7, StatusUnique, 0},
		{8, StatusUnique, 0},
	}
	for _, tt := range tests {
		d := g.within(tt.i)
		got := int64(0)
		if d.best != nil {
			got = d.best.ID
		}
		if d.status != tt.want || got != tt.linkTo {
			t.Errorf("member %d: %s of %d, want %s of %d", members[tt.i].ID, d.status, got, tt.want, tt.linkTo)
		}
	}
}

// TestGroupWithinBounded gives a member thousands of earlier ones: it is
// measured against closestMembers of them by fingerprint and a few of
// those holding each of its sentences.
func TestGroupWithinBounded(t *testing.T) {
	var members []*member
	for i := range 5000 {
		members = append(members, testMember(int64(100+i), fmt.Sprint("copy ", i), uint64(i%2), text, 1, 2, 3))
	}
	g := newGroup(members, nil, DefaultOptions)
	if n := len(g.closest(len(members) - 1)); n != closestMembers {
		t.Errorf("closest: %d candidates, want %d", n, closestMembers)
	}
	if n := len(g.sharing(len(members) - 1)); n > 3*holdersMeasured {
		t.Errorf("sharing: %d candidates, want at most %d (its 3 sentences, %d each)", n, 3*holdersMeasured, holdersMeasured)
	}
	if d := g.within(len(members) - 1); d.best == nil || d.best.ID != 101 {
		t.Errorf("within = %+v, want 101, the earliest member at distance 0", d.best)
	}
}

// TestRelinksChanged follows the clusters of a group's members once their
// new links are set: a member linking to another goes where it goes, one
// linking to an article of a cluster being reshaped is left for the
// database to place, and a link that does not change is not written.
func TestRelinksChanged(t *testing.T) {
	var members []*member
	for i := range 6 {
		members = append(members, testMember(int64(10+i), "copy", 0, text))
	}
	g := newGroup(members, nil, DefaultOptions)
	p := newRelinks(g, 1)
	near := func(id, to, cluster int64) Link {
		return Link{ID: id, Status: StatusNearDuplicate, DuplicateOf: to, ClusterID: cluster}
	}
	p.set(0, Link{ID: 10, Status: StatusUnique}, true) // heads the others next
	p.set(1, near(11, 10, 0), true)                    // to a member: goes to 10's cluster
	p.set(2, near(12, 50, 40), false)                  // outside: cluster 40
	p.set(3, near(13, 60, 1), false)                   // to an article of the cluster reshaped
	p.set(4, near(14, 13, 0), true)                    // follows 13, wherever it goes
	kept := members[5].Article
	p.set(5, Link{ID: 15, Status: kept.Status, DuplicateOf: kept.DuplicateOf, ClusterID: 1, Similarity: kept.Similarity}, true)

	want := map[int64]int64{10: 0, 11: 10, 12: 40, 13: 0, 14: 0}
	got := p.changed()
	if len(got) != len(want) {
		t.Fatalf("changed() = %+v, want the links of %v", got, want)
	}
	for _, l := range got {
		if c, ok := want[l.ID]; !ok || l.ClusterID != c {
			t.Errorf("article %d goes to cluster %d, want %d (in %v)", l.ID, l.ClusterID, c, ok)
		}
	}
}
