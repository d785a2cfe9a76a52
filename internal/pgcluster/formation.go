package pgcluster

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// A Formation is a pg_auto_failover formation in one folder: a monitor and
// two PostgreSQL nodes, each kept by its own `pg_autoctl run`, all on
// 127.0.0.1. One node is the primary, the other its synchronous standby; when
// the primary is lost the monitor promotes the standby, and the old primary,
// started again, rejoins as the new standby (docs/operations.md).
//
// The folder holds one folder a member (monitor, node1, node2) with its data
// folder (data/), its port (port), the output of its pg_autoctl (run.log)
// and the process group that keeps it (keeper.pid); pg_autoctl's own
// configuration and state (xdg/); and, when its path is short enough, the
// Unix sockets of all three. Like a Cluster it trusts local connections: it
// is for development and tests, never for production.
type Formation struct {
	dir     string
	opts    FormationOptions
	bins    Binaries
	autoctl string
	runAs   *account
}

// FormationOptions configure a Formation.
type FormationOptions struct {
	// Owner names, in the comments of the settings file, the program that
	// writes it; "internal/pgcluster" when empty.
	Owner string
	// Database is the database the nodes are made for: pg_autoctl creates it
	// on the first primary. "postgres" when empty.
	Database string
	// Settings are postgresql.conf lines for all three servers.
	Settings []string
	// Detection is the monitor's timing; the zero value keeps
	// pg_auto_failover's defaults.
	Detection Detection
	// FirstPort and LastPort bound the search for three free ports, as in
	// Options.
	FirstPort, LastPort int
	// NoSync runs initdb with --no-sync.
	NoSync bool
	// Logf receives progress messages; nil for none.
	Logf func(format string, args ...any)
}

// Detection is how soon the monitor declares a node failed and how long it
// then waits before promoting the other. A zero field keeps pg_auto_failover's
// default (in brackets).
type Detection struct {
	HealthCheckPeriod     time.Duration // pgautofailover.health_check_period (5 s)
	HealthCheckTimeout    time.Duration // pgautofailover.health_check_timeout (5 s)
	HealthCheckRetryDelay time.Duration // pgautofailover.health_check_retry_delay (2 s)
	// UnhealthyTimeout is pgautofailover.node_considered_unhealthy_timeout
	// (20 s): how long a node's keeper must have been silent.
	UnhealthyTimeout time.Duration
	// PrimaryDemoteTimeout is pgautofailover.primary_demote_timeout (30 s):
	// how long the monitor gives a lost primary to demote itself.
	PrimaryDemoteTimeout time.Duration
	// NetworkPartitionTimeout is the keepers' timeout.network_partition_timeout
	// (20 s): a primary that reaches neither the monitor nor its standby for
	// this long stops its PostgreSQL. It must stay below PrimaryDemoteTimeout,
	// or two primaries could accept writes at once.
	NetworkPartitionTimeout time.Duration
}

// FastDetection is the local formation's timing: a node's loss is
// noticed within about 3 s and its standby promoted 4 s later, where
// pg_auto_failover's defaults (tuned for real networks) take about 50 s.
// docs/operations.md gives both measured.
var FastDetection = Detection{
	HealthCheckPeriod:       time.Second,
	HealthCheckTimeout:      time.Second,
	HealthCheckRetryDelay:   500 * time.Millisecond,
	UnhealthyTimeout:        3 * time.Second,
	PrimaryDemoteTimeout:    4 * time.Second,
	NetworkPartitionTimeout: 3 * time.Second,
}

// monitorLines are the monitor's settings for d.
func (d Detection) monitorLines() []string {
	var lines []string
	for _, s := range []struct {
		name string
		v    time.Duration
	}{
		{"health_check_period", d.HealthCheckPeriod},
		{"health_check_timeout", d.HealthCheckTimeout},
		{"health_check_retry_delay", d.HealthCheckRetryDelay},
		{"node_considered_unhealthy_timeout", d.UnhealthyTimeout},
		{"primary_demote_timeout", d.PrimaryDemoteTimeout},
	} {
		if s.v > 0 {
			lines = append(lines, fmt.Sprintf("pgautofailover.%s = %d", s.name, s.v.Milliseconds()))
		}
	}
	return lines
}

// The members of a formation.
const (
	Monitor = "monitor"
	Node1   = "node1"
	Node2   = "node2"
)

// Nodes are the formation's PostgreSQL nodes, in the order they are made:
// the first is the first primary.
var Nodes = []string{Node1, Node2}

var members = []string{Monitor, Node1, Node2}

// formationConf is the settings file every member's postgresql.conf includes.
const formationConf = "newsdedup-formation.conf"

