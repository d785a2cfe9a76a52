package main

import "testing"

// TestDigestTally counts each verdict once, by size and corpus, and the
// goals read the totals: a near verdict fails the first however it links,
// anything but a partial duplicate of a story fails the second.
func TestDigestTally(t *testing.T) {
	digests := []digest{{Size: 3, Corpus: corpusSina}, {Size: 3, Corpus: corpusSina}, {Size: 5, Corpus: corpusCCTV}, {Size: 3, Corpus: corpusCCTV}}
	outcomes := []digestOutcome{
		{Status: statusPartial, OfStory: true, Nearest: 0},
		{Status: statusNear, OfStory: true, Nearest: 2},
		{Status: statusUnique, Nearest: 9},
		{Status: statusNear, OfStory: false, Nearest: -1},
	}
	counts := tallyDigests(digests, outcomes)
	want := []digestCount{
		{Size: 3, Corpus: corpusCCTV, Digests: 1, Elsewhere: 1, Near: 1},
		{Size: 3, Corpus: corpusSina, Digests: 2, PartialOfStory: 1, NearOfStory: 1, Near: 1, Within3: 2, AtZero: 1},
		{Size: 5, Corpus: corpusCCTV, Digests: 1, Unique: 1},
	}
	if len(counts) != len(want) {
		t.Fatalf("tallyDigests() = %+v, want %+v", counts, want)
	}
	for i := range want {
		if counts[i] != want[i] {
			t.Errorf("tallyDigests()[%d] = %+v, want %+v", i, counts[i], want[i])
		}
	}
	goals := digestResults{Counts: counts}.goals()
	if len(goals) != 2 || *goals[0].Met || *goals[1].Met || goals[0].Figure != "0.500 (2/4)" || goals[1].Figure != "0.250 (1/4)" {
		t.Errorf("goals() = %+v", goals)
	}
	good := digestResults{Counts: []digestCount{{Size: 3, Corpus: corpusSina, Digests: 2, PartialOfStory: 2}}}.goals()
	if !*good[0].Met || !*good[1].Met {
		t.Errorf("goals() of partial digests = %+v, want both met", good)
	}
	if g := (digestResults{}).goals(); g != nil {
		t.Errorf("goals() of no digests = %+v, want none", g)
	}
}
