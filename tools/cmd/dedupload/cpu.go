package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/tools/internal/proccpu"
)

// The CPU the load cost. Requests a second say how fast a run went, not
// whether the machine could go faster: the CPU time dedupd, PostgreSQL and
// the clients spent over the measurement, per request, says what the mix
// costs, and the cores over that cost the most this machine could serve
// of it with every core busy and no wait at all.

// goalRequestsPerSecond is the load goal of issue 11 (50 clients, mixed
// traffic): the report says how many cores it would take at the run's
// costs.
const goalRequestsPerSecond = 1000

// loadCPU is the CPU time one run's measurement spent.
type loadCPU struct {
	DedupdSeconds float64
	// PostgresSeconds counts every process of the PostgreSQL server
	// (backends, autovacuum, the WAL writer, the checkpointer…); nil when
	// they could not be read here, PostgresUnread saying why.
	PostgresSeconds *float64
	PostgresUnread  string
	// ClientsSeconds counts this program: the clients, their HTTP and
	// JSON, the readings of /metrics.
	ClientsSeconds float64
}

// cpuSnapshot is one reading of the three sides' CPU time.
type cpuSnapshot struct {
	dedupd    time.Duration
	dedupdErr error
	clock     proccpu.Reading
}

// cpuClock reads dedupd's, PostgreSQL's and this program's CPU time.
type cpuClock struct {
	dedupd int // pid
	server proccpu.Clock
}

// newCPUClock finds the PostgreSQL server's processes through a
// connection to dbURL (proccpu.NewClock), for dedupd running as pid.
func newCPUClock(ctx context.Context, dbURL string, pid int) (cpuClock, error) {
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		return cpuClock{}, fmt.Errorf("connect to find the server's processes: %w", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	return cpuClock{dedupd: pid, server: proccpu.NewClock(ctx, conn)}, nil
}

func (c cpuClock) read() cpuSnapshot {
	s := cpuSnapshot{clock: c.server.Read()}
	s.dedupd, s.dedupdErr = proccpu.OfProcess(c.dedupd)
	return s
}

// between is the CPU time spent from start to end; nil when dedupd's time
// could not be read at either end.
func (c cpuClock) between(start, end cpuSnapshot) *loadCPU {
	if start.dedupdErr != nil || end.dedupdErr != nil {
		return nil
	}
	out := &loadCPU{
		DedupdSeconds:  (end.dedupd - start.dedupd).Seconds(),
		ClientsSeconds: (end.clock.Process - start.clock.Process).Seconds(),
	}
	if start.clock.ServerKnown && end.clock.ServerKnown {
		s := (end.clock.Server - start.clock.Server).Seconds()
		out.PostgresSeconds = &s
	} else {
		out.PostgresUnread = c.server.Why()
		if out.PostgresUnread == "" {
			out.PostgresUnread = "its processes could not be read at the start or the end"
		}
	}
	return out
}

// perRequest is the CPU milliseconds a request of n cost each side, and
// all of them together (PostgreSQL counted when known).
type perRequest struct {
	dedupd, clients, total float64
	postgres               *float64
}

func (c *loadCPU) perRequest(n int) perRequest {
	if n <= 0 {
		return perRequest{}
	}
	per := func(s float64) float64 { return 1000 * s / float64(n) }
	p := perRequest{dedupd: per(c.DedupdSeconds), clients: per(c.ClientsSeconds)}
	p.total = p.dedupd + p.clients
	if c.PostgresSeconds != nil {
		pg := per(*c.PostgresSeconds)
		p.postgres, p.total = &pg, p.total+pg
	}
	return p
}

// ceiling is the most requests a second cores could serve at cost ms a
// request, every core busy and no wait at all.
func ceiling(cores int, ms float64) float64 {
	if ms <= 0 {
		return 0
	}
	return float64(cores) * 1000 / ms
}

// cpuColumn is the runs table's cell: dedupd / PostgreSQL / clients, in
// milliseconds a request.
func (r *report) cpuColumn() string {
	if r.CPU == nil {
		return "not read"
	}
	p := r.CPU.perRequest(r.Requests)
	pg := "?"
	if p.postgres != nil {
		pg = fmt.Sprintf("%.2f", *p.postgres)
	}
	return fmt.Sprintf("%.2f / %s / %.2f", p.dedupd, pg, p.clients)
}

// markdownCPU writes the paragraph on the run's CPU time.
func (r *report) markdownCPU(w io.Writer) {
	if r.CPU == nil {
		fmt.Fprintln(w, "**CPU a request**: not read (dedupd's process could not be read in /proc).")
		fmt.Fprintln(w)
		return
	}
	c, p := r.CPU, r.CPU.perRequest(r.Requests)
	fmt.Fprintf(w, "**CPU a request.** Over the measurement (read from `/proc`), dedupd spent %.1f s of CPU, ", c.DedupdSeconds)
	if c.PostgresSeconds == nil {
		fmt.Fprintf(w, "PostgreSQL's processes were not read (%s), and the clients (this program: HTTP, JSON, the readings of `/metrics`) %.1f s: %.2f ms a request in dedupd and %.2f ms in the clients. ",
			c.PostgresUnread, c.ClientsSeconds, p.dedupd, p.clients)
		fmt.Fprintf(w, "Without PostgreSQL's share, %d cores busy on this mix with no wait at all could serve at most %s requests/s.\n\n", r.CPUs, num0(ceiling(r.CPUs, p.total)))
		return
	}
	fmt.Fprintf(w, "PostgreSQL's processes (every backend, autovacuum, the WAL writer, the checkpointer) %.1f s and the clients (this program: HTTP, JSON, the readings of `/metrics`) %.1f s: "+
		"**%.2f ms a request in dedupd, %.2f ms in PostgreSQL, %.2f ms in the clients, %.2f ms in all**. "+
		"At these costs the machine's %d cores, every one busy on this mix with no wait at all, could serve at most **%s requests/s**; "+
		"the goal's %s requests/s would take %.1f cores (%.1f for dedupd and PostgreSQL alone, the clients elsewhere). "+
		"CPU time a request rises when other work crowds the machine (caches, switches): compare runs of one report, not of different days.\n\n",
		*c.PostgresSeconds, c.ClientsSeconds, p.dedupd, *p.postgres, p.clients, p.total,
		r.CPUs, num0(ceiling(r.CPUs, p.total)),
		num0(goalRequestsPerSecond), goalRequestsPerSecond*p.total/1000, goalRequestsPerSecond*(p.total-p.clients)/1000)
}

// num0 writes x rounded to a whole number, with thousands separated by
// commas, as the docs write rates.
func num0(x float64) string {
	s := fmt.Sprintf("%.0f", x)
	neg := s[0] == '-'
	if neg {
		s = s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		s = "-" + s
	}
	return s
}