// FindAutoctl returns the path of pg_autoctl, pg_auto_failover's command
// (Debian: postgresql-15-auto-failover), or an error that says what to install.
func FindAutoctl() (string, error) {
	if p, err := exec.LookPath("pg_autoctl"); err == nil {
		return p, nil
	}
	for _, dir := range debianBinDirs() {
		if p := filepath.Join(dir, "pg_autoctl"); isExecutable(p) {
			return p, nil
		}
	}
	return "", errors.New("pg_autoctl (pg_auto_failover) not found in PATH nor in /usr/lib/postgresql/*/bin: " +
		"install it (apt-get install postgresql-15-auto-failover)")
}

// NewFormation returns the formation in dir, which need not exist yet. It
// finds pg_autoctl and PostgreSQL's programs and, as root, the postgres user.
func NewFormation(dir string, opts FormationOptions) (*Formation, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("formation folder %s: %w", dir, err)
	}
	opts.Owner = cmp.Or(opts.Owner, "internal/pgcluster")
	opts.Database = cmp.Or(opts.Database, "postgres")
	opts.FirstPort = cmp.Or(opts.FirstPort, DefaultFirstPort)
	opts.LastPort = cmp.Or(opts.LastPort, opts.FirstPort+portSearch)
	if d := opts.Detection; d.NetworkPartitionTimeout > 0 && d.PrimaryDemoteTimeout > 0 && d.NetworkPartitionTimeout >= d.PrimaryDemoteTimeout {
		return nil, fmt.Errorf("network partition timeout %s must stay below the primary demote timeout %s",
			d.NetworkPartitionTimeout, d.PrimaryDemoteTimeout)
	}
	autoctl, err := FindAutoctl()
	if err != nil {
		return nil, err
	}
	bins, err := FindBinaries()
	if err != nil {
		return nil, err
	}
	// pg_autoctl looks for pg_controldata, pg_basebackup and pg_rewind next
	// to pg_ctl: a symbolic link in PATH (/usr/local/bin) would hide them.
	for _, p := range []*string{&bins.PgCtl, &bins.Initdb} {
		if real, err := filepath.EvalSymlinks(*p); err == nil {
			*p = real
		}
	}
	f := &Formation{dir: abs, opts: opts, bins: bins, autoctl: autoctl}
	if os.Geteuid() == 0 {
		if f.runAs, err = lookupAccount(); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// Dir returns the formation's folder.
func (f *Formation) Dir() string { return f.dir }

// DataDir returns a member's data folder.
func (f *Formation) DataDir(member string) string { return filepath.Join(f.dir, member, "data") }

// LogFile returns the file pg_autoctl's output goes to for a member.
func (f *Formation) LogFile(member string) string { return filepath.Join(f.dir, member, "run.log") }

func (f *Formation) portFile(member string) string { return filepath.Join(f.dir, member, "port") }
func (f *Formation) keeperFile(member string) string {
	return filepath.Join(f.dir, member, "keeper.pid")
}

// socketDir is the folder of every member's Unix socket.
func (f *Formation) socketDir() string {
	if len(f.dir) >= maxSocketDir {
		return "/tmp"
	}
	return f.dir
}

// Created reports whether Create has made all three members.
func (f *Formation) Created() bool {
	for _, m := range members {
		if !exists(filepath.Join(f.DataDir(m), "PG_VERSION")) || !exists(f.portFile(m)) {
			return false
		}
	}
	return true
}

// Port returns a member's port, or 0 when it has none yet.
func (f *Formation) Port(member string) int {
	b, err := os.ReadFile(f.portFile(member))
	if err != nil {
		return 0
	}
	p, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return p
}

// URL is the URL the service uses: both nodes, the one that accepts writes
// chosen at each connection (target_session_attrs=read-write).
func (f *Formation) URL(database string) string {
	return fmt.Sprintf("postgres://%s@127.0.0.1:%d,127.0.0.1:%d/%s?sslmode=disable&target_session_attrs=read-write",
		Superuser, f.Port(Node1), f.Port(Node2), url.PathEscape(database))
}

// NodeURL is the URL of database on one member alone.
func (f *Formation) NodeURL(member, database string) string {
	return fmt.Sprintf("postgres://%s@127.0.0.1:%d/%s?sslmode=disable", Superuser, f.Port(member), url.PathEscape(database))
}

func (f *Formation) monitorURI() string {
	return fmt.Sprintf("postgres://autoctl_node@127.0.0.1:%d/pg_auto_failover?sslmode=disable", f.Port(Monitor))
}

// env is what pg_autoctl needs in its environment: its configuration and
// state under the formation's folder, the PostgreSQL programs it runs, and
// the socket folder to reach its own server.
func (f *Formation) env() []string {
	x := filepath.Join(f.dir, "xdg")
	return []string{
		"XDG_CONFIG_HOME=" + filepath.Join(x, "config"),
		"XDG_DATA_HOME=" + filepath.Join(x, "data"),
		"XDG_RUNTIME_DIR=" + filepath.Join(x, "run"),
		"PATH=" + filepath.Dir(f.bins.PgCtl) + ":/usr/bin:/bin",
		"PGHOST=" + f.socketDir(),
	}
}

// runAutoctl runs one pg_autoctl command to its end, its output kept in the
// error when it fails.
func (f *Formation) runAutoctl(ctx context.Context, args ...string) error {
	var out bytes.Buffer
	cmd := command(ctx, f.runAs, f.env(), f.autoctl, args...)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("pg_autoctl %s: %w: %s", args[0]+" "+args[1], err, lastLines(out.String(), 15))
	}
	return nil
}

