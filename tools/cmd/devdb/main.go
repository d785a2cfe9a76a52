// Command devdb starts, reuses and stops the local PostgreSQL cluster that
// `make run` and `make test` use when DATABASE_URL is not set.
//
// It exists so that a fresh clone needs nothing but the PostgreSQL server
// binaries to run the whole suite against a real database: no Docker, no
// shared server, no manual createdb. The cluster lives in the project's
// ignored .data folder (or in a per-project folder under $TMPDIR when the
// postgres user cannot reach the project, as in a root-owned CI checkout),
// listens on 127.0.0.1 only, trusts local connections, and keeps fsync and
// synchronous_commit at their defaults so that benchmarks measure a durable
// database.
//
// Usage:
//
//	devdb [-dir PROJECT] start    ensure the cluster runs and the newsdedup database exists; print its URL
//	devdb [-dir PROJECT] stop     stop the cluster if it runs
//	devdb [-dir PROJECT] url      print the URL (the cluster need not run)
//	devdb [-dir PROJECT] status   say whether it runs; exit 0 if it does, 3 if not
//	devdb version                 print which PostgreSQL binaries devdb uses
//	devdb -parts N start|stop|url|status   N sentence partitions (clusters in
//	                              .data/parts) registered in the cluster, whose URL
//	                              start prints; stop unregisters them (make parts-start)
//	devdb -ha start|stop|url|status   the same for a pg_auto_failover formation
//	                              (a monitor, a primary and its synchronous
//	                              standby); start also migrates (make ha-start)
//
// Only `start` and `url` write to stdout, and only the URL, so that
// DATABASE_URL=$(devdb start) works; everything else goes to stderr.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/newsdedup/newsdedup/internal/pgcluster"
)

// exitError carries a specific exit status out of run.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout)
	stop()
	var ee exitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		os.Exit(ee.code)
	default:
		fmt.Fprintf(os.Stderr, "devdb: %v\n", err)
		os.Exit(1)
	}
}

const usage = `usage: devdb [-dir PROJECT] [-ha] start|stop|url|status|version

  start    ensure the local PostgreSQL cluster runs and the newsdedup
           database exists, then print its URL on stdout
  stop     stop the cluster if it runs
  url      print the URL of the cluster (error if it was never started)
  status   say whether the cluster runs (exit 0 if it does, 3 if not)
  version  print which PostgreSQL binaries devdb uses

The cluster lives in PROJECT/.data/postgres, or, when devdb runs as root and
the postgres user cannot reach PROJECT, in $TMPDIR/newsdedup-pg-<hash>.

With -parts N the commands manage N local sentence partitions (N a power
of two): start starts them and the cluster, prepares them, migrates the
cluster and registers them in it (docs/scaling.md); stop unregisters and
stops them.

With -ha the commands manage a pg_auto_failover formation instead (needs
pg_autoctl: apt-get install postgresql-15-auto-failover): a monitor and two
nodes, a primary and its synchronous standby, in PROJECT/.data/ha (or
$TMPDIR/newsdedup-ha-<hash>). start makes or starts it, migrates the
newsdedup database and prints the URL of both nodes
(target_session_attrs=read-write); status prints each node's state.
`

func run(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("devdb", flag.ContinueOnError)
	dir := fs.String("dir", ".", "the project folder whose cluster to manage")
	ha := fs.Bool("ha", false, "manage the project's pg_auto_failover formation (a monitor and two nodes) instead of its one cluster")
	nparts := fs.Int("parts", 0, "manage this many sentence partitions (clusters in PROJECT/.data/parts) registered in the project's cluster")
	fs.Usage = func() { fmt.Fprint(os.Stderr, usage, "\nflags:\n"); fs.PrintDefaults() }
	// Flags may come before or after the subcommand: devdb -dir x start, devdb start -dir x.
	if err := fs.Parse(args); err != nil {
		return exitError{2}
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return exitError{2}
	}
	cmd := fs.Arg(0)
	if err := fs.Parse(fs.Args()[1:]); err != nil {
		return exitError{2}
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "devdb: unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return exitError{2}
	}

	bins, err := pgcluster.FindBinaries()
	if err != nil {
		return err
	}
	if cmd == "version" {
		return printVersion(ctx, bins, stdout)
	}

	var c manager
	switch {
	case *ha:
		c, err = newFormation(*dir)
	case *nparts > 0:
		c, err = newParts(*dir, *nparts)
	default:
		c, err = newCluster(*dir)
	}
	if err != nil {
		return err
	}
	switch cmd {
	case "start":
		url, err := c.Start(ctx)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintln(stdout, url)
		return err
	case "stop":
		return c.Stop(ctx)
	case "url":
		url, err := c.URL()
		if err != nil {
			return err
		}
		_, err = fmt.Fprintln(stdout, url)
		return err
	case "status":
		running, err := c.Status(ctx, stdout)
		if err != nil {
			return err
		}
		if !running {
			return exitError{3}
		}
		return nil
	default:
		fmt.Fprintf(os.Stderr, "devdb: unknown command %q\n", cmd)
		fs.Usage()
		return exitError{2}
	}
}

// manager is what the commands do to the one cluster (cluster) or to the
// formation (formation).
type manager interface {
	Start(ctx context.Context) (url string, err error)
	Stop(ctx context.Context) error
	URL() (string, error)
	Status(ctx context.Context, w io.Writer) (running bool, err error)
}

// printVersion writes where the binaries are and which version they are.
func printVersion(ctx context.Context, b pgcluster.Binaries, w io.Writer) error {
	out, err := exec.CommandContext(ctx, b.PgCtl, "--version").Output()
	if err != nil {
		return fmt.Errorf("%s --version: %w", b.PgCtl, err)
	}
	_, err = fmt.Fprintf(w, "%s (%s)\n", strings.TrimSpace(string(out)), filepath.Dir(b.PgCtl))
	return err
}
