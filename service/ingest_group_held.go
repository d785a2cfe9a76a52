package service

import "sync"

// Storing around the groups in flight. A writer whose group needs a lock
// another writer's group holds waits, in PostgreSQL, for that whole group
// to commit: on real news with the sentence index, batch ingest's sessions
// spent about 37 % of their time so (dedupbench's *What the database's
// sessions were doing*), nearly all of it on family-A block locks, the
// near duplicates of one story arriving in two batches at once.
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
// Measured with dedupbench -only news-ingest -news-reps 2 (4,000 Sina
// articles, batches of 100), two runs of each build in turn. Batches with
// the sentence index, 2 clients: 392–476 articles/s (median 450) against
// 347–420 (394); 4 clients 408–509 (470) against 359–439 (385); the
// sessions waiting for an advisory lock fell from 0.56–0.59 on average to
// 0.17–0.20 with 2 clients, from 0.72–0.73 to 0.22–0.28 with 4. Without the
// sentence index, whose groups are shorter, the rates did not move beyond
// the noise. Single ingests (16 clients), set aside in a second step and
// measured the same way against batches alone: with the index 241–319
// articles/s (median 273) against 229–275 (242), the sessions waiting for
// a lock 0.11 against 0.24–0.26; without it 449–545 (504) against 407–556
// (452); the verdicts the same.

// heldLocks counts the locks of the groups this process is storing.
type heldLocks struct {
	mu   sync.Mutex
	held map[LockKey]int
}

// hold counts g's locks as held until release is called.
func (h *heldLocks) hold(g []*groupItem) (release func()) {
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
func (h *heldLocks) setAside(g []*groupItem) (now, later []*groupItem) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.held) == 0 {
		return g, nil
	}
	var aside map[LockKey]bool
	for _, it := range g {
		blocked := false
		if !it.setAside {
			for _, k := range it.locks() {
				if h.held[k] > 0 || aside[k] {
					blocked = true
					break
				}
			}
		}
		if !blocked {
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
