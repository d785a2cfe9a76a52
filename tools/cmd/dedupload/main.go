// Command dedupload puts the real dedupd under a bounded load over loopback
// and reports its throughput, latencies, errors and memory.
//
// It creates a fresh database (migrated) on DATABASE_URL's server, builds
// dedupd from this module and runs `dedupd serve` on 127.0.0.1:0 with a
// pool of 16 connections, then drives it with concurrent clients: about
// half the requests ingest an article (new ones, and light reposts of ones
// ingested before, so that verdicts vary), 40% check one, 10% read one back.
// After a warm-up it measures for -duration, and on until -min-requests
// requests have completed, but never past -max-duration. It reads dedupd's
// memory from /metrics once a second: the Go heap, the resident set and the
// C heap (where gojieba allocates). At the end it stops dedupd with SIGTERM
// and drops the database. It does all of that -reps times (3 by default),
// one run after the other, each with a fresh database and a fresh dedupd,
// and reports every run and the run of median throughput in full: on a
// shared machine one run's figures move with whatever runs beside it.
//
// The articles are real news by default (-corpus news), because the
// project's throughput goals are measured on real news: every Sina and CCTV
// article in ../shared/corpora (or -corpora DIR), shuffled together by
// -seed. The corpora are third parties' text, read at run time and sent to
// dedupd only, never written anywhere. Without them it cuts the articles
// from the novel 围城 instead and the report says so and why. -corpus novel
// asks for the novel on purpose (make loadtest-crowded): overlapping cuts,
// a crowded corpus where nearly every article has dozens of near
// neighbours, the service's worst case rather than its everyday.
//
// It asserts nothing. It prints a verdict line (memory flat or not) and a
// Markdown section for docs/benchmarks.md on stdout, progress on stderr,
// and with -md FILE the section to FILE (docs/loadtest.md, or
// docs/loadtest-crowded.md for the novel).
//
// Usage (make loadtest sets DATABASE_URL, starting the local cluster):
//
//	DATABASE_URL=postgres://… go run ./tools/cmd/dedupload [-corpus news|novel] [-corpora DIR] [-clients 50] [-duration 60s] [-min-requests 100000] [-reps 3] [-md FILE]
package main

import (
	"bufio"
	"bytes"
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/newsdedup/newsdedup/internal/corpus"
	"github.com/newsdedup/newsdedup/repo/dbtest"
	"github.com/newsdedup/newsdedup/tools/internal/newscorpus"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintf(os.Stderr, "dedupload: %v\n", err)
		os.Exit(1)
	}
}

// settings are the command line's.
type settings struct {
	Clients     int
	Duration    time.Duration
	MinRequests int
	MaxDuration time.Duration
	Warmup      time.Duration
	Pool        int
	Corpus      string // corpusNews or corpusNovel: what was asked for
	Corpora     string
	Articles    int // 0: all the news, or novelArticles cuts
	Seed        uint64
	Reps        int
	md          string
	dedupd      string
}

