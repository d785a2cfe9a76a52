// Command dedupd is the newsdedup service: it serves the HTTP API, migrates
// the database schema and bulk-imports articles, all with one configuration
// read from the environment (dedupd help lists it).
//
// It is the only place where the packages meet: it loads the jieba
// dictionary once, opens the PostgreSQL pool, builds the service over them
// and puts the HTTP handlers in front. main only turns signals into a
// context and errors into an exit status; run does the work with its
// arguments, standard streams and environment passed in, so that tests run
// the real program in-process.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.LookupEnv)
	stop()
	if err != nil {
		fmt.Fprintf(os.Stderr, "dedupd: %v\n", err)
		var ue usageError
		if errors.As(err, &ue) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

// run runs the dedupd command line args (without the program name). getenv
// returns an environment variable and whether it is set, as os.LookupEnv
// does. It returns when the command is done or, for serve, when ctx is
// cancelled and the server has shut down.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) (string, bool)) error {
	a := &app{
		stdin:            stdin,
		stdout:           stdout,
		stderr:           stderr,
		getenv:           getenv,
		loadDictionary:   loadDictionary,
		progressInterval: 5 * time.Second,
	}
	return a.run(ctx, args)
}

// app is one run of the program: its streams, its environment and the few
// things tests may replace.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) (string, bool)
	// loadDictionary loads the jieba dictionary and returns a function that
	// frees it; tests share one dictionary between runs.
	loadDictionary func(dir string) (*fingerprint.Dictionary, func(), error)
	// progressInterval is how often import prints a progress line when
	// stderr is not a terminal.
	progressInterval time.Duration
	// readHeaderTimeout and readTimeout replace the HTTP server's limits
	// of the same names when not zero, so that tests of slow clients run in
	// seconds.
	readHeaderTimeout, readTimeout time.Duration
}

// loadDictionary is app.loadDictionary outside tests.
func loadDictionary(dir string) (*fingerprint.Dictionary, func(), error) {
	d, err := fingerprint.Load(dir)
	if err != nil {
		return nil, nil, err
	}
	return d, d.Close, nil
}

// usageError is a command line dedupd does not understand; main exits 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg + " (run dedupd help for usage)" }

func (a *app) run(ctx context.Context, args []string) error {
	if len(args) == 0 {
		fmt.Fprint(a.stderr, usage())
		return usageError{"no command given"}
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "help", "-h", "-help", "--help":
		fmt.Fprint(a.stdout, usage())
		return nil
	case "version", "-version", "--version":
		fmt.Fprintln(a.stdout, versionString())
		return nil
	case "serve", "migrate", "import", "refingerprint", "healthcheck", "partitions":
	default:
		return usageError{fmt.Sprintf("unknown command %q", cmd)}
	}

	cfg, err := loadConfig(a.getenv)
	if err != nil {
		return configError{err}
	}
	log := newLogger(a.stderr, cfg)
	switch cmd {
	case "serve":
		if len(rest) > 0 {
			return usageError{"serve takes no arguments"}
		}
		if err := cfg.requireDatabase(cmd); err != nil {
			return err
		}
		return a.serve(ctx, cfg, log)
	case "migrate":
		if len(rest) != 1 {
			return usageError{"migrate needs one of up, down, status"}
		}
		if err := cfg.requireDatabase(cmd); err != nil {
			return err
		}
		return a.migrate(ctx, cfg, rest[0])
	case "import":
		if len(rest) > 1 {
			return usageError{"import takes at most one file (or - for standard input)"}
		}
		if err := cfg.requireDatabase(cmd); err != nil {
			return err
		}
		path := "-"
		if len(rest) == 1 {
			path = rest[0]
		}
		return a.importArticles(ctx, cfg, log, path)
	case "refingerprint":
		if len(rest) > 0 {
			return usageError{"refingerprint takes no arguments"}
		}
		if err := cfg.requireDatabase(cmd); err != nil {
			return err
		}
		return a.refingerprint(ctx, cfg, log)
	case "partitions":
		if err := cfg.requireDatabase(cmd); err != nil {
			return err
		}
		return a.partitions(ctx, cfg, rest)
	default: // healthcheck
		if len(rest) > 0 {
			return usageError{"healthcheck takes no arguments"}
		}
		return a.healthcheck(ctx, cfg)
	}
}

// configError lists every invalid variable, one a line.
type configError struct{ err error }

func (e configError) Error() string {
	return "invalid configuration:\n  " + strings.ReplaceAll(e.err.Error(), "\n", "\n  ")
}

func (e configError) Unwrap() error { return e.err }

// usage is the help text: the commands and every environment variable.
func usage() string {
	var b strings.Builder
	b.WriteString(`dedupd: newsdedup, near-duplicate detection for news articles

usage: dedupd COMMAND [ARGS]

commands:
  serve              serve the HTTP API on DEDUP_ADDR until SIGINT or SIGTERM,
                     then finish the requests in flight and exit; does not
                     migrate (run "dedupd migrate up" first)
  migrate up         apply every pending schema migration, printing each
  migrate down       roll back the latest applied migration
  migrate status     list the migrations: version, state, applied at, file
  import [FILE|-]    ingest JSON Lines articles from FILE, or from standard
                     input when FILE is - or missing, through the same
                     dictionary, algorithm and options as the API; one
                     object a line, read as POST /v1/articles reads its
                     body: the same fields (external_id, source, title,
                     body, url, published_at, content_type) and options
                     (max_distance, min_word_ratio, window_hours), the same
                     strict JSON (an unknown field is an error). Bad lines
                     are counted and reported, not fatal; a database that
                     cannot be reached is.
  refingerprint      fingerprint again, with this version's algorithm, every
                     stored article of an older fingerprint version (from
                     its stored body, earliest ingested first, each in a
                     transaction of its own while the service serves), judge
                     it again, then judge again the unique articles ingested
                     meanwhile; with a progress bar; safe to stop and run
                     again (it goes on where it was)
  partitions list    list the sentence partitions: number, connection string
  partitions set [CONNSTR...]
                     prepare these databases (libpq connection strings) and
                     make them, in order, the sentence partitions (a power
                     of two; none: the table alone); moves no sentence;
                     after an upgrade, set the same ones again
  partitions move PART CONNSTR
                     move partition PART to the database at CONNSTR while
                     the service serves (logical replication, then a brief
                     pause of the partition writes); the old one is kept
  partitions split CONNSTR...
                     double the 2^k partitions: one new database a
                     partition, each taking half of its partition's rows
  partitions sweep   delete the partitions' rows of articles that do not
                     exist (rolled back, deleted) older than 10 minutes,
                     reading every id, and write again those of corrections
                     rolled back (serve does both every 10 minutes, reading
                     only what changed since; docs/operations.md,
                     "Sentence partitions")
  healthcheck        GET /healthz on DEDUP_ADDR (0.0.0.0 and :: mean
                     loopback); exit 0 if it answers 200, else 1
  version            print the version
  help               print this help

environment (a blank variable takes its default):
`)
	for _, s := range settings() {
		fmt.Fprintf(&b, "  %s\n", s.name)
		for _, line := range wrap(s.meaning, 70) {
			fmt.Fprintf(&b, "      %s\n", line)
		}
		fmt.Fprintf(&b, "      default: %s\n", s.defaultShown())
	}
	b.WriteString(`
exit status: 0 on success, 1 on failure, 2 for a command line dedupd does
not understand.
`)
	return b.String()
}

// wrap breaks text into lines of at most width bytes, at spaces.
func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len(line)+1+len(w) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	return append(lines, line)
}
