package proccpu

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// Querier is what NewClock asks the server through: a pgx connection or
// pool.
type Querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// Clock reads the CPU time spent so far by this process and, when the
// PostgreSQL server runs on this machine and its processes can be read
// here, by the server's processes: the postmaster, its children (backends,
// autovacuum, the WAL writer, the checkpointer…), and the children that
// ended, which the postmaster reaped.
type Clock struct {
	postmaster int    // 0 when the server's CPU cannot be read here
	why        string // why not, when postmaster is 0
}

// Reading is one reading of a Clock.
type Reading struct {
	Process time.Duration
	Server  time.Duration
	// ServerKnown is false when the server's time could not be read.
	ServerKnown bool
}

// NewClock finds the server's postmaster through the backend q talks to:
// the backend's parent process, confirmed by its working directory, which
// PostgreSQL sets to its data directory. A server elsewhere, in a
// container, or one whose processes this user may not read leaves the
// clock reading this process alone, and Why says why.
func NewClock(ctx context.Context, q Querier) Clock {
	var (
		backend int
		dataDir string
	)
	err := q.QueryRow(ctx, `SELECT pg_backend_pid(), current_setting('data_directory')`).Scan(&backend, &dataDir)
	if err != nil {
		return Clock{why: fmt.Sprintf("the server did not say where it runs (%v)", err)}
	}
	st, err := readStat(backend)
	if err != nil {
		return Clock{why: "the server runs on another machine or in a container (" + err.Error() + ")"}
	}
	postmaster := st.ppid
	if !WorksIn(postmaster, dataDir) {
		return Clock{why: fmt.Sprintf("process %d is not the server's postmaster as far as /proc shows", postmaster)}
	}
	return Clock{postmaster: postmaster}
}

// ReadsServer reports whether the clock reads the server's CPU time.
func (c Clock) ReadsServer() bool { return c.postmaster != 0 }

// Why says why the clock does not read the server's CPU time; empty when
// it does.
func (c Clock) Why() string { return c.why }

// Read reads the clock.
func (c Clock) Read() Reading {
	r := Reading{Process: Process()}
	if c.postmaster != 0 {
		r.Server, r.ServerKnown = serverCPU(c.postmaster)
	}
	return r
}

// WorksIn reports whether process pid's working directory is dir, symbolic
// links resolved (the server names its data directory as it was given).
func WorksIn(pid int, dir string) bool {
	cwd, err := os.Readlink(filepath.Join("/proc", strconv.Itoa(pid), "cwd"))
	if err != nil {
		return false
	}
	if resolved, err := filepath.EvalSymlinks(dir); err == nil {
		dir = resolved
	}
	return filepath.Clean(cwd) == filepath.Clean(dir)
}

// Process is the user and system time this process has spent (not its
// children's).
func Process() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// OfProcess is the user and system time process pid has spent, its
// children's not counted: another process of this machine, such as a
// service the caller started.
func OfProcess(pid int) (time.Duration, error) {
	st, err := readStat(pid)
	if err != nil {
		return 0, err
	}
	return time.Duration(st.utime+st.stime) * time.Second / userHZ, nil
}

// serverCPU is the time spent by the postmaster, its live children, and
// its children that ended (its cutime and cstime: it reaps every one). A
// backend that ends between two readings moves from the second sum to the
// first, so the total goes on counting it.
func serverCPU(postmaster int) (time.Duration, bool) {
	pm, err := readStat(postmaster)
	if err != nil {
		return 0, false
	}
	ticks := pm.utime + pm.stime + pm.cutime + pm.cstime
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0, false
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == postmaster {
			continue
		}
		st, err := readStat(pid)
		if err != nil || st.ppid != postmaster { // gone meanwhile, or not the server's
			continue
		}
		ticks += st.utime + st.stime + st.cutime + st.cstime
	}
	return time.Duration(ticks) * time.Second / userHZ, true
}
