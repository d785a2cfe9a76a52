package service

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
