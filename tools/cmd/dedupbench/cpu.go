package main

import "github.com/newsdedup/newsdedup/tools/internal/proccpu"

// CPU time, next to the rates. A rate says how fast a run went, not where
// its work was done nor whether the cores were busy: the CPU time each run
// spent, in this process (the in-process service and its clients) and in
// PostgreSQL's processes, over the articles it handled, says what each
// side costs, and the cores over that cost say how fast the run could go
// with no wait at all. On a machine shared with other work it rises as the
// rates fall: fingerprint-only cost 1.52 ms of CPU an article in a run at
// 1,232 articles/s, where the 1,831 articles/s of a quieter hour the same
// day mean at most 1.09 ms (2 cores over the rate). So the figures that
// travel are its ratios: one measurement's cost over another's in the same
// run.

// runCPU returns the CPU time spent between two readings of a
// proccpu.Clock.
func runCPU(start, end proccpu.Reading) RunCPU {
	out := RunCPU{ProcessSeconds: (end.Process - start.Process).Seconds()}
	if end.ServerKnown && start.ServerKnown {
		s := (end.Server - start.Server).Seconds()
		out.ServerSeconds = &s
	}
	return out
}

// RunCPU is the CPU time one run spent.
type RunCPU struct {
	// ProcessSeconds counts this process: the in-process service, its
	// clients (HTTP and JSON on both sides), the Go runtime.
	ProcessSeconds float64 `json:"process_seconds"`
	// ServerSeconds counts PostgreSQL's processes; nil when they could not
	// be read (proccpu.Clock), and for runs that use no database.
	ServerSeconds *float64 `json:"server_seconds,omitempty"`
}

// msPer returns the process's, the server's (when known) and the total
// CPU milliseconds per item of a run of n items (articles, or checks).
func (c RunCPU) msPer(n int) (process float64, server *float64, total float64) {
	if n <= 0 {
		return 0, nil, 0
	}
	process = 1000 * c.ProcessSeconds / float64(n)
	total = process
	if c.ServerSeconds != nil {
		s := 1000 * *c.ServerSeconds / float64(n)
		server, total = &s, total+s
	}
	return process, server, total
}
