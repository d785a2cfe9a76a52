package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/internal/pgcluster"
	"github.com/newsdedup/newsdedup/repo/dbtest"
)

// TestRestoreDrill is the restore drill of docs/operations.md, with
// pgBackRest: a cluster archives its WAL into a repository; a full backup
// is taken while dedupd serves; articles are ingested after it, a point in
// time is marked, more are ingested; the cluster is then lost (stopped for
// good). A new cluster is restored from the repository alone up to the
// point, and dedupd started on it finds every article acknowledged before
// the point — before and after the backup — and none acknowledged after;
// every link is a real match. The drill's figures are logged.
// Not in parallel, as TestFailover is not.
func TestRestoreDrill(t *testing.T) {
	_, err := exec.LookPath("pgbackrest")
	dbtest.RequireProgram(t, err)
	ctx := context.Background()

	drill := drillFolder(t)
	conf := filepath.Join(drill, "pgbackrest.conf")
	archive := fmt.Sprintf("pgbackrest --config=%s --stanza=%s archive-push %%p", conf, drillStanza)
	source := dbtest.PrivateCluster(t, "archive_mode = on", "archive_command = '"+archive+"'")
	writeDrillConf(t, conf, drill, source)
	backrest := func(args ...string) []byte {
		t.Helper()
		out, err := source.Exec(ctx, "pgbackrest", append([]string{"--config=" + conf, "--stanza=" + drillStanza}, args...)...)
		if err != nil {
			t.Fatalf("pgbackrest %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return out
	}
	backrest("stanza-create")
	backrest("check")

	// dedupd on the source cluster: articles before the backup.
	srv := startDrillServer(t, source.URL(dbtest.PrivateDatabase))
	articles := faultArticles(t)
	post := func(prefix string, from, n int) []string {
		var keys []string
		for i := range n {
			key := fmt.Sprintf("%s-%03d", prefix, i)
			a := articles[from+i]
			code, _, err := tryPostArticle(srv.client, srv.base, "", jsonBody(t, map[string]string{
				"external_id": key, "source": "drill", "title": a.Title, "body": a.Body}))
			if err != nil || code/100 != 2 {
				t.Fatalf("POST %s = %d, %v", key, code, err)
			}
			keys = append(keys, key)
		}
		return keys
	}
	beforeBackup := post("before-backup", 0, 30)

	backupStart := time.Now()
	backrest("backup", "--type=full")
	backupTook := time.Since(backupStart)
	// pgBackRest keeps the backup's stop time in whole seconds and restores
	// to a time only after it: the point must lie in a later second.
	time.Sleep(time.Until(time.Now().Truncate(time.Second).Add(time.Second)))
	var info []struct {
		Backup []struct {
			Info struct {
				Size       int64 `json:"size"`
				Repository struct {
					Size int64 `json:"size"`
				} `json:"repository"`
			} `json:"info"`
		} `json:"backup"`
	}
	if err := json.Unmarshal(backrest("info", "--output=json"), &info); err != nil || len(info) != 1 || len(info[0].Backup) != 1 {
		t.Fatalf("pgbackrest info: %v (%d stanzas)", err, len(info))
	}

	// After the backup: acknowledged before the point, then after it.
	afterBackup := post("after-backup", 30, 30)
	time.Sleep(10 * time.Millisecond) // the point lies strictly between two commits
	point := time.Now()
	time.Sleep(10 * time.Millisecond)
	afterPoint := post("after-point", 60, 30)
	backrest("check") // switches to a new WAL file and waits for it to be archived
	srv.stop(t)

	// The source is lost.
	if err := source.Stop(ctx, "immediate"); err != nil {
		t.Fatal(err)
	}

	// A new cluster from the repository alone, up to the point.
	restored, err := pgcluster.New(filepath.Join(drill, "restored"), pgcluster.Options{
		Owner: "cmd/dedupd restore drill", ConfFile: "dbtest.conf", // the include the backup's postgresql.conf holds
		// Not below the source's: recovery refuses a smaller max_connections.
		Settings:  []string{"max_connections = 100", "shared_buffers = '64MB'"},
		FirstPort: source.Port() + 1, LastPort: source.Port() + 200,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("the end of the restored cluster's log:\n%s", restored.LogTail(30))
		}
		_ = restored.Stop(context.Background(), "immediate")
	})
	restoreStart := time.Now()
	if err := os.MkdirAll(restored.DataDir(), 0o700); err != nil {
		t.Fatal(err)
	}
	chownToPostgres(t, restored.Dir(), restored.DataDir())
	backrest("restore", "--pg1-path="+restored.DataDir(), "--type=time",
		"--target="+point.UTC().Format("2006-01-02 15:04:05.000000+00"), "--target-action=promote")
	restoreTook := time.Since(restoreStart)
	recoveryStart := time.Now()
	if err := restored.Init(ctx); err != nil { // the port and the include; initdb is skipped
		t.Fatal(err)
	}
	if err := restored.Start(ctx); err != nil {
		t.Fatal(err)
	}
	restoredURL := restored.URL(dbtest.PrivateDatabase)
	waitPromoted(t, restoredURL)
	recoveryTook := time.Since(recoveryStart)

	// dedupd on the restored cluster finds what was acknowledged before the
	// point, and nothing after.
	srv = startDrillServer(t, restoredURL)
	defer srv.stop(t)
	found := func(keys []string, want int) {
		t.Helper()
		for _, k := range keys {
			code, raw, err := getStatus(srv.client, srv.base+"/v1/articles?source=drill&external_id="+k)
			if err != nil || code != want {
				t.Errorf("GET %s on the restored cluster = %d %.100s (%v), want %d", k, code, raw, err, want)
			}
		}
	}
	found(beforeBackup, http.StatusOK)
	found(afterBackup, http.StatusOK)
	found(afterPoint, http.StatusNotFound)
	conn, err := pgx.Connect(ctx, restoredURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	dbtest.CheckLinks(t, conn)
	b := info[0].Backup[0].Info
	t.Logf("drill: full backup of %.1f MB (%.1f MB in the repository) in %s; restore to the point in %s, recovery and promotion in %s; %d articles before the backup and %d after it found, %d after the point absent",
		float64(b.Size)/1e6, float64(b.Repository.Size)/1e6, backupTook.Round(time.Millisecond), restoreTook.Round(time.Millisecond),
		recoveryTook.Round(time.Millisecond), len(beforeBackup), len(afterBackup), len(afterPoint))
}

const drillStanza = "drill"

// drillFolder makes the folder of the drill's repository and logs, given to
// the postgres user, removed when the test ends.
func drillFolder(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "newsdedup-drill-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	chownToPostgres(t, dir)
	return dir
}

// chownToPostgres gives paths to the postgres user when the test runs as
// root, as PostgreSQL's programs then run as that user.
func chownToPostgres(t *testing.T, paths ...string) {
	t.Helper()
	if os.Geteuid() != 0 {
		return
	}
	u, err := user.Lookup(pgcluster.SystemUser)
	if err != nil {
		t.Fatal(err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	for _, p := range paths {
		if err := os.Chown(p, uid, gid); err != nil {
			t.Fatal(err)
		}
	}
}

// writeDrillConf writes pgBackRest's configuration: a repository on this
// machine for the drill (docs/operations.md says where a deployment's goes).
func writeDrillConf(t *testing.T, path, drill string, c *pgcluster.Cluster) {
	t.Helper()
	conf := fmt.Sprintf(`[global]
repo1-path=%[1]s/repo
repo1-retention-full=2
log-path=%[1]s/log
lock-path=%[1]s/lock
spool-path=%[1]s/spool
log-level-console=off
log-level-stderr=warn
log-level-file=off
start-fast=y
compress-type=zst

[%[2]s]
pg1-path=%[3]s
pg1-port=%[4]d
pg1-socket-path=%[5]s
`, drill, drillStanza, c.DataDir(), c.Port(), c.Dir())
	if err := os.WriteFile(path, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
}

// waitPromoted waits until the restored cluster has left recovery.
func waitPromoted(t *testing.T, url string) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		conn, err := pgx.Connect(context.Background(), url)
		if err == nil {
			var inRecovery bool
			err = conn.QueryRow(context.Background(), "SELECT pg_is_in_recovery()").Scan(&inRecovery)
			conn.Close(context.Background())
			if err == nil && !inRecovery {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the restored cluster did not leave recovery within 2 minutes (%v)", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// drillServer is dedupd serving in-process for the drill.
type drillServer struct {
	base   string
	client *http.Client
	cancel context.CancelFunc
	done   chan error
}

func startDrillServer(t *testing.T, dbURL string) *drillServer {
	t.Helper()
	a, _, _ := testApp(t, nil)
	logs := newLogWatcher()
	a.stderr = logs
	a.getenv = envFrom(map[string]string{
		"DATABASE_URL": dbURL, "DEDUP_ADDR": "127.0.0.1:0", "DEDUP_LOG_FORMAT": "json", "DEDUP_DB_MAX_CONNS": "4",
	})
	ctx, cancel := context.WithCancel(context.Background())
	s := &drillServer{client: &http.Client{Timeout: 30 * time.Second}, cancel: cancel, done: make(chan error, 1)}
	go func() { s.done <- a.run(ctx, []string{"serve"}) }()
	s.base = "http://" + logs.waitAddr(t, s.done)
	return s
}

func (s *drillServer) stop(t *testing.T) {
	t.Helper()
	if s.cancel == nil {
		return
	}
	s.cancel()
	s.cancel = nil
	if err := <-s.done; err != nil {
		t.Errorf("run(serve) = %v", err)
	}
}

func jsonBody(t *testing.T, v any) io.Reader {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.NewReader(b)
}