func parseFlags(args []string, stderr io.Writer) (settings, error) {
	var s settings
	fs := flag.NewFlagSet("dedupload", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.IntVar(&s.Clients, "clients", 50, "concurrent clients")
	fs.DurationVar(&s.Duration, "duration", 60*time.Second, "how long to measure, at least")
	fs.IntVar(&s.MinRequests, "min-requests", 100_000, "measure on past -duration until this many requests completed")
	fs.DurationVar(&s.MaxDuration, "max-duration", 8*time.Minute, "hard cap on the measurement, whatever -min-requests says")
	fs.DurationVar(&s.Warmup, "warmup", 10*time.Second, "load before the measurement begins, not counted")
	fs.IntVar(&s.Pool, "pool", 16, "dedupd's database pool (DEDUP_DB_MAX_CONNS)")
	fs.StringVar(&s.Corpus, "corpus", corpusNews, "the articles: news (Sina and CCTV from -corpora, shuffled together; the novel when they are missing, and the report says so) or novel (overlapping cuts of 围城: a crowded corpus, most articles have near neighbours)")
	fs.StringVar(&s.Corpora, "corpora", "", "the folder of the real corpora (default: ../shared/corpora from the repository's root, or from its main checkout's for a worktree)")
	fs.IntVar(&s.Articles, "articles", 0, fmt.Sprintf("distinct texts (keys are always distinct): with -corpus news the first so many of the shuffled articles, 0 for all; with -corpus novel so many cuts, 0 for %d", novelArticles))
	fs.Uint64Var(&s.Seed, "seed", 1, "seed of the articles (the news's shuffle, the novel's cuts) and of the mix")
	fs.IntVar(&s.Reps, "reps", 3, "run the whole load test this many times, one after the other, each on a fresh database with a fresh dedupd; the report gives every run and the median run in full")
	fs.StringVar(&s.md, "md", "", "also write the Markdown section to this file (docs/loadtest.md, which docs/benchmarks.md embeds)")
	fs.StringVar(&s.dedupd, "dedupd", "", "a dedupd binary to run instead of building one from this module")
	if err := fs.Parse(args); err != nil {
		return s, err
	}
	switch {
	case fs.NArg() > 0:
		return s, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	case s.Clients < 1, s.Pool < 1, s.Reps < 1:
		return s, errors.New("-clients, -pool and -reps must be at least 1")
	case s.Articles < 0:
		return s, errors.New("-articles must be 0 (all, or the default) or more")
	case s.Duration <= 0, s.MaxDuration < s.Duration, s.Warmup < 0:
		return s, errors.New("want 0 < -duration <= -max-duration and -warmup >= 0")
	case s.Corpus != corpusNews && s.Corpus != corpusNovel:
		return s, fmt.Errorf("-corpus: want %s or %s, not %q", corpusNews, corpusNovel, s.Corpus)
	}
	if s.Corpora == "" {
		wd, err := os.Getwd()
		if err != nil {
			return s, fmt.Errorf("find the corpora: %w", err)
		}
		s.Corpora = newscorpus.DefaultDir(wd)
	}
	return s, nil
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	s, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	logf := func(format string, args ...any) { fmt.Fprintf(stderr, "dedupload: "+format+"\n", args...) }
	server := os.Getenv("DATABASE_URL")
	if server == "" {
		return errors.New("DATABASE_URL is not set: run `make loadtest`, or set it to a server where this role may CREATE DATABASE")
	}

	// The articles, read or cut before anything starts. The novel is loaded
	// for the news too: light reposts are its Apply (a byline and an
	// editor's line, which take nothing from the novel's text).
	novel, err := corpus.LoadNovel()
	if err != nil {
		return err
	}
	src, articles, err := loadArticles(ctx, s, novel)
	if err != nil {
		return err
	}
	if src.Fallback != "" {
		logf("the news corpora are MISSING (%s): cutting the articles from the novel instead", src.Fallback)
	}
	logf("%d distinct texts: new articles %s", src.Texts, src.description())

	// dedupd, built from this module once for every run.
	bin := s.dedupd
	if bin == "" {
		dir, err := os.MkdirTemp("", "dedupload-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		bin = filepath.Join(dir, "dedupd")
		logf("building dedupd")
		if err := buildDedupd(ctx, bin); err != nil {
			return err
		}
	}

	var runs []*report
	for i := 1; i <= s.Reps; i++ {
		logf("run %d of %d", i, s.Reps)
		rep, err := loadOnce(ctx, s, server, bin, novel, src, articles, stderr, logf)
		if err != nil {
			return fmt.Errorf("run %d of %d: %w", i, s.Reps, err)
		}
		runs = append(runs, rep)
		if ctx.Err() != nil {
			break
		}
	}
	all := summarizeRuns(runs)
	fmt.Fprintln(stdout, all.verdictLine())
	fmt.Fprintln(stdout)
	all.markdown(stdout)
	if s.md != "" {
		var b strings.Builder
		all.markdown(&b)
		if err := os.WriteFile(s.md, []byte(b.String()), 0o644); err != nil {
			return err
		}
		logf("wrote %s", s.md)
	}
	return ctx.Err()
}

// createDatabase creates a database with a fresh name on server's and
// returns its name and URL.
func createDatabase(ctx context.Context, server string) (string, string, error) {
	var b [6]byte
	if _, err := crand.Read(b[:]); err != nil {
		return "", "", err
	}
	name := "newsdedup_load_" + hex.EncodeToString(b[:])
	dbURL, err := dbtest.CreateDatabase(ctx, server, name, dbtest.DatabaseOptions{})
	return name, dbURL, err
}

// buildDedupd builds ./cmd/dedupd of the service's module, in its own
// folder, so that its own go.mod and go.sum decide its dependencies (the
// tools module replaces the service with this checkout; `go list -m` says
// where that is).
func buildDedupd(ctx context.Context, bin string) error {
	out, err := exec.CommandContext(ctx, "go", "list", "-m", "-f", "{{.Dir}}", serviceModule).Output()
	if err != nil {
		return fmt.Errorf("go list -m %s (run dedupload from the project folder, or pass -dedupd): %w", serviceModule, err)
	}
	dir := strings.TrimSpace(string(out))
	if dir == "" {
		return fmt.Errorf("go list -m %s: no folder: run dedupload from the project folder, or pass -dedupd", serviceModule)
	}
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/dedupd")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build ./cmd/dedupd in %s: %w\n%s", dir, err, out)
	}
	return nil
}

