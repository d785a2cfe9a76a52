package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

const (
	// database is the database `devdb start` creates and whose URL it prints.
	database = "newsdedup"
	// superuser is the role initdb creates; local connections are trusted.
	superuser = "postgres"
	// systemUser runs PostgreSQL's programs when devdb runs as root:
	// PostgreSQL refuses to run as root.
	systemUser = "postgres"
	// firstPort is where the search for a free port starts. It sits next to
	// the standard 5432 without clashing with a system PostgreSQL.
	firstPort = 54329
	lastPort  = firstPort + 1000
	// maxSocketDir is the longest data area path used as the Unix socket
	// folder; a socket path (folder + "/.s.PGSQL.NNNNN") must fit in 107 bytes.
	maxSocketDir = 90
	// maxLogSize is the size above which start moves server.log aside.
	maxLogSize = 64 << 20
	// confFile holds devdb's settings inside the data folder; postgresql.conf
	// includes it. It is rewritten before every start.
	confFile = "devdb.conf"
)

// cluster is one project's local PostgreSQL cluster. Its data area (base)
// holds the data folder itself (data/), the server log, the file with the
// cluster's port and, when the path is short enough, the Unix socket.
type cluster struct {
	project string // absolute project folder, symlinks resolved
	base    string // the data area; set by locate
	bins    binaries
	runAs   *systemAccount // non-nil when devdb runs as root
}

// systemAccount is the user PostgreSQL's programs run as when devdb is root.
type systemAccount struct {
	uid, gid int
	runuser  string
}

func newCluster(dir string, bins binaries) (*cluster, error) {
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
	c := &cluster{project: project, bins: bins}
	if os.Geteuid() == 0 {
		c.runAs, err = lookupSystemAccount()
		if err != nil {
			return nil, err
		}
	}
	return c, nil
}

func lookupSystemAccount() (*systemAccount, error) {
	u, err := user.Lookup(systemUser)
	if err != nil {
		return nil, fmt.Errorf("devdb runs as root and PostgreSQL refuses to, but there is no %q user to run it as: "+
			"create one (useradd --system %s) or run devdb as an ordinary user", systemUser, systemUser)
	}
	uid, err1 := strconv.Atoi(u.Uid)
	gid, err2 := strconv.Atoi(u.Gid)
	if err1 != nil || err2 != nil {
		return nil, fmt.Errorf("user %s has a non-numeric uid or gid (%s:%s)", systemUser, u.Uid, u.Gid)
	}
	runuser, err := exec.LookPath("runuser")
	if err != nil {
		return nil, fmt.Errorf("devdb runs as root and needs runuser (util-linux) to run PostgreSQL as %q: "+
			"install util-linux or run devdb as an ordinary user", systemUser)
	}
	return &systemAccount{uid: uid, gid: gid, runuser: runuser}, nil
}

// Paths inside the data area.
func (c *cluster) dataDir() string  { return filepath.Join(c.base, "data") }
func (c *cluster) portFile() string { return filepath.Join(c.base, "port") }
func (c *cluster) logFile() string  { return filepath.Join(c.base, "server.log") }
func (c *cluster) lockFile() string { return c.base + ".lock" }

// localBase is the data area inside the project, where it belongs.
func (c *cluster) localBase() string { return filepath.Join(c.project, ".data", "postgres") }

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
	return filepath.Join(tmp, "newsdedup-pg-"+hex.EncodeToString(sum[:])[:12])
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
		logf("the cluster of %s lives in %s (the %s user cannot reach the project folder)", c.project, fallback, systemUser)
	case !forStart:
		c.base = local
	case c.runAs == nil:
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
			logf("the %s user cannot reach %s, so the cluster goes to %s instead", systemUser, c.project, fallback)
		}
	}
	return nil
}

