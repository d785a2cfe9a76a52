// Package pgcluster runs a PostgreSQL cluster of its own in one folder:
// initdb once, then start, stop and ask whether it runs, with pg_ctl.
//
// tools/cmd/devdb keeps the project's development cluster with it, and the fault
// tests start throw-away clusters they may crash and restart (see
// repo/dbtest.PrivateCluster). PostgreSQL refuses to run as root: when the
// process is root, its programs run as the postgres user through runuser,
// and the folders they write are given to that user.
//
// The folder holds the data folder (data/), the server log (server.log),
// the file with the cluster's port (port) and, when its path is short
// enough, the Unix socket. The cluster listens on 127.0.0.1 only and trusts
// local connections: it is for development and tests, never for production.
package pgcluster

import (
	"bytes"
	"cmp"
	"context"
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
)

const (
	// Superuser is the role initdb creates; local connections are trusted.
	Superuser = "postgres"
	// SystemUser runs PostgreSQL's programs when the process is root.
	SystemUser = "postgres"

	// DefaultFirstPort is where the search for a free port starts when
	// Options leave it zero. It sits next to the standard 5432 without
	// clashing with a system PostgreSQL.
	DefaultFirstPort = 54329
	// portSearch is how many ports after the first the search tries when
	// Options leave LastPort zero.
	portSearch = 1000

	// maxSocketDir is the longest folder path used as the Unix socket
	// folder; a socket path (folder + "/.s.PGSQL.NNNNN") must fit in 107 bytes.
	maxSocketDir = 90
	// maxLogSize is the size above which Start moves server.log aside.
	maxLogSize = 64 << 20
	// waitSeconds bounds pg_ctl's waits for a start or a stop.
	waitSeconds = "60"
)

// Options configure a Cluster. The zero value suits a throw-away cluster
// with PostgreSQL's default settings.
type Options struct {
	// Owner names, in the comments of the settings file, the program that
	// writes it ("tools/cmd/devdb"); "internal/pgcluster" when empty.
	Owner string
	// ConfFile is the name of the settings file inside the data folder,
	// which postgresql.conf includes and Start rewrites before every start;
	// "pgcluster.conf" when empty.
	ConfFile string
	// Settings are postgresql.conf lines (comments allowed) written after
	// listen_addresses, port and unix_socket_directories.
	Settings []string
	// FirstPort and LastPort bound the search for a free TCP port on
	// 127.0.0.1, which goes up from FirstPort: DefaultFirstPort and
	// FirstPort+1000 when zero.
	FirstPort, LastPort int
	// NoSync runs initdb with --no-sync: faster, and safe for a cluster that
	// does not outlive the machine's uptime.
	NoSync bool
	// Logf receives progress messages (creating, starting, moving to
	// another port); nil for none.
	Logf func(format string, args ...any)
	// Output receives what initdb and pg_ctl print. When nil, it is kept
	// only to explain a failure in the error.
	Output io.Writer
}

// Cluster is one PostgreSQL cluster in a folder of its own. Its methods
// are not safe for concurrent use: a caller whose processes may share the
// folder serialises them itself (tools/cmd/devdb holds a lock file).
type Cluster struct {
	dir   string
	opts  Options
	bins  Binaries
	runAs *account // non-nil when the process is root
	port  int      // 0 until read or chosen
}

// account is the user PostgreSQL's programs run as when the process is root.
type account struct {
	uid, gid int
	runuser  string
}

// New returns the cluster in dir, which need not exist yet. It finds the
// PostgreSQL programs and, when the process is root, the postgres user to
// run them as and runuser to do it with; it fails, saying what to install,
// when one is missing.
func New(dir string, opts Options) (*Cluster, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("cluster folder %s: %w", dir, err)
	}
	opts.Owner = cmp.Or(opts.Owner, "internal/pgcluster")
	opts.ConfFile = cmp.Or(opts.ConfFile, "pgcluster.conf")
	opts.FirstPort = cmp.Or(opts.FirstPort, DefaultFirstPort)
	opts.LastPort = cmp.Or(opts.LastPort, opts.FirstPort+portSearch)
	if opts.FirstPort < 1 || opts.LastPort > 65535 || opts.FirstPort > opts.LastPort {
		return nil, fmt.Errorf("port range %d-%d: want 1 <= first <= last <= 65535", opts.FirstPort, opts.LastPort)
	}
	bins, err := FindBinaries()
	if err != nil {
		return nil, err
	}
	c := &Cluster{dir: abs, opts: opts, bins: bins}
	if os.Geteuid() == 0 {
		c.runAs, err = lookupAccount()
		if err != nil {
			return nil, err
		}
	}
	return c, nil
}

