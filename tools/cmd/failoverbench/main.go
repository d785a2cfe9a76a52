// Command failoverbench measures how long a failover keeps writes away: the
// time from the loss of the primary (kill -9 of its keeper and postmaster)
// to the first write acknowledged after it, under cmd/dedupd's TestFailover
// load (12 writers of single articles, 4 of batches, 4 readers).
//
// It runs that test -runs times, one after the other (each run makes its
// own formation and fails over twice: the first node, then, once it has
// rejoined, the second), reads the times the test logs, and reports each
// with their median and range; with -md FILE it writes them as a Markdown
// section (docs/failover.md). -detection default keeps pg_auto_failover's
// own timing on the monitor (a node's loss noticed after 20 s, promotion 30 s
// later) instead of the local formation's fast one. It asserts nothing: the
// test asserts the behaviour, this program reports the time.
//
// Usage (make bench-failover): go run ./cmd/failoverbench [-runs 3] [-detection fast|default] [-md FILE]
package main

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:])
	stop()
	if err != nil {
		fmt.Fprintf(os.Stderr, "failoverbench: %v\n", err)
		os.Exit(1)
	}
}

// failoverLine is what TestFailover logs of each failover.
var failoverLine = regexp.MustCompile(`failover (\d+): kill -9 of (\S+) → first acknowledged write after (\S+);`)

// sample is one failover's measurement.
type sample struct {
	run, round int
	node       string
	took       time.Duration
}

func run(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("failoverbench", flag.ContinueOnError)
	runs := fs.Int("runs", 3, "how many runs of TestFailover (two failovers each)")
	detection := fs.String("detection", "fast", "the monitor's timing: fast (the local formation's) or default (pg_auto_failover's)")
	md := fs.String("md", "", "write the Markdown section to this file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *detection != "fast" && *detection != "default" {
		return fmt.Errorf("-detection must be fast or default, not %q", *detection)
	}
	dir, err := serviceDir(ctx)
	if err != nil {
		return err
	}
	var samples []sample
	for r := 1; r <= *runs; r++ {
		fmt.Fprintf(os.Stderr, "failoverbench: run %d of %d\n", r, *runs)
		got, err := runTest(ctx, dir, *detection, r)
		if err != nil {
			return err
		}
		samples = append(samples, got...)
	}
	commit, _ := exec.CommandContext(ctx, "git", "-C", dir, "rev-parse", "--short", "HEAD").Output()
	section := report(samples, *detection, *runs, strings.TrimSpace(string(commit)))
	fmt.Print(section)
	if *md != "" {
		return os.WriteFile(*md, []byte(section), 0o644)
	}
	return nil
}

// serviceDir is the service module's folder, where TestFailover lives.
func serviceDir(ctx context.Context) (string, error) {
	out, err := exec.CommandContext(ctx, "go", "list", "-m", "-f", "{{.Dir}}", "github.com/newsdedup/newsdedup").Output()
	if err != nil {
		return "", fmt.Errorf("go list -m github.com/newsdedup/newsdedup (run from the tools folder): %w", err)
	}
	return strings.TrimSpace(string(out)), nil
}

// runTest runs TestFailover once and returns the failovers it logged.
func runTest(ctx context.Context, dir, detection string, r int) ([]sample, error) {
	cmd := exec.CommandContext(ctx, "go", "test", "-count=1", "-run", "^TestFailover$", "-v", "-timeout", "20m", "./cmd/dedupd/")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NEWSDEDUP_FAILOVER_DETECTION="+detection, "NEWSDEDUP_REQUIRE_HA=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.MultiWriter(&out, prefixed{}), io.MultiWriter(&out, prefixed{})
	if err := cmd.Run(); err != nil {
		lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
		return nil, fmt.Errorf("run %d: go test -run TestFailover: %w; the end of its output:\n%s",
			r, err, strings.Join(lines[max(0, len(lines)-60):], "\n"))
	}
	var got []sample
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		m := failoverLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		took, err := time.ParseDuration(m[3])
		if err != nil {
			return nil, fmt.Errorf("run %d: %q: %w", r, sc.Text(), err)
		}
		var round int
		fmt.Sscan(m[1], &round)
		got = append(got, sample{run: r, round: round, node: m[2], took: took})
	}
	if len(got) != 2 {
		return nil, fmt.Errorf("run %d: the test logged %d failovers, want 2", r, len(got))
	}
	return got, nil
}

// prefixed passes the test's output through to stderr, marked.
type prefixed struct{}

func (prefixed) Write(p []byte) (int, error) {
	for _, line := range strings.SplitAfter(string(p), "\n") {
		if strings.Contains(line, "failover ") || strings.HasPrefix(line, "---") || strings.HasPrefix(line, "FAIL") {
			fmt.Fprint(os.Stderr, "  | "+line)
		}
	}
	return len(p), nil
}

// report is the Markdown section of the samples.
func report(samples []sample, detection string, runs int, commit string) string {
	var b strings.Builder
	durations := make([]time.Duration, len(samples))
	for i, s := range samples {
		durations[i] = s.took
	}
	slices.Sort(durations)
	median := durations[len(durations)/2]
	if len(durations)%2 == 0 {
		median = (durations[len(durations)/2-1] + durations[len(durations)/2]) / 2
	}
	fmt.Fprintf(&b, "## Failover: from the loss of the primary to the first acknowledged write (%s detection)\n\n", detection)
	fmt.Fprintf(&b, "Measured %s at %s by `make bench-failover%s` (tools/cmd/failoverbench: %d run(s) of cmd/dedupd's TestFailover without -race, %d failovers), on %d cores shared with other work, PostgreSQL 15, pg_auto_failover 2.0.\n\n",
		time.Now().UTC().Format("2006-01-02"), commit, map[string]string{"fast": "", "default": " DETECTION=default"}[detection], runs, len(samples), runtime.NumCPU())
	fmt.Fprintf(&b, "**Median %.1f s**, range %.1f–%.1f s.\n\n", median.Seconds(), durations[0].Seconds(), durations[len(durations)-1].Seconds())
	b.WriteString("| run | failover | node lost | kill → first acknowledged write |\n| --- | --- | --- | --- |\n")
	for _, s := range samples {
		fmt.Fprintf(&b, "| %d | %d | %s | %.2f s |\n", s.run, s.round, s.node, s.took.Seconds())
	}
	return b.String()
}