// Create makes the formation if it was not made yet, starts it and waits
// until it has a primary and a synchronous standby. On a formation made
// before, it is Start.
func (f *Formation) Create(ctx context.Context) error {
	if f.Created() {
		return f.Start(ctx)
	}
	if entries, err := os.ReadDir(f.dir); err == nil && len(entries) > 0 {
		return fmt.Errorf("%s holds a formation that was not fully made: delete the folder and start again", f.dir)
	}
	if err := os.MkdirAll(filepath.Dir(f.dir), 0o755); err != nil {
		return err
	}
	if err := os.Mkdir(f.dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("create the formation folder: %w", err)
	}
	for _, sub := range append(members, "xdg") {
		p := filepath.Join(f.dir, sub)
		if err := os.Mkdir(p, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return err
		}
	}
	for _, p := range []string{f.dir, filepath.Join(f.dir, "xdg"), filepath.Join(f.dir, Monitor), filepath.Join(f.dir, Node1), filepath.Join(f.dir, Node2)} {
		if err := f.own(p); err != nil {
			return err
		}
	}
	if err := f.choosePorts(); err != nil {
		return err
	}
	common := []string{"--hostname", "127.0.0.1", "--auth", "trust", "--no-ssl", "--pgctl", f.bins.PgCtl}

	// The monitor, then the first node on an initdb of ours (so that its
	// settings, socket folder first, hold from its first start), then the
	// second, which pg_autoctl makes with pg_basebackup from the first.
	f.logf("creating the pg_auto_failover monitor on 127.0.0.1:%d", f.Port(Monitor))
	if err := f.initdb(ctx, Monitor); err != nil {
		return err
	}
	if err := f.runAutoctl(ctx, append([]string{"create", "monitor", "--pgdata", f.DataDir(Monitor),
		"--pgport", strconv.Itoa(f.Port(Monitor))}, common...)...); err != nil {
		return err
	}
	// pg_autoctl starts PostgreSQL with -h from this setting, which is *.
	if err := f.runAutoctl(ctx, "config", "set", "--pgdata", f.DataDir(Monitor), "postgresql.listen_addresses", "127.0.0.1"); err != nil {
		return err
	}
	if err := f.startMember(ctx, Monitor); err != nil {
		return err
	}
	if err := f.waitMonitor(ctx); err != nil {
		return err
	}
	for i, node := range Nodes {
		f.logf("creating %s on 127.0.0.1:%d", node, f.Port(node))
		if i == 0 {
			if err := f.initdb(ctx, node); err != nil {
				return err
			}
		}
		args := append([]string{"create", "postgres", "--pgdata", f.DataDir(node),
			"--pgport", strconv.Itoa(f.Port(node)), "--pghost", f.socketDir(), "--listen", "127.0.0.1",
			"--name", node, "--dbname", f.opts.Database, "--monitor", f.monitorURI()}, common...)
		if err := f.runAutoctl(ctx, args...); err != nil {
			return err
		}
		if t := f.opts.Detection.NetworkPartitionTimeout; t > 0 {
			secs := strconv.Itoa(max(1, int(t.Round(time.Second).Seconds())))
			if err := f.runAutoctl(ctx, "config", "set", "--pgdata", f.DataDir(node), "timeout.network_partition_timeout", secs); err != nil {
				return err
			}
		}
		if err := f.startMember(ctx, node); err != nil {
			return err
		}
	}
	return f.WaitHealthy(ctx)
}