func lookupAccount() (*account, error) {
	u, err := user.Lookup(SystemUser)
	if err != nil {
		return nil, fmt.Errorf("this process runs as root and PostgreSQL refuses to, but there is no %q user to run it as: "+
			"create one (useradd --system %s) or run as an ordinary user", SystemUser, SystemUser)
	}
	uid, err1 := strconv.Atoi(u.Uid)
	gid, err2 := strconv.Atoi(u.Gid)
	if err1 != nil || err2 != nil {
		return nil, fmt.Errorf("user %s has a non-numeric uid or gid (%s:%s)", SystemUser, u.Uid, u.Gid)
	}
	runuser, err := exec.LookPath("runuser")
	if err != nil {
		return nil, fmt.Errorf("this process runs as root and needs runuser (util-linux) to run PostgreSQL as %q: "+
			"install util-linux or run as an ordinary user", SystemUser)
	}
	return &account{uid: uid, gid: gid, runuser: runuser}, nil
}

// Dir returns the cluster's folder, absolute.
func (c *Cluster) Dir() string { return c.dir }

// DataDir returns the data folder, the one initdb made.
func (c *Cluster) DataDir() string { return filepath.Join(c.dir, "data") }

// LogFile returns the server log's path.
func (c *Cluster) LogFile() string { return filepath.Join(c.dir, "server.log") }

// PortFile returns the path of the file holding the cluster's port.
func (c *Cluster) PortFile() string { return filepath.Join(c.dir, "port") }

// Binaries returns the programs the cluster runs.
func (c *Cluster) Binaries() Binaries { return c.bins }

// RunAs returns the user PostgreSQL's programs run as when the process is
// root (SystemUser), or "" when they run as the process's own user.
func (c *Cluster) RunAs() string {
	if c.runAs == nil {
		return ""
	}
	return SystemUser
}

// CanReach reports whether the user PostgreSQL's programs run as may
// traverse dir. It is always true when that user is the process's own.
func (c *Cluster) CanReach(ctx context.Context, dir string) bool {
	if c.runAs == nil {
		return true
	}
	cmd := exec.CommandContext(ctx, c.runAs.runuser, "-u", SystemUser, "--", "test", "-x", dir)
	cmd.Dir = "/"
	return cmd.Run() == nil
}

// Initialised reports whether initdb ran and a port was chosen.
func (c *Cluster) Initialised() bool {
	return exists(filepath.Join(c.DataDir(), "PG_VERSION")) && exists(c.PortFile())
}

// Init creates the folder (mode 700, given to the user PostgreSQL runs
// as; its parent is created mode 755 if missing), runs initdb, chooses a
// free port and makes postgresql.conf include the settings file. Each step
// checks whether it was done, so Init on an initialised cluster changes
// nothing and an interrupted Init completes on the next call.
func (c *Cluster) Init(ctx context.Context) error {
	if err := os.MkdirAll(filepath.Dir(c.dir), 0o755); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(c.dir), err)
	}
	if err := os.Mkdir(c.dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("create the cluster folder: %w", err)
	}
	if err := c.own(c.dir); err != nil {
		return err
	}
	data := c.DataDir()
	if !exists(filepath.Join(data, "PG_VERSION")) {
		if entries, err := os.ReadDir(data); err == nil && len(entries) > 0 {
			return fmt.Errorf("%s exists but holds no PostgreSQL cluster (no PG_VERSION): "+
				"move it away or delete it, then start again", data)
		}
		c.logf("creating a PostgreSQL cluster in %s", data)
		args := []string{"-D", data, "-U", Superuser, "--auth=trust", "-E", "UTF8", "--locale=C"}
		if c.opts.NoSync {
			args = append(args, "--no-sync")
		}
		if err := c.pg(ctx, c.bins.Initdb, args...); err != nil {
			return fmt.Errorf("initdb: %w", err)
		}
	}
	if err := c.checkOwner(data); err != nil {
		return err
	}
	if !exists(c.PortFile()) {
		port, err := c.freePort(0)
		if err != nil {
			return err
		}
		if err := c.writeFile(c.PortFile(), []byte(strconv.Itoa(port)+"\n"), 0o644); err != nil {
			return err
		}
		c.port = port
		c.logf("the cluster will listen on 127.0.0.1:%d (kept in %s)", port, c.PortFile())
	}
	return c.includeConf()
}

// ReadPort reads the cluster's port from its port file.
func (c *Cluster) ReadPort() (int, error) {
	b, err := os.ReadFile(c.PortFile())
	if err != nil {
		return 0, fmt.Errorf("read the cluster's port: %w", err)
	}
	port, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || port <= 0 || port > 65535 {
		return 0, fmt.Errorf("%s should hold a port number, not %q: delete it and the next start picks a new one",
			c.PortFile(), strings.TrimSpace(string(b)))
	}
	c.port = port
	return port, nil
}

