package service

import "sync"

// Storing around the groups in flight. A writer whose group needs a lock
// another writer's group holds waits, in PostgreSQL, for that whole group
// to commit; on real news nearly all such waits are on family-A block
// locks, the near duplicates of one story arriving in two batches at once.
//
// So before a group begins its transaction, the articles whose locks a
// group being stored in this process holds are set aside for the next
// group — a batch's next, or the next the combiner takes from its queue
// (ingest_queue.go) — with every later article of the group that shares a lock
// with one set aside; the others are stored at once. That changes no
// verdict: two articles that share no lock can be neither near duplicates
// of each other (two fingerprints within 3 bits share a family-A block) nor
// partial duplicates (they would share a sentence's lock), so storing one
// before the other judges each as the order they came in would. An article
// is set aside once at most, and not at all when all of a group would be:
// it then waits for its locks as before. PostgreSQL's locks still decide;
// this only chooses what to ask for first, in this process.
//
// Measured on real news: docs/design-notes.md, "service: setting aside
// around groups in flight".

// heldLocks counts the locks of the groups this process is storing.
type heldLocks struct {
	mu   sync.Mutex
	held map[LockKey]int
}

// hold counts g's locks as held until release is called.
func (h *heldLocks) hold(g []*arrival) (release func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.held == nil {
		h.held = make(map[LockKey]int)
	}
	for _, it := range g {
		for _, k := range it.locks() {
			h.held[k]++
		}
	}
	return func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		for _, it := range g {
			for _, k := range it.locks() {
				if h.held[k]--; h.held[k] <= 0 {
					delete(h.held, k)
				}
			}
		}
	}
}

// setAside splits a batch's group, in order, into the items to store now
// and those to store in the batch's next group: an item not set aside
// before whose locks another group holds, and every later item that shares
// a lock with one set aside. When every item would be set aside, none is.
func (h *heldLocks) setAside(g []*arrival) (now, later []*arrival) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.held) == 0 {
		return g, nil
	}
	var aside map[LockKey]bool
	for _, it := range g {
		if it.setAside || !h.needs(it, aside) {
			now = append(now, it)
			continue
		}
		if aside == nil {
			aside = make(map[LockKey]bool)
		}
		for _, k := range it.locks() {
			aside[k] = true
		}
		later = append(later, it)
	}
	if len(now) == 0 {
		return g, nil
	}
	for _, it := range later {
		it.setAside = true
	}
	return now, later
}

// blocks reports whether every article of g needs a lock that a group in
// flight holds: storing g now would only wait.
func (h *heldLocks) blocks(g []*arrival) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.held) == 0 || len(g) == 0 {
		return false
	}
	for _, it := range g {
		if !h.needs(it, nil) {
			return false
		}
	}
	return true
}

// needs reports whether it takes a lock a group in flight holds, or one of
// aside's. The caller holds h.mu.
func (h *heldLocks) needs(it *arrival, aside map[LockKey]bool) bool {
	for _, k := range it.locks() {
		if h.held[k] > 0 || aside[k] {
			return true
		}
	}
	return false
}
