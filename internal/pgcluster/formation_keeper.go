package pgcluster

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// A formation member's keeper, `pg_autoctl run`, runs in a process group
// of its own with the PostgreSQL it starts: the group is the member's
// machine, which Kill loses.

// StartMember starts a member's keeper (`pg_autoctl run`) unless it runs. A
// node that was a primary when it was lost rejoins as the standby of the one
// promoted meanwhile.
func (f *Formation) StartMember(ctx context.Context, member string) error {
	if f.Running(member) {
		return nil
	}
	return f.startMember(ctx, member)
}

func (f *Formation) startMember(ctx context.Context, member string) error {
	log, err := os.OpenFile(f.LogFile(member), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer log.Close()
	// Not tied to ctx: the keeper outlives the call (and, for devdb, the
	// process). Its process group is the member's machine: Kill ends it.
	cmd := command(context.Background(), f.runAs, f.env(), f.autoctl, "run", "--pgdata", f.DataDir(member))
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start pg_autoctl run for %s: %w", member, err)
	}
	pid := cmd.Process.Pid
	go cmd.Wait() // reap it whenever it ends
	if err := os.WriteFile(f.keeperFile(member), []byte(strconv.Itoa(pid)+"\n"), 0o644); err != nil {
		return err
	}
	f.logf("started %s's keeper (process group %d, log %s)", member, pid, f.LogFile(member))
	return ctx.Err()
}

// keeper returns the process group of a member's keeper, 0 if none is
// recorded or it has ended.
func (f *Formation) keeper(member string) int {
	b, err := os.ReadFile(f.keeperFile(member))
	if err != nil {
		return 0
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 0 {
		return 0
	}
	if !groupAlive(pid) {
		return 0
	}
	return pid
}

// groupAlive reports whether process group pgid has a process that is not a
// zombie. (Its leader may be gone while the group lives on, and the killed
// may wait a while for a parent to reap them.)
func groupAlive(pgid int) bool {
	procs, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, p := range procs {
		if state, group, ok := procStat(p); ok && group == pgid && state != "Z" {
			return true
		}
	}
	return false
}

// procStat reads a /proc/PID/stat file's state and process group.
func procStat(path string) (state string, pgrp int, ok bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", 0, false
	}
	i := bytes.LastIndexByte(b, ')') // the command name may hold spaces and parentheses
	if i < 0 {
		return "", 0, false
	}
	fields := strings.Fields(string(b[i+1:])) // state, ppid, pgrp, …
	if len(fields) < 3 {
		return "", 0, false
	}
	pgrp, err = strconv.Atoi(fields[2])
	return fields[0], pgrp, err == nil
}

// Running reports whether a member's keeper process group is alive.
func (f *Formation) Running(member string) bool { return f.keeper(member) != 0 }

// Kill ends a member as the loss of its machine would: SIGKILL to its
// keeper's process group, which holds pg_autoctl and the PostgreSQL
// postmaster with all its processes, so that nothing restarts them. It
// returns when the postmaster is gone.
func (f *Formation) Kill(ctx context.Context, member string) error {
	pgid := f.keeper(member)
	if pgid == 0 {
		return fmt.Errorf("%s is not running", member)
	}
	postmaster := f.postmaster(member)
	if err := syscall.Kill(-pgid, syscall.SIGKILL); err != nil {
		return fmt.Errorf("kill %s: %w", member, err)
	}
	if postmaster != 0 {
		if g, err := syscall.Getpgid(postmaster); err == nil && g != pgid {
			_ = syscall.Kill(postmaster, syscall.SIGKILL) // not in the group: kill it too
		}
	}
	for {
		alive := false
		if postmaster != 0 {
			state, _, ok := procStat(fmt.Sprintf("/proc/%d/stat", postmaster))
			alive = ok && state != "Z"
		}
		if !alive && f.keeper(member) == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// postmaster returns the pid in a member's postmaster.pid, 0 if none.
func (f *Formation) postmaster(member string) int {
	b, err := os.ReadFile(filepath.Join(f.DataDir(member), "postmaster.pid"))
	if err != nil {
		return 0
	}
	first, _, _ := strings.Cut(string(b), "\n")
	pid, _ := strconv.Atoi(strings.TrimSpace(first))
	return pid
}
