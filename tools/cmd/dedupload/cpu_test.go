package main

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/repo/dbtest"
	"github.com/newsdedup/newsdedup/tools/internal/proccpu"
)

// The report puts each side's CPU time over the requests, and the cores
// over the total: the most the machine could serve of the mix.
func TestCPUReport(t *testing.T) {
	t.Parallel()
	s, _ := parseFlags(nil, io.Discard)
	pg := 300.0
	r := &report{Settings: s, CPUs: 2, Elapsed: 100 * time.Second,
		Articles: articleSource{Source: corpusNews, Dir: "/c", Sina: 7, CCTV: 9, Texts: 16},
		CPU:      &loadCPU{DedupdSeconds: 200, PostgresSeconds: &pg, ClientsSeconds: 50}}
	stats := newClientStats()
	stats.latency[kindCheck] = latencies{time.Millisecond}
	stats.statuses[kindCheck] = map[string]int{"200": 100_000}
	r.fill(stats)
	// 100,000 requests: 2 ms in dedupd, 3 in PostgreSQL, 0.5 in the
	// clients, 5.5 in all; 2 cores serve at most 2000/5.5 = 364 a second,
	// and 1,000 a second take 5.5 cores, 5 without the clients.
	if got := r.cpuColumn(); got != "2.00 / 3.00 / 0.50" {
		t.Errorf("cpuColumn() = %q", got)
	}
	var b bytes.Buffer
	r.markdown(&b)
	for _, want := range []string{
		"**2.00 ms a request in dedupd, 3.00 ms in PostgreSQL, 0.50 ms in the clients, 5.50 ms in all**",
		"could serve at most **364 requests/s**", "the goal's 1,000 requests/s would take 5.5 cores (5.0 for dedupd and PostgreSQL alone",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, b.String())
		}
	}

	// PostgreSQL's processes unread: the report says why, and that its
	// ceiling leaves them out.
	r.CPU = &loadCPU{DedupdSeconds: 200, ClientsSeconds: 50, PostgresUnread: "the server runs on another machine"}
	b.Reset()
	r.markdown(&b)
	if got := r.cpuColumn(); got != "2.00 / ? / 0.50" {
		t.Errorf("cpuColumn() without PostgreSQL = %q", got)
	}
	for _, want := range []string{"were not read (the server runs on another machine)", "Without PostgreSQL's share, 2 cores", "at most 800 requests/s"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("markdown without PostgreSQL lacks %q:\n%s", want, b.String())
		}
	}
}

func TestNum0(t *testing.T) {
	t.Parallel()
	for x, want := range map[float64]string{0: "0", 999.4: "999", 999.6: "1,000", 1234567: "1,234,567", -4321: "-4,321"} {
		if got := num0(x); got != want {
			t.Errorf("num0(%v) = %q, want %q", x, got, want)
		}
	}
}

// The clock reads the three sides: here this test's process stands for
// dedupd (and is the clients too), and a query keeps the server busy.
func TestCPUClockReadsEachSide(t *testing.T) {
	ctx := t.Context()
	url := dbtest.ServerURL(t) // any database of the server: the clock only asks where it runs
	clock, err := newCPUClock(ctx, url, os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	start := clock.read()
	// Busy on both sides: this process spins until it has used 300 ms of
	// CPU (not of wall time, which a crowded machine stretches), then the
	// server counts.
	for spun := proccpu.Process() + 300*time.Millisecond; proccpu.Process() < spun; {
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `SELECT count(*) FROM generate_series(1, 5000000)`); err != nil {
		t.Fatal(err)
	}
	used := clock.between(start, clock.read())
	if used == nil {
		t.Fatal("between() = nil: dedupd's process was not read")
	}
	if used.DedupdSeconds < 0.1 || used.ClientsSeconds < 0.1 {
		t.Errorf("between() = dedupd %.3f s, clients %.3f s; want at least 0.1 s each", used.DedupdSeconds, used.ClientsSeconds)
	}
	// A server on another machine (proccpu's own test tells the two
	// apart) leaves PostgreSQL's time unread, and says why.
	if !clock.server.ReadsServer() {
		if used.PostgresSeconds != nil || used.PostgresUnread == "" {
			t.Errorf("the server's processes are not read here, yet between() = %+v", used)
		}
		return
	}
	if used.PostgresSeconds == nil || *used.PostgresSeconds < 0.1 {
		t.Errorf("between() = %+v, want PostgreSQL's time read, at least 0.1 s", used)
	}
}
