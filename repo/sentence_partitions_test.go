package repo_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/internal/corpus"
	"github.com/newsdedup/newsdedup/internal/pgcluster"
	"github.com/newsdedup/newsdedup/repo"
	"github.com/newsdedup/newsdedup/repo/dbtest"
	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// partitionConnstr is the libpq connection string PL/Proxy reaches the
// database at url by.
func partitionConnstr(tb testing.TB, url string) string {
	tb.Helper()
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		tb.Fatal(err)
	}
	s := fmt.Sprintf("host=%s port=%d dbname=%s user=%s connect_timeout=2", cfg.Host, cfg.Port, cfg.Database, cfg.User)
	if cfg.Password != "" {
		s += " password=" + cfg.Password
	}
	return s
}

// partitionDatabases creates n partition databases on DATABASE_URL's
// server, named after the primary at primaryURL, prepared and dropped when
// the test ends, and returns their URLs.
func partitionDatabases(tb testing.TB, primaryURL string, n int) []string {
	tb.Helper()
	ctx := context.Background()
	cfg, err := pgx.ParseConfig(primaryURL)
	if err != nil {
		tb.Fatal(err)
	}
	server := dbtest.ServerURL(tb)
	var urls []string
	for i := range n {
		name := cfg.Database + "_p" + strconv.Itoa(i)
		_ = dbtest.DropDatabase(ctx, server, name)
		u, err := dbtest.CreateDatabase(ctx, server, name, dbtest.DatabaseOptions{})
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { _ = dbtest.DropDatabase(context.Background(), server, name) })
		if err := repo.PreparePartition(ctx, u); err != nil {
			tb.Fatal(err)
		}
		urls = append(urls, u)
	}
	return urls
}

// partitionedStore is a store over a fresh database whose sentence index
// lives in n partition databases (0: the table sentences alone), and the
// partitions' URLs.
func partitionedStore(tb testing.TB, n int) (*repo.Store, []string) {
	tb.Helper()
	url := dbtest.URL(tb)
	st := openStore(tb, url, 4)
	urls := partitionDatabases(tb, url, n)
	var connstrs []string
	for _, u := range urls {
		connstrs = append(connstrs, partitionConnstr(tb, u))
	}
	if err := st.SetSentencePartitions(context.Background(), connstrs); err != nil {
		tb.Fatal(err)
	}
	return st, urls
}

// partitionRows counts the sentence rows of the partition at url.
func partitionRows(tb testing.TB, url string) int {
	tb.Helper()
	ctx := context.Background()
	c, err := pgx.Connect(ctx, url)
	if err != nil {
		tb.Fatal(err)
	}
	defer c.Close(ctx)
	var n int
	if err := c.QueryRow(ctx, `SELECT count(*) FROM sentence_part.sentences`).Scan(&n); err != nil {
		tb.Fatal(err)
	}
	return n
}

