package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/newsdedup/newsdedup/internal/pgcluster"
)

const (
	// database is the database `devdb start` creates and whose URL it prints.
	database = "newsdedup"
	// firstPort is where the search for a free port starts. It sits next to
	// the standard 5432 without clashing with a system PostgreSQL.
	firstPort = pgcluster.DefaultFirstPort
	lastPort  = firstPort + 1000
)

// clusterOptions are the settings of the development cluster. devdb.conf,
// which postgresql.conf includes, is rewritten with them before every start.
func clusterOptions(area string) pgcluster.Options {
	o := pgcluster.Options{
		Owner:    "tools/cmd/devdb",
		ConfFile: "devdb.conf",
		Settings: []string{
			"max_connections = 300",
			"shared_buffers = '512MB'",
			"logging_collector = off",
			"# Each statement's figures for the benchmarks (make bench-ingest); a few per cent on the shortest statements.",
			"shared_preload_libraries = 'pg_stat_statements'",
			"pg_stat_statements.track = top",
			"# fsync and synchronous_commit keep their defaults: benchmarks must measure a durable database.",
		},
		FirstPort: firstPort,
		LastPort:  lastPort,
		Logf:      logf,
		Output:    os.Stderr,
	}
	if isPartition(area) {
		// Several sentence partitions share the machine with the primary.
		o.Settings[1] = "shared_buffers = '128MB'"
		// A partition moves or splits by logical replication (dedupd
		// partitions move|split): its server must decode its WAL.
		o.Settings = append(o.Settings, "wal_level = logical")
	}
	return o
}

// cluster is one project's local PostgreSQL cluster. Its data area (base)
// holds the data folder itself (data/), the server log, the file with the
// cluster's port and, when the path is short enough, the Unix socket;
// pgcluster runs it.
type cluster struct {
	project string             // absolute project folder, symlinks resolved
	area    string             // areaCluster, or areaFormation for devdb -ha (formation.go)
	base    string             // the data area; set by locate
	pg      *pgcluster.Cluster // the cluster in base (set by locate), or where it would be
}

// The two data areas of a project: the one cluster's, and the formation's.
const (
	areaCluster   = "postgres"
	areaFormation = "ha"
)

func newCluster(dir string) (*cluster, error) {
	return newArea(dir, areaCluster)
}

func newArea(dir, area string) (*cluster, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("project folder %s: %w", dir, err)
	}
	project, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("project folder: %w", err)
	}
	if fi, err := os.Stat(project); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("project folder %s is not a folder", project)
	}
	c := &cluster{project: project, area: area}
	// The cluster where it belongs, until locate says otherwise: New also
	// checks that the programs and, as root, the postgres user are there.
	c.pg, err = pgcluster.New(c.localBase(), clusterOptions(c.area))
	if err != nil {
		return nil, err
	}
	return c, nil
}

// lockFile is the file whose lock serialises devdb commands on one data area.
func (c *cluster) lockFile() string { return c.base + ".lock" }

// localBase is the data area inside the project, where it belongs.
func (c *cluster) localBase() string { return filepath.Join(c.project, ".data", c.area) }

// fallbackBase is the data area used when the postgres user cannot reach the
// project (a root-owned checkout in a mode-700 folder, as CI makes). It is
// named after the project's path so that every devdb command on the same
// project finds the same one.
func (c *cluster) fallbackBase() string {
	tmp := os.Getenv("TMPDIR")
	if tmp == "" {
		tmp = "/tmp"
	}
	sum := sha256.Sum256([]byte(c.project))
	prefix := "newsdedup-pg-"
	switch {
	case c.area == areaFormation:
		prefix = "newsdedup-ha-"
	case isPartition(c.area):
		prefix = "newsdedup-" + strings.ReplaceAll(c.area, "/", "-") + "-"
	}
	return filepath.Join(tmp, prefix+hex.EncodeToString(sum[:])[:12])
}

// locate chooses the data area. An existing one wins, the project's own
// first; with forStart and neither existing, the project's own is chosen when
// PostgreSQL can reach it and the fallback otherwise. Without forStart and
// neither existing, base is the project's own, which is not initialised.
func (c *cluster) locate(ctx context.Context, forStart bool) error {
	local, fallback := c.localBase(), c.fallbackBase()
	switch {
	case exists(local):
		c.base = local
	case exists(fallback):
		c.base = fallback
		logf("the cluster of %s lives in %s (the %s user cannot reach the project folder)", c.project, fallback, pgcluster.SystemUser)
	case !forStart:
		c.base = local
	case c.pg.RunAs() == "":
		c.base = local
	default:
		reachable, err := c.postgresCanReach(ctx)
		if err != nil {
			return err
		}
		if reachable {
			c.base = local
		} else {
			c.base = fallback
			logf("the %s user cannot reach %s, so the cluster goes to %s instead", pgcluster.SystemUser, c.project, fallback)
		}
	}
	if c.area == areaCluster && c.base != c.pg.Dir() {
		pg, err := pgcluster.New(c.base, clusterOptions(c.area))
		if err != nil {
			return err
		}
		c.pg = pg
	}
	return nil
}

