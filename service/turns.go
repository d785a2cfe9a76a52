package service

import "context"

// Checks in progress. A check is CPU work from end to end — fingerprinting
// here, then its statements in PostgreSQL on the same cores — and when
// every check that arrives starts at once, the cores are shared among all
// of them: each takes as long as its own work times the checks beside it,
// so the long articles' checks, already the slowest, stretch furthest, and
// the backends and goroutines crowding the cores do less in all. So at
// most checkers checks are in progress at once; the others wait for a
// turn, in the order they came, and a check's own time is then about its
// own work.
//
// Twice the cores, measured against none and other counts: docs/design-
// notes.md, "service: turns for checks".
func checkers(workers int) int { return 2 * workers }

// takeTurn waits for a free place in turns — a channel whose capacity is
// how many may go at once — or until ctx ends; release gives the place
// back. Those waiting get their turns in the order they came.
func takeTurn(ctx context.Context, turns chan struct{}) (release func(), err error) {
	select {
	case turns <- struct{}{}:
		return func() { <-turns }, nil
	case <-ctx.Done():
		return nil, deadlineError(ctx)
	}
}