// serviceModule is the module dedupd is built from.
const serviceModule = "github.com/newsdedup/newsdedup"

// dedupdProcess is dedupd running as a subprocess.
type dedupdProcess struct {
	cmd    *exec.Cmd
	addr   string
	exited chan struct{}
	err    error

	mu       sync.Mutex
	warnings int
	errors   int
	tail     []string // the last lines of its log
}

// startDedupd runs bin serve with env on top of this process's environment
// (less DATABASE_URL and DEDUP_ variables) and waits until it listens.
func startDedupd(ctx context.Context, bin string, env map[string]string, stderr io.Writer) (*dedupdProcess, error) {
	d := &dedupdProcess{cmd: exec.Command(bin, "serve"), exited: make(chan struct{})}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DEDUP_") && !strings.HasPrefix(kv, "DATABASE_URL=") {
			d.cmd.Env = append(d.cmd.Env, kv)
		}
	}
	for k, v := range env {
		d.cmd.Env = append(d.cmd.Env, k+"="+v)
	}
	pipe, err := d.cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := d.cmd.Start(); err != nil {
		return nil, fmt.Errorf("start dedupd: %w", err)
	}
	addr := make(chan string, 1)
	logDone := make(chan struct{})
	go func() {
		defer close(logDone)
		d.readLog(pipe, addr)
	}()
	go func() {
		<-logDone
		d.err = d.cmd.Wait()
		close(d.exited)
	}()
	select {
	case d.addr = <-addr:
		return d, nil
	case <-d.exited:
		return nil, fmt.Errorf("dedupd exited (%v) before listening; its log ends:\n%s", d.err, d.logTail())
	case <-time.After(time.Minute):
		d.kill()
		return nil, fmt.Errorf("dedupd did not listen within a minute; its log ends:\n%s", d.logTail())
	case <-ctx.Done():
		d.kill()
		return nil, ctx.Err()
	}
}

// readLog reads dedupd's JSON log: the address it listens on, and the
// warnings and errors. The access log (a line per request) is only counted
// past: parsing it would take CPU from the load.
func (d *dedupdProcess) readLog(r io.Reader, addr chan<- string) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		line := sc.Bytes()
		d.mu.Lock()
		if len(d.tail) == 20 {
			d.tail = d.tail[1:]
		}
		d.tail = append(d.tail, string(line))
		switch {
		case bytes.Contains(line, []byte(`"level":"ERROR"`)):
			d.errors++
		case bytes.Contains(line, []byte(`"level":"WARN"`)):
			d.warnings++
		}
		d.mu.Unlock()
		if bytes.Contains(line, []byte(`"msg":"listening"`)) {
			var rec struct{ Addr string }
			if json.Unmarshal(line, &rec) == nil {
				select {
				case addr <- rec.Addr:
				default:
				}
			}
		}
	}
	io.Copy(io.Discard, r)
}

func (d *dedupdProcess) logTail() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return strings.Join(d.tail, "\n")
}

func (d *dedupdProcess) logCounts() (warnings, errors int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.warnings, d.errors
}

// stop sends SIGTERM and waits for the exit, killing dedupd after wait; it
// says how it went.
func (d *dedupdProcess) stop(wait time.Duration) string {
	start := time.Now()
	if err := d.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		return fmt.Sprintf("SIGTERM failed: %v", err)
	}
	select {
	case <-d.exited:
		if d.err != nil {
			return fmt.Sprintf("exited with %v %s after SIGTERM", d.err, time.Since(start).Round(time.Millisecond))
		}
		return fmt.Sprintf("exited 0 %s after SIGTERM", time.Since(start).Round(time.Millisecond))
	case <-time.After(wait):
		d.kill()
		return fmt.Sprintf("still running %s after SIGTERM: killed", wait)
	}
}

func (d *dedupdProcess) kill() {
	select {
	case <-d.exited:
	default:
		d.cmd.Process.Kill()
		<-d.exited
	}
}

// loadAverage returns the 1, 5 and 15 minute load averages, or zeros.
func loadAverage() [3]float64 {
	var la [3]float64
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return la
	}
	fmt.Sscan(string(b), &la[0], &la[1], &la[2])
	return la
}
