package service

import (
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

func shingleRange(from, to uint32) fingerprint.ShingleSet {
	var s fingerprint.ShingleSet
	for i := from; i < to; i++ {
		s = append(s, i)
	}
	return s
}

// TestDrifts: only a partial duplicate sharing less than DriftShare of its
// own shingles with the cluster's original drifts; a near or exact
// duplicate always joins.
func TestDrifts(t *testing.T) {
	orig := shingleRange(0, 100)
	tests := []struct {
		name   string
		status Status
		own    fingerprint.ShingleSet
		want   bool
	}{
		{"a page holding the story amid four others", StatusPartialDuplicate, shingleRange(75, 175), true},
		{"an excerpt of the story", StatusPartialDuplicate, shingleRange(0, 40), false},
		{"a partial duplicate at the share exactly", StatusPartialDuplicate, shingleRange(70, 170), false},
		{"a near duplicate sharing little with the original", StatusNearDuplicate, shingleRange(90, 190), false},
		{"a partial duplicate without shingles", StatusPartialDuplicate, nil, false},
	}
	for _, tc := range tests {
		if got := drifts(tc.status, tc.own, orig); got != tc.want {
			t.Errorf("%s: drifts = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestNoteOriginal: a group's article becomes its cluster's original when
// published before it, unless it holds more (a digest) and the original
// does not; a group's own head is its cluster's original.
func TestNoteOriginal(t *testing.T) {
	day := time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)
	origs := map[int64]ClusterOriginal{7: {ID: 7, PublishedAt: day}}
	digest := Article{ID: 10, ClusterID: 7, PublishedAt: day.Add(-time.Hour), Status: StatusPartialDuplicate,
		Similarity: Similarity{Coverage: Coverage{This: 0.3, That: 0.95}}}
	noteOriginal(origs, &digest)
	if origs[7].ID != 7 {
		t.Errorf("a digest published earlier became the original: %+v", origs[7])
	}
	earlier := Article{ID: 11, ClusterID: 7, PublishedAt: day.Add(-time.Hour), Status: StatusNearDuplicate}
	noteOriginal(origs, &earlier)
	if origs[7].ID != 11 {
		t.Errorf("the original is %d, want 11, published before 7", origs[7].ID)
	}
	later := Article{ID: 12, ClusterID: 7, PublishedAt: day, Status: StatusNearDuplicate}
	noteOriginal(origs, &later)
	if origs[7].ID != 11 {
		t.Errorf("the original is %d, want 11 still", origs[7].ID)
	}
	head := Article{ID: 13, ClusterID: 13, PublishedAt: day.Add(time.Hour), Status: StatusPartialDuplicate, DuplicateOf: 7}
	noteOriginal(origs, &head)
	if origs[13].ID != 13 {
		t.Errorf("a group's article heading its own cluster is not its original: %+v", origs[13])
	}
}

// TestRelinkKeepsDriftHeads: a dependant that heads a cluster of its own
// though linked goes on heading it when it is relinked, even to a member
// of the group; the others go where their links lead.
func TestRelinkKeepsDriftHeads(t *testing.T) {
	first := testMember(2, "first", 0, shingleRange(0, 10), 1)
	drifted := testMember(3, "drifted", 0, shingleRange(0, 10), 1)
	drifted.ClusterID, drifted.Status = 3, StatusPartialDuplicate
	other := testMember(4, "other", 0, shingleRange(0, 10), 1)
	p := newRelinks(newGroup([]*member{first, drifted, other}, nil, DefaultOptions), 1)
	p.set(0, Link{ID: 2, Status: StatusUnique}, true)
	p.set(1, Link{ID: 3, Status: StatusPartialDuplicate, DuplicateOf: 2, ClusterID: 1}, true)
	p.set(2, Link{ID: 4, Status: StatusNearDuplicate, DuplicateOf: 3, ClusterID: 1}, true)
	got := map[int64]int64{}
	for _, l := range p.changed() {
		got[l.ID] = l.ClusterID
	}
	if c, ok := got[3]; ok && c != 3 {
		t.Errorf("the drifted dependant goes to cluster %d, want its own (3)", c)
	}
	if got[4] != 3 {
		t.Errorf("the dependant linking to the drifted one goes to cluster %d, want 3", got[4])
	}
}