// TestSentencePartitionsMatchOneTable ingests the same articles (originals
// of real text and edited copies) through the service into a database whose
// sentence index is the table alone and into ones of 1, 2 and 4 partitions,
// and checks that every verdict and every sentence search, at each
// distance, are the same, and that the rows are spread over the partitions.
func TestSentencePartitionsMatchOneTable(t *testing.T) {
	ctx := context.Background()
	nv := novel(t)
	rng := rand.New(rand.NewPCG(20261129, 49))
	var articles []corpus.Article
	for _, a := range nv.Overlapping(rng, 40, 400, 2000) {
		articles = append(articles, a)
		for range 2 {
			articles = append(articles, nv.Apply(rng, a, corpus.AllEdits[rng.IntN(len(corpus.AllEdits))]))
		}
	}
	rng.Shuffle(len(articles), func(i, j int) { articles[i], articles[j] = articles[j], articles[i] })

	type outcome struct {
		verdicts []string
		matches  []string // of every article's sentences, at each distance
	}
	run := func(n int) outcome {
		st, urls := partitionedStore(t, n)
		svc := newService(t, st)
		var o outcome
		for i, a := range articles {
			v, err := svc.Ingest(ctx, input("a-"+strconv.Itoa(i), a), svc.Defaults())
			if err != nil {
				t.Fatalf("%d partitions: ingest %d: %v", n, i, err)
			}
			dup := int64(0)
			if v.DuplicateOf != nil {
				dup = v.DuplicateOf.ID
			}
			o.verdicts = append(o.verdicts, fmt.Sprintf("%d %s dup=%d cluster=%d matches=%d", v.ID, v.Status, dup, v.ClusterID, len(v.Matches)))
		}
		for i, a := range articles {
			stored, err := st.ArticleByKey(ctx, "test", "a-"+strconv.Itoa(i))
			if err != nil {
				t.Fatal(err)
			}
			fp := mustFingerprint(t, a)
			for k := 0; k <= 3; k++ {
				ms, err := st.SentenceMatches(ctx, service.SentenceQuery{Sentences: fp.Sentences, MaxDistance: k, ExcludeID: stored.ID})
				if err != nil {
					t.Fatalf("%d partitions: %v", n, err)
				}
				for _, m := range ms {
					o.matches = append(o.matches, fmt.Sprintf("%d k=%d q=%d %d/%d %q", stored.ID, k, m.Query, m.ArticleID, m.Position, m.Text))
				}
			}
		}
		slices.Sort(o.matches)
		total := 0
		for p, u := range urls {
			rows := partitionRows(t, u)
			if rows == 0 {
				t.Errorf("%d partitions: partition %d holds no sentence", n, p)
			}
			total += rows
		}
		var table int
		if err := st.Pool().QueryRow(ctx, `SELECT count(*) FROM sentences`).Scan(&table); err != nil {
			t.Fatal(err)
		}
		if n > 0 && total != table {
			t.Errorf("%d partitions hold %d sentences, the table %d", n, total, table)
		}
		return o
	}
	want := run(0)
	if len(want.matches) == 0 {
		t.Fatal("the table alone found no sentence match: the fixture tests nothing")
	}
	t.Logf("%d articles, %d sentence matches", len(articles), len(want.matches))
	for _, n := range []int{1, 2, 4} {
		got := run(n)
		if !slices.Equal(got.verdicts, want.verdicts) {
			for i := range want.verdicts {
				if got.verdicts[i] != want.verdicts[i] {
					t.Errorf("%d partitions: verdict %d %q, the table alone %q", n, i, got.verdicts[i], want.verdicts[i])
					break
				}
			}
		}
		if !slices.Equal(got.matches, want.matches) {
			t.Errorf("%d partitions: %d sentence matches, the table alone %d", n, len(got.matches), len(want.matches))
		}
	}
}

// TestSentencePartitionsLimitAfterMerge checks that the per-sentence limit
// holds after the merge of several partitions.
func TestSentencePartitionsLimitAfterMerge(t *testing.T) {
	ctx := context.Background()
	st, _ := partitionedStore(t, 4)
	svc := newService(t, st)
	a := novel(t).Overlapping(rand.New(rand.NewPCG(1, 2)), 1, 400, 800)[0]
	for i := range 12 {
		if _, err := svc.Ingest(ctx, input("same-"+strconv.Itoa(i), a), svc.Defaults()); err != nil {
			t.Fatal(err)
		}
	}
	fp := mustFingerprint(t, a)
	ms, err := st.SentenceMatches(ctx, service.SentenceQuery{Sentences: fp.Sentences, MaxDistance: 3, PerSentence: 5})
	if err != nil {
		t.Fatal(err)
	}
	per := make(map[int]int)
	for _, m := range ms {
		per[m.Query]++
	}
	for i := range fp.Sentences {
		if per[i] != 5 {
			t.Errorf("query sentence %d: %d matches, want the limit 5 of 12", i, per[i])
		}
	}
}