// choosePorts gives each member a free port, written to its port file.
func (f *Formation) choosePorts() error {
	taken := map[int]bool{}
	for _, m := range members {
		if p := f.Port(m); p != 0 {
			taken[p] = true
			continue
		}
		port := 0
		for p := f.opts.FirstPort; p <= f.opts.LastPort; p++ {
			if !taken[p] && portFree(p) {
				port = p
				break
			}
		}
		if port == 0 {
			return fmt.Errorf("no free TCP port on 127.0.0.1 between %d and %d", f.opts.FirstPort, f.opts.LastPort)
		}
		taken[port] = true
		if err := writeOwned(f.runAs, f.portFile(m), []byte(strconv.Itoa(port)+"\n"), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// initdb creates a member's data folder and makes its postgresql.conf
// include the formation's settings, which pg_basebackup then copies to the
// second node.
func (f *Formation) initdb(ctx context.Context, member string) error {
	data := f.DataDir(member)
	args := []string{"-D", data, "-U", Superuser, "--auth=trust", "-E", "UTF8", "--locale=C"}
	if f.opts.NoSync {
		args = append(args, "--no-sync")
	}
	var out bytes.Buffer
	cmd := command(ctx, f.runAs, nil, f.bins.Initdb, args...)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("initdb %s: %w: %s", member, err, lastLines(out.String(), 10))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Written by newsdedup's %s when the formation was made.\n", f.opts.Owner)
	fmt.Fprintf(&b, "unix_socket_directories = %s\n", quoteConf(f.socketDir()))
	for _, s := range f.opts.Settings {
		b.WriteString(s + "\n")
	}
	if member == Monitor {
		for _, s := range f.opts.Detection.monitorLines() {
			b.WriteString(s + "\n")
		}
	}
	if err := writeOwned(f.runAs, filepath.Join(data, formationConf), []byte(b.String()), 0o600); err != nil {
		return err
	}
	conf, err := os.OpenFile(filepath.Join(data, "postgresql.conf"), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	// After pg_autoctl's own include (its first line), so that ours win.
	_, err = fmt.Fprintf(conf, "\n# newsdedup's %s writes its settings there.\ninclude '%s'\n", f.opts.Owner, formationConf)
	return errors.Join(err, conf.Close())
}

// Start starts every member whose keeper is not running, monitor first, and
// waits until the formation has a primary and a synchronous standby.
func (f *Formation) Start(ctx context.Context) error {
	if !f.Created() {
		return fmt.Errorf("no formation in %s: Create it first", f.dir)
	}
	for _, m := range members {
		if err := f.StartMember(ctx, m); err != nil {
			return err
		}
		if m == Monitor {
			if err := f.waitMonitor(ctx); err != nil {
				return err
			}
		}
	}
	return f.WaitHealthy(ctx)
}

// Stop stops the formation: the monitor first, so that stopping the primary
// is no failure to act on, then the standby, then the primary. A member
// whose keeper does not stop within a minute is killed.
func (f *Formation) Stop(ctx context.Context) error {
	order := []string{Monitor, Node2, Node1}
	if p, err := f.Primary(ctx); err == nil && p == Node2 {
		order = []string{Monitor, Node1, Node2}
	}
	var errs []error
	for _, m := range order {
		if !f.Running(m) {
			continue
		}
		sctx, cancel := context.WithTimeout(ctx, time.Minute)
		err := f.runAutoctl(sctx, "stop", "--pgdata", f.DataDir(m))
		for err == nil && f.Running(m) && sctx.Err() == nil {
			time.Sleep(50 * time.Millisecond)
		}
		cancel()
		if f.Running(m) {
			errs = append(errs, fmt.Errorf("%s did not stop (%v): killed", m, err))
			_ = f.Kill(ctx, m)
		}
	}
	return errors.Join(errs...)
}

// LogTail returns the last n lines of a member's pg_autoctl output.
func (f *Formation) LogTail(member string, n int) string {
	b, err := os.ReadFile(f.LogFile(member))
	if err != nil {
		return fmt.Sprintf("(cannot read the log: %v)\n", err)
	}
	return lastLines(string(b), n) + "\n"
}

func (f *Formation) own(path string) error {
	if f.runAs == nil {
		return nil
	}
	return os.Chown(path, f.runAs.uid, f.runAs.gid)
}

func (f *Formation) logf(format string, args ...any) {
	if f.opts.Logf != nil {
		f.opts.Logf(format, args...)
	}
}

// writeOwned writes path, given to the postgres user when runAs is set.
func writeOwned(runAs *account, path string, data []byte, perm os.FileMode) error {
	if err := os.WriteFile(path, data, perm); err != nil {
		return err
	}
	if runAs != nil {
		return os.Chown(path, runAs.uid, runAs.gid)
	}
	return nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