// postgresCanReach says whether the postgres user can traverse the project
// folder and its .data folder, creating .data (mode 755) if it is missing.
func (c *cluster) postgresCanReach(ctx context.Context) (bool, error) {
	if !c.runAsCanTraverse(ctx, c.project) {
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
	return c.runAsCanTraverse(ctx, dotData), nil
}

func (c *cluster) runAsCanTraverse(ctx context.Context, dir string) bool {
	cmd := exec.CommandContext(ctx, c.runAs.runuser, "-u", systemUser, "--", "test", "-x", dir)
	cmd.Dir = "/"
	return cmd.Run() == nil
}

// Start makes sure the cluster exists and runs and that the newsdedup
// database exists, and returns the database's URL.
func (c *cluster) Start(ctx context.Context) (string, error) {
	if err := c.locate(ctx, true); err != nil {
		return "", err
	}
	if err := c.makeBase(); err != nil {
		return "", err
	}
	unlock, err := c.lock(ctx)
	if err != nil {
		return "", err
	}
	defer unlock()

	if err := c.ensureInitialised(ctx); err != nil {
		return "", err
	}
	port, err := c.readPort()
	if err != nil {
		return "", err
	}
	running, err := c.running(ctx)
	if err != nil {
		return "", err
	}
	if !running {
		if port, err = c.start(ctx, port); err != nil {
			return "", err
		}
	}
	if err := ensureDatabase(ctx, port); err != nil {
		return "", err
	}
	return databaseURL(port, database), nil
}

// Stop stops the cluster if it runs.
func (c *cluster) Stop(ctx context.Context) error {
	if err := c.locate(ctx, false); err != nil {
		return err
	}
	if !c.initialised() {
		logf("no cluster in %s: nothing to stop", c.base)
		return nil
	}
	unlock, err := c.lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	running, err := c.running(ctx)
	if err != nil {
		return err
	}
	if !running {
		logf("the cluster in %s is not running", c.base)
		return nil
	}
	if err := c.pg(ctx, os.Stderr, c.bins.pgCtl, "-D", c.dataDir(), "-w", "-t", "60", "-m", "fast", "stop"); err != nil {
		return fmt.Errorf("pg_ctl stop: %w (server log: %s)", err, c.logFile())
	}
	return nil
}

// URL returns the URL of the newsdedup database, whether or not the cluster runs.
func (c *cluster) URL() (string, error) {
	if err := c.locate(context.Background(), false); err != nil {
		return "", err
	}
	if !c.initialised() {
		return "", fmt.Errorf("no local cluster for %s yet: run `devdb start` (make db-start) first", c.project)
	}
	port, err := c.readPort()
	if err != nil {
		return "", err
	}
	return databaseURL(port, database), nil
}

// Status writes whether the cluster runs and reports it.
func (c *cluster) Status(ctx context.Context, w io.Writer) (bool, error) {
	if err := c.locate(ctx, false); err != nil {
		return false, err
	}
	if !c.initialised() {
		fmt.Fprintf(w, "not initialised (devdb start creates it in %s)\n", c.base)
		return false, nil
	}
	port, err := c.readPort()
	if err != nil {
		return false, err
	}
	running, err := c.running(ctx)
	if err != nil {
		return false, err
	}
	state := "stopped"
	if running {
		state = "running"
	}
	fmt.Fprintf(w, "%s: %s (data: %s)\n", state, databaseURL(port, database), c.base)
	return running, nil
}

// makeBase creates the data area, owned by the user PostgreSQL runs as.
func (c *cluster) makeBase() error {
	if err := os.MkdirAll(filepath.Dir(c.base), 0o755); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(c.base), err)
	}
	if err := os.Mkdir(c.base, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("create the data area: %w", err)
	}
	return c.own(c.base)
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

// initialised says whether initdb ran and a port was chosen.
func (c *cluster) initialised() bool {
	return exists(filepath.Join(c.dataDir(), "PG_VERSION")) && exists(c.portFile())
}

