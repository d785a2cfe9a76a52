package service

import (
	"slices"
	"testing"
)

// heldItem is an arrival that takes exactly these locks.
func heldItem(locks ...LockKey) *arrival { return &arrival{lockSet: locks} }

// TestSetAside holds the split of a batch's group around the locks of the
// groups in flight: the blocked items and every later one that shares a
// lock with one of them are set aside, in order, and marked; an item set
// aside once is not again; a group that would be set aside whole is not.
func TestSetAside(t *testing.T) {
	var h heldLocks
	a := heldItem(1, 10)
	b := heldItem(2, 20)  // blocked: another group holds 20
	c := heldItem(3, 30)  // free
	d := heldItem(4, 2)   // shares 2 with b, set aside before it
	e := heldItem(5, 50)  // free
	f := heldItem(30, 60) // shares 30 with c, which is stored now: free

	if now, later := h.setAside([]*arrival{a, b, c}); len(later) != 0 || len(now) != 3 {
		t.Fatalf("nothing in flight: %d now, %d later", len(now), len(later))
	}
	release := h.hold([]*arrival{heldItem(20, 99), heldItem(20)})
	now, later := h.setAside([]*arrival{a, b, c, d, e, f})
	if want := []*arrival{a, c, e, f}; !slices.Equal(now, want) {
		t.Errorf("stored now: %v, want a, c, e, f", names(now, a, b, c, d, e, f))
	}
	if want := []*arrival{b, d}; !slices.Equal(later, want) {
		t.Errorf("set aside: %v, want b, d", names(later, a, b, c, d, e, f))
	}
	if !b.setAside || !d.setAside || a.setAside || c.setAside {
		t.Error("only the items set aside are marked")
	}

	// The next group starts with them: they are not set aside again.
	g := heldItem(7, 20) // new, and blocked
	now, later = h.setAside([]*arrival{b, d, g})
	if !slices.Equal(now, []*arrival{b, d}) || !slices.Equal(later, []*arrival{g}) {
		t.Errorf("again: now %d, later %d; want b and d now, g later", len(now), len(later))
	}

	// A group every item of which is blocked goes as it is.
	x, y := heldItem(20), heldItem(99, 8)
	if now, later := h.setAside([]*arrival{x, y}); len(later) != 0 || len(now) != 2 || x.setAside || y.setAside {
		t.Errorf("all blocked: %d now, %d later", len(now), len(later))
	}

	// Released twice over (two groups held 20), the locks are free again.
	release()
	if len(h.held) != 0 {
		t.Errorf("%d locks still counted after the release", len(h.held))
	}
	z := heldItem(20)
	if now, later := h.setAside([]*arrival{z}); len(now) != 1 || len(later) != 0 {
		t.Error("a lock released still sets items aside")
	}
}

func names(got []*arrival, all ...*arrival) []string {
	var out []string
	for _, it := range got {
		out = append(out, string(rune('a'+slices.Index(all, it))))
	}
	return out
}