// Port returns the port the cluster listens on when it runs, or 0 when it
// has none yet (or its port file is unreadable: ReadPort says why).
func (c *Cluster) Port() int {
	if c.port == 0 {
		c.ReadPort()
	}
	return c.port
}

// URL returns the URL of database as the superuser, over TCP on 127.0.0.1,
// whether or not the cluster runs.
func (c *Cluster) URL(database string) string {
	return fmt.Sprintf("postgres://%s@127.0.0.1:%d/%s?sslmode=disable", Superuser, c.Port(), database)
}

// Running asks pg_ctl whether the cluster's server runs.
func (c *Cluster) Running(ctx context.Context) (bool, error) {
	var out bytes.Buffer
	err := c.run(ctx, &out, c.bins.PgCtl, "-D", c.DataDir(), "status")
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

// Start starts the initialised cluster and waits until it accepts
// connections; it does nothing when the cluster runs. If another program
// took the cluster's port meanwhile, the cluster moves to a free one (Port
// tells which). It rewrites the settings file first.
func (c *Cluster) Start(ctx context.Context) error {
	if !c.Initialised() {
		return fmt.Errorf("no cluster in %s: Init it first", c.dir)
	}
	port, err := c.ReadPort()
	if err != nil {
		return err
	}
	running, err := c.Running(ctx)
	if err != nil || running {
		return err
	}
	if !portFree(port) {
		newPort, err := c.freePort(port)
		if err != nil {
			return err
		}
		c.logf("port %d is taken by another program; the cluster moves to port %d", port, newPort)
		if err := c.writeFile(c.PortFile(), []byte(strconv.Itoa(newPort)+"\n"), 0o644); err != nil {
			return err
		}
		port, c.port = newPort, newPort
	}
	if err := c.writeConf(port); err != nil {
		return err
	}
	if fi, err := os.Stat(c.LogFile()); err == nil && fi.Size() > maxLogSize {
		_ = os.Rename(c.LogFile(), c.LogFile()+".old")
	}
	c.logf("starting PostgreSQL on 127.0.0.1:%d (data: %s, log: %s)", port, c.DataDir(), c.LogFile())
	err = c.pg(ctx, c.bins.PgCtl, "-D", c.DataDir(), "-l", c.LogFile(), "-w", "-t", waitSeconds, "start")
	if err != nil {
		if c.opts.Logf != nil {
			c.logf("PostgreSQL did not start. The end of %s:\n%s", c.LogFile(), strings.TrimSuffix(c.LogTail(20), "\n"))
			return fmt.Errorf("pg_ctl start: %w (the server log above says why)", err)
		}
		return fmt.Errorf("pg_ctl start: %w; the end of %s:\n%s", err, c.LogFile(), c.LogTail(20))
	}
	return nil
}

// Stop stops the cluster's server if it runs, and waits until it has
// exited. The mode is pg_ctl's: "smart" waits for the clients to
// disconnect, "fast" disconnects them and shuts down cleanly, "immediate"
// ends every process at once, as a crash does (the next start recovers from
// the write-ahead log).
func (c *Cluster) Stop(ctx context.Context, mode string) error {
	switch mode {
	case "smart", "fast", "immediate":
	default:
		return fmt.Errorf("stop mode %q: want smart, fast or immediate", mode)
	}
	running, err := c.Running(ctx)
	if err != nil || !running {
		return err
	}
	err = c.pg(ctx, c.bins.PgCtl, "-D", c.DataDir(), "-w", "-t", waitSeconds, "-m", mode, "stop")
	if err != nil {
		return fmt.Errorf("pg_ctl stop: %w (server log: %s)", err, c.LogFile())
	}
	return nil
}

// Exec runs a program as the user PostgreSQL runs as (pgBackRest, say), and
// returns what it printed, both streams.
func (c *Cluster) Exec(ctx context.Context, program string, args ...string) ([]byte, error) {
	var out bytes.Buffer
	err := c.run(ctx, &out, program, args...)
	return out.Bytes(), err
}

// LogTail returns the last n lines of the server log, or why it cannot be
// read.
func (c *Cluster) LogTail(n int) string {
	b, err := os.ReadFile(c.LogFile())
	if err != nil {
		return fmt.Sprintf("(cannot read the log: %v)\n", err)
	}
	lines := strings.SplitAfter(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "") + "\n"
}

// checkOwner refuses a data folder that belongs to someone other than the
// user PostgreSQL runs as: pg_ctl would fail with a less helpful message.
func (c *Cluster) checkOwner(data string) error {
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
		want, who = c.runAs.uid, "the "+SystemUser+" user"
	}
	if int(st.Uid) == want {
		return nil
	}
	owner := strconv.Itoa(int(st.Uid))
	if u, err := user.LookupId(owner); err == nil {
		owner = u.Username
	}
	return fmt.Errorf("the cluster in %s belongs to %s, but PostgreSQL would run as %s: "+
		"run as the same user as before (root runs it as %s), or delete %s to start afresh",
		c.dir, owner, who, SystemUser, c.dir)
}