// ensureInitialised runs initdb and chooses a port, once. Each step checks
// whether it was done, so an interrupted first start completes on the next.
func (c *cluster) ensureInitialised(ctx context.Context) error {
	data := c.dataDir()
	if !exists(filepath.Join(data, "PG_VERSION")) {
		if entries, err := os.ReadDir(data); err == nil && len(entries) > 0 {
			return fmt.Errorf("%s exists but holds no PostgreSQL cluster (no PG_VERSION): "+
				"move it away or delete it, then run devdb start again", data)
		}
		logf("creating a PostgreSQL cluster in %s", data)
		err := c.pg(ctx, os.Stderr, c.bins.initdb,
			"-D", data, "-U", superuser, "--auth=trust", "-E", "UTF8", "--locale=C")
		if err != nil {
			return fmt.Errorf("initdb: %w", err)
		}
	}
	if err := c.checkOwner(data); err != nil {
		return err
	}
	if !exists(c.portFile()) {
		port, err := freePort(0)
		if err != nil {
			return err
		}
		if err := c.writeFile(c.portFile(), []byte(strconv.Itoa(port)+"\n"), 0o644); err != nil {
			return err
		}
		logf("the cluster will listen on 127.0.0.1:%d (kept in %s)", port, c.portFile())
	}
	return c.includeConf()
}

