package service

import (
	"context"
	"slices"
	"sync"
	"time"
)

// Combining single ingests. Each POST /v1/articles used to be a transaction
// of its own: about eight round trips and a commit — a WAL flush — an
// article. Under concurrent load the articles that arrive while others are
// being stored now wait, and are stored together, as one group (ingest_group.go):
// one transaction, its locks taken with one statement, its candidates found
// with one statement of each kind, one COPY, one commit. This is group
// commit, done where the statements are written.
//
// Nothing is given up: a group judges each article exactly as if the
// articles had been stored one after the other in the order they were
// taken, under the same locks; an ingest answers only once its group has
// committed; a lone request finds no one ahead of it and is stored at once,
// as before.
//
// At most maxCombiners groups are stored at a time, each by a goroutine that
// lives only while there is work: one group's commit and lookups overlap
// with the next group's.
//
// Two, against one and three on real news: docs/design-notes.md, "service:
// two combiners".
const maxCombiners = 2

// combiner queues the single ingests waiting to be stored.
type combiner struct {
	mu      sync.Mutex
	queue   []*waiter
	leaders int // goroutines storing groups
}

// waiter is a single ingest waiting for its group.
type waiter struct {
	ctx  context.Context
	item *arrival
	// done receives once the item was stored or failed (its verdict or
	// error set), or with an error when its request ended before a group
	// took it.
	done chan error
}

// store stores it with the articles waiting with it and returns its
// verdict. If ctx ends first, it returns at once with the deadline's error;
// an article already taken into a group may still be stored then, as a
// request that times out may have been: a retry returns its stored verdict.
func (c *combiner) store(ctx context.Context, s *Service, it *arrival) (Verdict, error) {
	w := &waiter{ctx: ctx, item: it, done: make(chan error, 1)}
	c.mu.Lock()
	c.queue = append(c.queue, w)
	if c.leaders < maxCombiners {
		c.leaders++
		go c.lead(s)
	}
	c.mu.Unlock()

	select {
	case err := <-w.done:
		if err != nil {
			return Verdict{}, err
		}
		return it.verdict, it.err
	case <-ctx.Done():
		c.mu.Lock()
		for i, q := range c.queue {
			if q == w {
				c.queue = append(c.queue[:i], c.queue[i+1:]...)
				break
			}
		}
		c.mu.Unlock()
		return Verdict{}, deadlineError(ctx)
	}
}

// lead stores groups of waiting ingests until none waits. The ingests a
// group sets aside around the groups in flight (locks_held.go) go back to
// the head of the queue, answered with the next group.
func (c *combiner) lead(s *Service) {
	for {
		round := c.next(s.groupLockBudget())
		if len(round) == 0 {
			return
		}
		ctx, cancel := roundContext(round)
		g := make([]*arrival, len(round))
		for i, w := range round {
			g[i] = w.item
		}
		later, _ := s.storeGroup(ctx, g) // each item stored carries its verdict or error
		cancel()
		var back []*waiter
		for _, w := range round {
			if slices.Contains(later, w.item) {
				back = append(back, w)
			} else {
				w.done <- nil
			}
		}
		c.requeue(back)
	}
}

// next takes the next group from the head of the queue, in the order the
// ingests arrived, dropping those whose request has ended; none when the
// queue is empty, and then the calling leader stops.
func (c *combiner) next(budget int) []*waiter {
	c.mu.Lock()
	defer c.mu.Unlock()
	b := groupBuilder{budget: budget}
	var round []*waiter
	taken := 0
	for _, w := range c.queue {
		if w.ctx.Err() != nil {
			w.done <- deadlineError(w.ctx)
		} else if b.fits(w.item) {
			b.add(w.item)
			round = append(round, w)
		} else {
			break
		}
		taken++
	}
	rest := copy(c.queue, c.queue[taken:])
	clear(c.queue[rest:])
	c.queue = c.queue[:rest]
	if len(round) == 0 {
		c.leaders--
	}
	return round
}

// requeue puts waiters set aside (locks_held.go) back at the head of the
// queue, in their order, for the next group.
func (c *combiner) requeue(back []*waiter) {
	if len(back) == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.queue = append(back, c.queue...)
}

// roundContext is the context a group is stored under: no request's
// cancellation (one client going away must not fail the others' articles),
// but the latest of their deadlines.
func roundContext(round []*waiter) (context.Context, context.CancelFunc) {
	var latest time.Time
	for _, w := range round {
		d, ok := w.ctx.Deadline()
		if !ok {
			return context.WithCancel(context.WithoutCancel(w.ctx))
		}
		if d.After(latest) {
			latest = d
		}
	}
	return context.WithDeadline(context.WithoutCancel(round[0].ctx), latest)
}