// postgresCanReach says whether the postgres user can traverse the project
// folder and its .data folder, creating .data (mode 755) if it is missing.
func (c *cluster) postgresCanReach(ctx context.Context) (bool, error) {
	if !c.pg.CanReach(ctx, c.project) {
		return false, nil
	}
	dotData := filepath.Join(c.project, ".data")
	if !exists(dotData) {
		if err := os.Mkdir(dotData, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return false, fmt.Errorf("create %s: %w", dotData, err)
		}
		if err := os.Chmod(dotData, 0o755); err != nil { // whatever the umask
			return false, err
		}
	}
	return c.pg.CanReach(ctx, dotData), nil
}

// Start makes sure the cluster exists and runs and that the newsdedup
// database exists, and returns the database's URL.
func (c *cluster) Start(ctx context.Context) (string, error) {
	if err := c.locate(ctx, true); err != nil {
		return "", err
	}
	// The lock file sits next to the data area: its folder must exist first.
	if err := os.MkdirAll(filepath.Dir(c.base), 0o755); err != nil {
		return "", fmt.Errorf("create %s: %w", filepath.Dir(c.base), err)
	}
	unlock, err := c.lock(ctx)
	if err != nil {
		return "", err
	}
	defer unlock()

	if err := c.pg.Init(ctx); err != nil {
		return "", err
	}
	if err := c.pg.Start(ctx); err != nil {
		return "", err
	}
	if err := ensureDatabase(ctx, c.pg); err != nil {
		return "", err
	}
	return c.pg.URL(database), nil
}

// Stop stops the cluster if it runs.
func (c *cluster) Stop(ctx context.Context) error {
	if err := c.locate(ctx, false); err != nil {
		return err
	}
	if !c.pg.Initialised() {
		logf("no cluster in %s: nothing to stop", c.base)
		return nil
	}
	unlock, err := c.lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	running, err := c.pg.Running(ctx)
	if err != nil {
		return err
	}
	if !running {
		logf("the cluster in %s is not running", c.base)
		return nil
	}
	return c.pg.Stop(ctx, "fast")
}

// URL returns the URL of the newsdedup database, whether or not the cluster runs.
func (c *cluster) URL() (string, error) {
	if err := c.locate(context.Background(), false); err != nil {
		return "", err
	}
	if !c.pg.Initialised() {
		return "", fmt.Errorf("no local cluster for %s yet: run `devdb start` (make db-start) first", c.project)
	}
	if _, err := c.pg.ReadPort(); err != nil {
		return "", err
	}
	return c.pg.URL(database), nil
}

// Status writes whether the cluster runs and reports it.
func (c *cluster) Status(ctx context.Context, w io.Writer) (bool, error) {
	if err := c.locate(ctx, false); err != nil {
		return false, err
	}
	if !c.pg.Initialised() {
		fmt.Fprintf(w, "not initialised (devdb start creates it in %s)\n", c.base)
		return false, nil
	}
	if _, err := c.pg.ReadPort(); err != nil {
		return false, err
	}
	running, err := c.pg.Running(ctx)
	if err != nil {
		return false, err
	}
	state := "stopped"
	if running {
		state = "running"
	}
	fmt.Fprintf(w, "%s: %s (data: %s)\n", state, c.pg.URL(database), c.base)
	return running, nil
}

// lock takes the data area's lock file, so that two devdb commands never
// initialise, start or stop the same cluster at once.
func (c *cluster) lock(ctx context.Context) (unlock func(), err error) {
	f, err := os.OpenFile(c.lockFile(), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open lock file: %w", err)
	}
	deadline := time.Now().Add(3 * time.Minute)
	for waited := false; ; {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() { f.Close() }, nil // closing releases the lock
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", c.lockFile(), err)
		}
		if !waited {
			logf("another devdb is working on %s; waiting for it", c.base)
			waited = true
		}
		if time.Now().After(deadline) {
			f.Close()
			return nil, fmt.Errorf("gave up after 3 minutes waiting for the lock %s: "+
				"is a devdb process stuck? (fuser -v %s)", c.lockFile(), c.lockFile())
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// ensureDatabase creates the newsdedup database if it does not exist.
func ensureDatabase(ctx context.Context, pg *pgcluster.Cluster) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, pg.URL("postgres"))
	if err != nil {
		return fmt.Errorf("connect to the local cluster on port %d: %w", pg.Port(), err)
	}
	defer conn.Close(context.Background())
	var found bool
	err = conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", database).Scan(&found)
	if err != nil {
		return fmt.Errorf("look for the %s database: %w", database, err)
	}
	if found {
		return nil
	}
	_, err = conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{database}.Sanitize())
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "42P04" { // duplicate_database: created meanwhile
		return nil
	}
	if err != nil {
		return fmt.Errorf("create the %s database: %w", database, err)
	}
	logf("created the %s database", database)
	return nil
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "devdb: "+format+"\n", args...)
}
