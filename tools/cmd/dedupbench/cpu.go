package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

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

// userHZ is the unit of the times in /proc/<pid>/stat: clock ticks of
// 1/100 s, fixed by Linux's ABI whatever the kernel's own tick rate.
const userHZ = 100

// cpuClock reads the CPU time spent so far by this process and, when the
// PostgreSQL server runs on this machine and its processes can be read
// here, by the server's processes: the postmaster, its children (backends,
// autovacuum, the WAL writer, the checkpointer…), and the children that
// ended, which the postmaster reaped.
type cpuClock struct {
	postmaster int    // 0 when the server's CPU cannot be read here
	why        string // why not, when postmaster is 0
}

// cpuReading is one reading of a cpuClock.
type cpuReading struct {
	process time.Duration
	server  time.Duration
	// serverKnown is false when the server's time could not be read.
	serverKnown bool
}

// newCPUClock finds the server's postmaster through a backend of pool:
// the backend's parent process, confirmed by its working directory, which
// PostgreSQL sets to its data directory. A server elsewhere, in a
// container, or one whose processes this user may not read leaves the
// clock reading this process alone, and says why.
func newCPUClock(ctx context.Context, pool *pgxpool.Pool) cpuClock {
	var (
		backend int
		dataDir string
	)
	err := pool.QueryRow(ctx, `SELECT pg_backend_pid(), current_setting('data_directory')`).Scan(&backend, &dataDir)
	if err != nil {
		return cpuClock{why: fmt.Sprintf("the server did not say where it runs (%v)", err)}
	}
	st, err := readProcStat(backend)
	if err != nil {
		return cpuClock{why: "the server runs on another machine or in a container (" + err.Error() + ")"}
	}
	postmaster := st.ppid
	if !worksIn(postmaster, dataDir) {
		return cpuClock{why: fmt.Sprintf("process %d is not the server's postmaster as far as /proc shows", postmaster)}
	}
	return cpuClock{postmaster: postmaster}
}

// worksIn reports whether process pid's working directory is dir, symbolic
// links resolved (the server names its data directory as it was given).
func worksIn(pid int, dir string) bool {
	cwd, err := os.Readlink(filepath.Join("/proc", strconv.Itoa(pid), "cwd"))
	if err != nil {
		return false
	}
	if resolved, err := filepath.EvalSymlinks(dir); err == nil {
		dir = resolved
	}
	return filepath.Clean(cwd) == filepath.Clean(dir)
}

// read reads the clock.
func (c cpuClock) read() cpuReading {
	r := cpuReading{process: processCPU()}
	if c.postmaster != 0 {
		r.server, r.serverKnown = serverCPU(c.postmaster)
	}
	return r
}

// since returns the CPU time spent between start and r.
func (r cpuReading) since(start cpuReading) RunCPU {
	out := RunCPU{ProcessSeconds: (r.process - start.process).Seconds()}
	if r.serverKnown && start.serverKnown {
		s := (r.server - start.server).Seconds()
		out.ServerSeconds = &s
	}
	return out
}

// processCPU is the user and system time this process has spent.
func processCPU() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// serverCPU is the time spent by the postmaster, its live children, and
// its children that ended (its cutime and cstime: it reaps every one). A
// backend that ends between two readings moves from the second sum to the
// first, so the total goes on counting it.
func serverCPU(postmaster int) (time.Duration, bool) {
	pm, err := readProcStat(postmaster)
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
		st, err := readProcStat(pid)
		if err != nil || st.ppid != postmaster { // gone meanwhile, or not the server's
			continue
		}
		ticks += st.utime + st.stime + st.cutime + st.cstime
	}
	return time.Duration(ticks) * time.Second / userHZ, true
}

// procStat holds the fields of /proc/<pid>/stat that count CPU time.
type procStat struct {
	ppid                         int
	utime, stime, cutime, cstime int64
}

func readProcStat(pid int) (procStat, error) {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return procStat{}, err
	}
	return parseProcStat(string(b))
}

// parseProcStat reads a /proc/<pid>/stat line: "pid (comm) state ppid …",
// utime, stime, cutime and cstime being the 14th to 17th fields (proc(5)).
// The command name may hold spaces and parentheses, so the fields are
// counted from the last ')'.
func parseProcStat(line string) (procStat, error) {
	i := strings.LastIndexByte(line, ')')
	if i < 0 {
		return procStat{}, errors.New("no command name in /proc stat line")
	}
	f := strings.Fields(line[i+1:]) // f[0] is field 3, the state
	if len(f) < 15 {
		return procStat{}, fmt.Errorf("/proc stat line has %d fields after the command name, want 15 or more", len(f))
	}
	var st procStat
	var err error
	if st.ppid, err = strconv.Atoi(f[1]); err != nil {
		return procStat{}, fmt.Errorf("/proc stat ppid: %w", err)
	}
	for j, p := range []*int64{&st.utime, &st.stime, &st.cutime, &st.cstime} {
		if *p, err = strconv.ParseInt(f[11+j], 10, 64); err != nil {
			return procStat{}, fmt.Errorf("/proc stat field %d: %w", 14+j, err)
		}
	}
	return st, nil
}

// RunCPU is the CPU time one run spent.
type RunCPU struct {
	// ProcessSeconds counts this process: the in-process service, its
	// clients (HTTP and JSON on both sides), the Go runtime.
	ProcessSeconds float64 `json:"process_seconds"`
	// ServerSeconds counts PostgreSQL's processes; nil when they could not
	// be read (cpuClock), and for runs that use no database.
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
