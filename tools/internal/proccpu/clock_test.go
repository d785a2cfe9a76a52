package proccpu

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/repo/dbtest"
)

func TestParseStat(t *testing.T) {
	// A backend's command name holds spaces and parentheses.
	line := "4242 (postgres: postgres bench 127.0.0.1(51234) idle) S 17 4242 4242 0 -1 4194560 1033 0 0 0 250 31 7 3 20 0 1 0 86 1 2 18446744073709551615\n"
	st, err := parseStat(line)
	if err != nil {
		t.Fatal(err)
	}
	if want := (stat{ppid: 17, utime: 250, stime: 31, cutime: 7, cstime: 3}); st != want {
		t.Errorf("parseStat() = %+v, want %+v", st, want)
	}
	for _, bad := range []string{"", "4242 postgres S 17", "4242 (postgres) S 17 1 2", "4242 (postgres) S x 4242 4242 0 -1 0 0 0 0 0 1 2 3 4"} {
		if st, err := parseStat(bad); err == nil {
			t.Errorf("parseStat(%q) = %+v, want an error", bad, st)
		}
	}
}

// The clock counts the server's CPU when the server runs on this machine,
// and says why not when it does not; whether it does is read from /proc
// independently (a postgres process working in the server's data
// directory).
func TestClockReadsTheServer(t *testing.T) {
	ctx := t.Context()
	conn, err := pgx.Connect(ctx, dbtest.ServerURL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var dataDir string
	if err := conn.QueryRow(ctx, `SELECT current_setting('data_directory')`).Scan(&dataDir); err != nil {
		t.Fatal(err)
	}
	clock := NewClock(ctx, conn)
	if !serverProcessIn(t, dataDir) {
		if clock.ReadsServer() || clock.Why() == "" || clock.Read().ServerKnown {
			t.Errorf("no postgres process here works in %s, yet the clock reads a server: %+v", dataDir, clock)
		}
		return
	}
	if !clock.ReadsServer() {
		t.Fatalf("the server runs here (in %s) but the clock does not read it: %s", dataDir, clock.Why())
	}

	// A query that keeps the server busy for a few hundred milliseconds of
	// CPU. The clock's total for the server must hold what the backend that
	// ran it spent, read on its own from its /proc entry: CPU time, not wall
	// time, so that a crowded machine cannot fail it.
	var backend int
	if err := conn.QueryRow(ctx, `SELECT pg_backend_pid()`).Scan(&backend); err != nil {
		t.Fatal(err)
	}
	backendStart, err := OfProcess(backend)
	if err != nil {
		t.Fatal(err)
	}
	start := clock.Read()
	if _, err := conn.Exec(ctx, `SELECT count(*) FROM generate_series(1, 5000000)`); err != nil {
		t.Fatal(err)
	}
	end := clock.Read()
	backendEnd, err := OfProcess(backend)
	if err != nil {
		t.Fatal(err)
	}
	if !end.ServerKnown || !start.ServerKnown {
		t.Fatal("the server's CPU time was not read")
	}
	spent := backendEnd - backendStart
	if spent <= 0 {
		t.Fatalf("the backend's own CPU time did not grow over a query of 5,000,000 rows (%v)", spent)
	}
	// Two ticks of rounding: the two clocks read at slightly different moments.
	if got, least := end.Server-start.Server, spent-2*time.Second/userHZ; got < least {
		t.Errorf("the clock counted %v of the server's CPU over a query its backend spent %v on, want at least %v", got, spent, least)
	}
	if end.Process < start.Process {
		t.Errorf("this process's CPU time went back from %v to %v", start.Process, end.Process)
	}
}

// serverProcessIn reports whether a postgres process of this machine works
// in dataDir.
func serverProcessIn(t *testing.T, dataDir string) bool {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		comm, err := os.ReadFile(filepath.Join("/proc", e.Name(), "comm"))
		if err != nil || strings.TrimSpace(string(comm)) != "postgres" {
			continue
		}
		if pid, _ := strconv.Atoi(e.Name()); WorksIn(pid, dataDir) {
			return true
		}
	}
	return false
}

// OfProcess reads another process's CPU time as the process itself
// counts it: a child kept busy, then waiting.
func TestOfProcessReadsAnotherProcess(t *testing.T) {
	child := exec.Command("sh", "-c", `i=0; while [ $i -lt 2000000 ]; do i=$((i+1)); done; echo counted; read -r _; exit 0`)
	stdin, err := child.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	defer child.Process.Kill()
	// The child says when it has counted, then waits on its standard input.
	if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || line != "counted\n" {
		t.Fatalf("the child said %q, %v", line, err)
	}
	used, err := OfProcess(child.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	stdin.Close()
	if err := child.Wait(); err != nil {
		t.Fatal(err)
	}
	// Two million shell additions take well over 100 ms of CPU on any
	// machine this runs on; a reading of zero would not tell them apart
	// from nothing.
	if used < 100*time.Millisecond {
		t.Errorf("OfProcess read %v for a child that counted to two million", used)
	}
	if _, err := OfProcess(child.Process.Pid); err == nil {
		t.Error("OfProcess of a process that ended: no error")
	}
}
