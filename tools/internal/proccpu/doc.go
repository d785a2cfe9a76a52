// Package proccpu reads CPU time from Linux's /proc: the calling process's,
// and that of a PostgreSQL server running on the same machine (its
// postmaster and every process it started).
//
// Why it exists: a rate says how fast a run went, not where its work was
// done nor whether the cores were busy. The benchmark (cmd/dedupbench) and
// the load test (cmd/dedupload) both put the CPU time each side spent over
// the work it did, to say what each side costs and how fast the run could
// go on this machine's cores with no wait at all; they read it the same
// way, here.
package proccpu
