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
// Measured with dedupbench's /v1/check on real news (1,000,000 stored
// articles, 16 clients, 30 s; the same database for every run, in the
// order none, 4, 2, 2, 4, none): without turns the reposts ran at 316 and
// 270 checks/s with p99 150 and 184 ms, the new stories at 321 and 357
// with p99 151 ms twice; with 4 turns (twice the cores) the reposts 408
// and 491 with p99 82.3 and 82.4 ms, the new stories 413 and 453 with p99
// 81.8 and 90.2 ms; with 2 turns 371–419 checks/s with p99 82.0–88.3 ms.
// This code, run in turn with the service without turns (with, without,
// with): the reposts 397 and 406 checks/s, p99 89.3 and 94.8 ms, against
// 338 and 136 ms; the new stories 508 and 487, p99 69.0 and 82.3 ms,
// against 370 and 148 ms; PostgreSQL's CPU a check fell from 3.1–3.3 ms to
// 1.9–2.4, its backends no longer crowding each other.
// Under make loadtest's mixed traffic (50 clients, 60 s, in the order
// none, 4, 4, none), where checks are 40 % of the requests, 4 turns
// measured within the noise: 466 and 454 requests/s against 440 and 437,
// checks' p99 120 and 126 ms against 114 and 120, all requests' p99 377
// and 383 against 375 and 407.
func checkers(workers int) int { return 2 * workers }