// includeConf makes postgresql.conf include the settings file.
func (c *Cluster) includeConf() error {
	path := filepath.Join(c.DataDir(), "postgresql.conf")
	conf, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	line := "include '" + c.opts.ConfFile + "'"
	if bytes.Contains(conf, []byte(line)) {
		return nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(f, "\n# newsdedup's %s writes its settings there before every start.\n%s\n", c.opts.Owner, line)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// writeConf writes the settings file for a start on port.
func (c *Cluster) writeConf(port int) error {
	socketDir := c.dir
	if len(socketDir) >= maxSocketDir {
		socketDir = "/tmp"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Written by newsdedup's %s before every start: edit %s, not this file.\n", c.opts.Owner, c.opts.Owner)
	fmt.Fprintf(&b, "listen_addresses = '127.0.0.1'\nport = %d\nunix_socket_directories = %s\n", port, quoteConf(socketDir))
	for _, s := range c.opts.Settings {
		b.WriteString(s)
		b.WriteByte('\n')
	}
	return c.writeFile(filepath.Join(c.DataDir(), c.opts.ConfFile), []byte(b.String()), 0o600)
}

func quoteConf(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// pg runs one of PostgreSQL's programs with its output going to
// Options.Output, or into the error when that is nil.
func (c *Cluster) pg(ctx context.Context, program string, args ...string) error {
	if c.opts.Output != nil {
		return c.run(ctx, c.opts.Output, program, args...)
	}
	var out bytes.Buffer
	err := c.run(ctx, &out, program, args...)
	if err != nil && out.Len() > 0 {
		return fmt.Errorf("%w: %s", err, strings.TrimSpace(out.String()))
	}
	return err
}

// run runs one of PostgreSQL's programs, as the postgres user when the
// process is root, with its output (both streams) going to out.
func (c *Cluster) run(ctx context.Context, out io.Writer, program string, args ...string) error {
	cmd := command(ctx, c.runAs, nil, program, args...)
	cmd.Stdout, cmd.Stderr = out, out
	return cmd.Run()
}

// command returns the command that runs program as the postgres user when
// runAs is set (the process is root), as the process's own user otherwise,
// with env added to the environment.
func command(ctx context.Context, runAs *account, env []string, program string, args ...string) *exec.Cmd {
	var cmd *exec.Cmd
	switch {
	case runAs != nil:
		// runuser keeps most of the environment but may reset PATH: env(1)
		// sets what the program needs after it.
		argv := append([]string{"-u", SystemUser, "--", "env"}, env...)
		cmd = exec.CommandContext(ctx, runAs.runuser, append(append(argv, program), args...)...)
	default:
		cmd = exec.CommandContext(ctx, program, args...)
		if len(env) > 0 {
			cmd.Env = append(os.Environ(), env...)
		}
	}
	// PostgreSQL's programs look up their working folder; the caller's may be
	// closed to the postgres user.
	cmd.Dir = "/"
	return cmd
}

// writeFile replaces path atomically with data, owned by PostgreSQL's user.
func (c *Cluster) writeFile(path string, data []byte, perm os.FileMode) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, perm); err != nil {
		return err
	}
	if err := c.own(tmp); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// own gives path to the postgres user when the process is root.
func (c *Cluster) own(path string) error {
	if c.runAs == nil {
		return nil
	}
	if err := os.Chown(path, c.runAs.uid, c.runAs.gid); err != nil {
		return fmt.Errorf("give %s to the %s user: %w", path, SystemUser, err)
	}
	return nil
}

func (c *Cluster) logf(format string, args ...any) {
	if c.opts.Logf != nil {
		c.opts.Logf(format, args...)
	}
}

// freePort returns the first port of the range that nobody listens on at
// 127.0.0.1, skipping skip.
func (c *Cluster) freePort(skip int) (int, error) {
	for p := c.opts.FirstPort; p <= c.opts.LastPort; p++ {
		if p != skip && portFree(p) {
			return p, nil
		}
	}
	return 0, fmt.Errorf("no free TCP port on 127.0.0.1 between %d and %d", c.opts.FirstPort, c.opts.LastPort)
}

func portFree(port int) bool {
	l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return false
	}
	l.Close()
	return true
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