// checkOwner refuses a data folder that belongs to someone other than the
// user PostgreSQL runs as: pg_ctl would fail with a less helpful message.
func (c *cluster) checkOwner(data string) error {
	fi, err := os.Stat(data)
	if err != nil {
		return err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	want, who := os.Geteuid(), "you"
	if c.runAs != nil {
		want, who = c.runAs.uid, "the "+systemUser+" user"
	}
	if int(st.Uid) == want {
		return nil
	}
	owner := strconv.Itoa(int(st.Uid))
	if u, err := user.LookupId(owner); err == nil {
		owner = u.Username
	}
	return fmt.Errorf("the cluster in %s belongs to %s, but devdb would run PostgreSQL as %s: "+
		"run devdb as the same user as before (root runs it as %s), or delete %s to start afresh",
		c.base, owner, who, systemUser, c.base)
}

// includeConf makes postgresql.conf include devdb.conf.
func (c *cluster) includeConf() error {
	path := filepath.Join(c.dataDir(), "postgresql.conf")
	conf, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	line := "include '" + confFile + "'"
	if bytes.Contains(conf, []byte(line)) {
		return nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(f, "\n# newsdedup's cmd/devdb writes its settings there before every start.\n%s\n", line)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// writeConf writes devdb.conf for a start on port.
func (c *cluster) writeConf(port int) error {
	socketDir := c.base
	if len(socketDir) >= maxSocketDir {
		socketDir = "/tmp"
	}
	conf := fmt.Sprintf(`# Written by newsdedup's cmd/devdb before every start: edit cmd/devdb, not this file.
listen_addresses = '127.0.0.1'
port = %d
unix_socket_directories = %s
max_connections = 300
shared_buffers = '512MB'
logging_collector = off
# fsync and synchronous_commit keep their defaults: benchmarks must measure a durable database.
`, port, quoteConf(socketDir))
	return c.writeFile(filepath.Join(c.dataDir(), confFile), []byte(conf), 0o600)
}

func quoteConf(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func (c *cluster) readPort() (int, error) {
	b, err := os.ReadFile(c.portFile())
	if err != nil {
		return 0, fmt.Errorf("read the cluster's port: %w", err)
	}
	port, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || port <= 0 || port > 65535 {
		return 0, fmt.Errorf("%s should hold a port number, not %q: delete it and devdb start picks a new one",
			c.portFile(), strings.TrimSpace(string(b)))
	}
	return port, nil
}

// running asks pg_ctl whether the cluster's server runs.
func (c *cluster) running(ctx context.Context) (bool, error) {
	var out bytes.Buffer
	err := c.pg(ctx, &out, c.bins.pgCtl, "-D", c.dataDir(), "status")
	var ee *exec.ExitError
	switch {
	case err == nil:
		return true, nil
	case errors.As(err, &ee) && ee.ExitCode() == 3: // not running
		return false, nil
	default:
		return false, fmt.Errorf("pg_ctl status: %w: %s", err, strings.TrimSpace(out.String()))
	}
}

// start starts the stopped server, first moving it to another port if
// another program took its own, and returns the port it listens on.
func (c *cluster) start(ctx context.Context, port int) (int, error) {
	if !portFree(port) {
		newPort, err := freePort(port)
		if err != nil {
			return 0, err
		}
		logf("port %d is taken by another program; the cluster moves to port %d", port, newPort)
		if err := c.writeFile(c.portFile(), []byte(strconv.Itoa(newPort)+"\n"), 0o644); err != nil {
			return 0, err
		}
		port = newPort
	}
	if err := c.writeConf(port); err != nil {
		return 0, err
	}
	if fi, err := os.Stat(c.logFile()); err == nil && fi.Size() > maxLogSize {
		_ = os.Rename(c.logFile(), c.logFile()+".old")
	}
	logf("starting PostgreSQL on 127.0.0.1:%d (data: %s, log: %s)", port, c.dataDir(), c.logFile())
	err := c.pg(ctx, os.Stderr, c.bins.pgCtl, "-D", c.dataDir(), "-l", c.logFile(), "-w", "-t", "60", "start")
	if err != nil {
		fmt.Fprintf(os.Stderr, "devdb: PostgreSQL did not start. The end of %s:\n%s", c.logFile(), tail(c.logFile(), 20))
		return 0, fmt.Errorf("pg_ctl start: %w (the server log above says why)", err)
	}
	return port, nil
}

// pg runs one of PostgreSQL's programs, as the postgres user when devdb is
// root, with its output (both streams) going to out.
func (c *cluster) pg(ctx context.Context, out io.Writer, program string, args ...string) error {
	var cmd *exec.Cmd
	if c.runAs != nil {
		cmd = exec.CommandContext(ctx, c.runAs.runuser, append([]string{"-u", systemUser, "--", program}, args...)...)
	} else {
		cmd = exec.CommandContext(ctx, program, args...)
	}
	// PostgreSQL's programs look up their working folder; the caller's may be
	// closed to the postgres user.
	cmd.Dir = "/"
	cmd.Stdout, cmd.Stderr = out, out
	return cmd.Run()
}

// writeFile replaces path atomically with data, owned by PostgreSQL's user.
func (c *cluster) writeFile(path string, data []byte, perm os.FileMode) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, perm); err != nil {
		return err
	}
	if err := c.own(tmp); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// own gives path to the postgres user when devdb runs as root.
func (c *cluster) own(path string) error {
	if c.runAs == nil {
		return nil
	}
	if err := os.Chown(path, c.runAs.uid, c.runAs.gid); err != nil {
		return fmt.Errorf("give %s to the %s user: %w", path, systemUser, err)
	}
	return nil
}

// ensureDatabase creates the newsdedup database if it does not exist.
func ensureDatabase(ctx context.Context, port int) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, databaseURL(port, "postgres"))
	if err != nil {
		return fmt.Errorf("connect to the local cluster on port %d: %w", port, err)
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

func databaseURL(port int, db string) string {
	return fmt.Sprintf("postgres://%s@127.0.0.1:%d/%s?sslmode=disable", superuser, port, db)
}

// freePort returns the first port from firstPort up that nobody listens on
// at 127.0.0.1, skipping skip.
func freePort(skip int) (int, error) {
	for p := firstPort; p <= lastPort; p++ {
		if p != skip && portFree(p) {
			return p, nil
		}
	}
	return 0, fmt.Errorf("no free TCP port on 127.0.0.1 between %d and %d", firstPort, lastPort)
}

func portFree(port int) bool {
	l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return false
	}
	l.Close()
	return true
}

// tail returns the last n lines of the file at path.
func tail(path string, n int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Sprintf("(cannot read the log: %v)\n", err)
	}
	lines := strings.SplitAfter(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "") + "\n"
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "devdb: "+format+"\n", args...)
}