// TestSentencePartitionsRolledBackIngest writes an article's sentences in
// a transaction that then rolls back: its partition keeps the rows (its
// write committed on its own), no search returns them, and the sweep
// deletes them.
func TestSentencePartitionsRolledBackIngest(t *testing.T) {
	ctx := context.Background()
	st, urls := partitionedStore(t, 2)
	arts := novel(t).Overlapping(rand.New(rand.NewPCG(3, 4)), 2, 400, 800)
	a := arts[0]
	fp := mustFingerprint(t, a)
	// A stored article, whose rows the sweep keeps.
	kept := mustFingerprint(t, arts[1])
	if _, err := newService(t, st).Ingest(ctx, input("kept", arts[1]), service.DefaultOptions); err != nil {
		t.Fatal(err)
	}
	insertRolledBack(t, st, a, fp)
	left := 0
	for _, u := range urls {
		left += partitionRows(t, u)
	}
	if left != len(fp.Sentences)+len(kept.Sentences) {
		t.Fatalf("the partitions hold %d rows, want the rolled-back ingest's %d and the stored article's %d",
			left, len(fp.Sentences), len(kept.Sentences))
	}
	// What the partitions answer is what the primary's table, which never
	// held the rolled-back rows, answers.
	q := service.SentenceQuery{Sentences: fp.Sentences, MaxDistance: 3}
	ms, err := st.SentenceMatches(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	want, err := st.SentenceMatchesTableAlone(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	hs, err := st.SentenceHolders(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	wantHs, err := st.SentenceHoldersTableAlone(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(matchKeys(ms), matchKeys(want)) || !slices.Equal(hs, wantHs) {
		t.Errorf("the rolled-back article's sentences were returned: %d matches (the table %d), holders %v (the table %v)",
			len(ms), len(want), hs, wantHs)
	}
	// Not yet settled: the sweep leaves them, as it would an open ingest's.
	if n, err := st.SweepPartitionSentences(ctx, 3600e9); err != nil || n != 0 {
		t.Errorf("sweep of unsettled rows: %d, %v; want 0, nil", n, err)
	}
	n, err := st.SweepPartitionSentences(ctx, 0)
	if err != nil || n != len(fp.Sentences) {
		t.Errorf("sweep: %d, %v; want %d, nil", n, err, len(fp.Sentences))
	}
	left = 0
	for _, u := range urls {
		left += partitionRows(t, u)
	}
	if left != len(kept.Sentences) {
		t.Errorf("the partitions keep %d rows after the sweep, want the stored article's %d", left, len(kept.Sentences))
	}
}

// TestSentencePartitionKilled kills the postmaster of one of two
// partitions (kill -9): a check and an ingest answer KindUnavailable and
// nothing is stored; started again, both work.
func TestSentencePartitionKilled(t *testing.T) {
	ctx := context.Background()
	url := dbtest.URL(t)
	st := openStore(t, url, 4)
	local, c := localAndRemotePartitions(t, url, st)
	svc := newService(t, st)
	nv := novel(t)
	arts := nv.Overlapping(rand.New(rand.NewPCG(5, 6)), 8, 400, 800)
	for i, a := range arts[:4] {
		if _, err := svc.Ingest(ctx, input("before-"+strconv.Itoa(i), a), svc.Defaults()); err != nil {
			t.Fatal(err)
		}
	}
	pidFile, err := os.ReadFile(filepath.Join(c.DataDir(), "postmaster.pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.SplitN(string(pidFile), "\n", 2)[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	for i, a := range arts[4:] {
		key := "during-" + strconv.Itoa(i)
		_, err := svc.Ingest(ctx, input(key, a), svc.Defaults())
		if !isKind(err, service.KindUnavailable) {
			t.Errorf("ingest with a partition down: %v, want KindUnavailable", err)
		}
		if _, err := st.ArticleByKey(ctx, "test", key); !isKind(err, service.KindNotFound) {
			t.Errorf("ingest %s with a partition down stored the article (%v)", key, err)
		}
		_, err = svc.Check(ctx, input("check", a), svc.Defaults())
		if !isKind(err, service.KindUnavailable) {
			t.Errorf("check with a partition down: %v, want KindUnavailable", err)
		}
	}
	// Here the killed postmaster may stay a zombie that nothing reaps,
	// which pg_ctl takes for a running server: once it is dead, its pid
	// and socket lock files go, as after a reboot.
	deadline := time.Now().Add(30 * time.Second)
	for !deadOrZombie(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("postmaster %d still runs 30 s after kill -9", pid)
		}
		time.Sleep(50 * time.Millisecond)
	}
	locks, _ := filepath.Glob(filepath.Join(c.Dir(), ".s.PGSQL.*.lock"))
	for _, f := range append(locks, filepath.Join(c.DataDir(), "postmaster.pid")) {
		if err := os.Remove(f); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	// The killed postmaster's children may hold its port a while, and the
	// cluster then starts on another: point the partition there.
	remote := c.URL(dbtest.PrivateDatabase)
	if err := st.SetSentencePartitions(ctx, []string{partitionConnstr(t, local), partitionConnstr(t, remote)}); err != nil {
		t.Fatal(err)
	}
	for i, a := range arts[4:] {
		if _, err := svc.Ingest(ctx, input("after-"+strconv.Itoa(i), a), svc.Defaults()); err != nil {
			t.Errorf("ingest after the partition came back: %v", err)
		}
	}
}

func isKind(err error, k service.Kind) bool {
	var se *service.Error
	return errors.As(err, &se) && se.Kind == k
}

// deadOrZombie reports whether process pid has exited.
func deadOrZombie(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	// After "pid (comm) ", the state.
	rest := string(stat[strings.LastIndexByte(string(stat), ')')+1:])
	return strings.HasPrefix(strings.TrimSpace(rest), "Z")
}

// TestSentencePartitionsReadLive changes the partitions through one store
// while another serves: the other follows within a second, writing to the
// partitions once they are set and reading the table alone once they are
// gone, without a restart.
func TestSentencePartitionsReadLive(t *testing.T) {
	ctx := context.Background()
	url := dbtest.URL(t)
	serving := openStore(t, url, 4)
	admin := openStore(t, url, 1)
	svc := newService(t, serving)
	arts := novel(t).Overlapping(rand.New(rand.NewPCG(49, 8)), 3, 400, 800)
	if _, err := svc.Ingest(ctx, input("before", arts[0]), svc.Defaults()); err != nil {
		t.Fatal(err)
	}
	urls := partitionDatabases(t, url, 2)
	if err := admin.SetSentencePartitions(ctx, []string{partitionConnstr(t, urls[0]), partitionConnstr(t, urls[1])}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1100 * time.Millisecond)
	if _, err := svc.Ingest(ctx, input("set", arts[1]), svc.Defaults()); err != nil {
		t.Fatal(err)
	}
	if rows, want := partitionRows(t, urls[0])+partitionRows(t, urls[1]), len(mustFingerprint(t, arts[1]).Sentences); rows != want {
		t.Errorf("after the partitions were set elsewhere the partitions hold %d rows, want the new article's %d", rows, want)
	}
	if err := admin.SetSentencePartitions(ctx, nil); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1100 * time.Millisecond)
	fp := mustFingerprint(t, arts[0])
	ms, err := serving.SentenceMatches(ctx, service.SentenceQuery{Sentences: fp.Sentences, MaxDistance: 3})
	if err != nil {
		t.Fatalf("after the partitions were removed elsewhere: %v", err)
	}
	if len(ms) < len(fp.Sentences) {
		t.Errorf("after the partitions were removed: %d matches of the stored article's %d sentences", len(ms), len(fp.Sentences))
	}
}

// localAndRemotePartitions gives st two sentence partitions: partition 0 a
// database of url's server (returned), partition 1 a server of its own
// (returned, for a test to stop or kill).
func localAndRemotePartitions(t *testing.T, url string, st *repo.Store) (string, *pgcluster.Cluster) {
	t.Helper()
	local := partitionDatabases(t, url, 1)[0]
	c := dbtest.PrivateCluster(t)
	remote := c.URL(dbtest.PrivateDatabase)
	if err := repo.PreparePartition(context.Background(), remote); err != nil {
		t.Fatal(err)
	}
	if err := st.SetSentencePartitions(context.Background(), []string{partitionConnstr(t, local), partitionConnstr(t, remote)}); err != nil {
		t.Fatal(err)
	}
	return local, c
}

// partitionArticleIDs are the article ids of every sentence row of the
// partition database at url, once a row.
func partitionArticleIDs(t *testing.T, url string) []int64 {
	t.Helper()
	ctx := context.Background()
	c, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	rows, err := c.Query(ctx, `SELECT article_id FROM sentence_part.sentences`)
	if err != nil {
		t.Fatal(err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

// insertRolledBack inserts article a (fingerprint fp) with its sentences in
// a transaction that then rolls back: its partition rows, written on their
// own, stay behind.
func insertRolledBack(t *testing.T, st *repo.Store, a corpus.Article, fp fingerprint.Fingerprint) {
	t.Helper()
	ctx := context.Background()
	rollBack := errors.New("roll back")
	err := st.InTx(ctx, func(tx service.Tx) error {
		art := service.Article{ExternalID: "gone", Source: "test", Title: a.Title, Status: service.StatusUnique,
			Simhash: fp.Simhash, FingerprintVersion: fp.Version, Words: fp.Words, ContentHash: fp.ContentHash,
			Shingles: fp.Shingles, Sentences: fp.Sentences, PlainBody: a.Body}
		if err := tx.Insert(ctx, &art, a.Body); err != nil {
			return err
		}
		return rollBack
	})
	if !errors.Is(err, rollBack) {
		t.Fatalf("InTx: %v", err)
	}
}
