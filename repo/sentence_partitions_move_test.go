package repo_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/internal/corpus"
	"github.com/newsdedup/newsdedup/repo"
	"github.com/newsdedup/newsdedup/repo/dbtest"
	"github.com/newsdedup/newsdedup/service"
)

// TestSentencePartitionsMoveAndSplit serves from two sentence partitions
// on one server while articles are ingested without pause, moves
// partition 1 to a second server, then splits the two into four (the new
// ones across both servers); then every acknowledged article is stored,
// every partition holds exactly the rows its hash routes to it, all of
// them, and every stored article's sentence matches at each distance are
// those of the primary's table alone.
func TestSentencePartitionsMoveAndSplit(t *testing.T) {
	ctx := context.Background()
	url := dbtest.URL(t)
	st := openStore(t, url, 8)
	a := dbtest.PrivateCluster(t, "wal_level = logical")
	b := dbtest.PrivateCluster(t, "wal_level = logical")
	if err := st.SetSentencePartitions(ctx, []string{preparedPartition(t, a, "p0"), preparedPartition(t, a, "p1")}); err != nil {
		t.Fatal(err)
	}
	svc := newService(t, st)
	nv := novel(t)
	rng := rand.New(rand.NewPCG(49, 9))
	var articles []corpus.Article
	for _, o := range nv.Overlapping(rng, 60, 300, 1200) {
		articles = append(articles, o, nv.Apply(rng, o, corpus.AllEdits[rng.IntN(len(corpus.AllEdits))]))
	}
	for i, art := range articles[:40] {
		if _, err := svc.Ingest(ctx, input("before-"+strconv.Itoa(i), art), svc.Defaults()); err != nil {
			t.Fatal(err)
		}
	}

	// Ingests go on through the move and the split.
	var (
		mu     sync.Mutex
		acked  []string
		failed int
	)
	loadCtx, stopLoad := context.WithCancel(ctx)
	var load sync.WaitGroup
	for c := range 2 {
		load.Add(1)
		go func() {
			defer load.Done()
			for i := c; loadCtx.Err() == nil; i += 2 {
				art := articles[40+i%(len(articles)-40)]
				key := "during-" + strconv.Itoa(i)
				_, err := svc.Ingest(loadCtx, input(key, art), svc.Defaults())
				mu.Lock()
				if err == nil {
					acked = append(acked, key)
				} else if loadCtx.Err() == nil {
					failed++
				}
				mu.Unlock()
			}
		}()
	}
	ackedNow := func() int { mu.Lock(); defer mu.Unlock(); return len(acked) }
	time.Sleep(500 * time.Millisecond)
	before := ackedNow()
	moved, err := st.MovePartition(ctx, 1, preparedPartition(t, b, "m1"))
	if err != nil {
		t.Fatalf("move: %v", err)
	}
	split, err := st.SplitPartitions(ctx, []string{preparedPartition(t, b, "s2"), preparedPartition(t, a, "s3")})
	if err != nil {
		t.Fatalf("split: %v", err)
	}
	time.Sleep(500 * time.Millisecond)
	stopLoad()
	load.Wait()
	t.Logf("move: %d rows, copy %s, pause %s; split: %d rows, copy %s, pause %s; %d ingests acknowledged during, %d failed",
		moved.Rows, moved.Copy, moved.Pause, split.Rows, split.Copy, split.Pause, len(acked)-before, failed)
	if len(acked) == before {
		t.Error("no ingest was acknowledged during the move and the split")
	}
	for _, key := range acked {
		if _, err := st.ArticleByKey(ctx, "test", key); err != nil {
			t.Errorf("acknowledged %s: %v", key, err)
		}
	}

	// Every partition holds exactly the rows routed to it.
	var connstrs []string
	rows, err := st.Pool().Query(ctx, `SELECT connstr FROM sentence_partitions ORDER BY part`)
	if err != nil {
		t.Fatal(err)
	}
	if connstrs, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil || len(connstrs) != 4 {
		t.Fatalf("after the split: %d partitions, %v", len(connstrs), err)
	}
	var table int
	if err := st.Pool().QueryRow(ctx, `SELECT count(*) FROM sentences s JOIN articles x ON x.id = s.article_id`).Scan(&table); err != nil {
		t.Fatal(err)
	}
	total := 0
	perArticle := map[int64]int{} // rows on the partitions, by article
	for p, c := range connstrs {
		n, stray := partitionRowsAndStrays(t, c, p)
		for _, id := range partitionArticleIDs(t, c) {
			perArticle[id]++
		}
		if stray != 0 || n == 0 {
			t.Errorf("partition %d: %d rows, %d of them another partition's", p, n, stray)
		}
		total += n
	}
	// Rows of ingests rolled back (a retry after a conflict) may be left
	// for the sweep: count those of stored articles.
	if n, err := st.SweepPartitionSentences(ctx, 0); err != nil {
		t.Fatal(err)
	} else {
		total -= n
	}
	if total != table {
		t.Errorf("the partitions hold %d rows of stored articles, the primary's table %d", total, table)
		rows, err := st.Pool().Query(ctx, `SELECT a.id, a.external_id, count(s.position) FROM articles a
			LEFT JOIN sentences s ON s.article_id = a.id GROUP BY a.id ORDER BY a.id`)
		if err != nil {
			t.Fatal(err)
		}
		shown := 0
		for rows.Next() {
			var (
				id  int64
				key string
				n   int
			)
			if err := rows.Scan(&id, &key, &n); err != nil {
				t.Fatal(err)
			}
			if perArticle[id] != n && shown < 8 {
				t.Errorf("article %d (%s): %d rows on the partitions, %d in the table", id, key, perArticle[id], n)
				shown++
			}
		}
		rows.Close()
	}

	// Identical match sets.
	ids, err := st.Pool().Query(ctx, `SELECT id FROM articles ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	stored, err := pgx.CollectRows(ids, pgx.RowTo[int64])
	if err != nil {
		t.Fatal(err)
	}
	compared := 0
	for _, id := range stored {
		sentences, _, err := st.ArticleText(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		for k := 0; k <= 3; k++ {
			q := service.SentenceQuery{Sentences: sentences, MaxDistance: k, ExcludeID: id}
			got, err := st.SentenceMatches(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			want, err := st.SentenceMatchesTableAlone(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			if g, w := matchKeys(got), matchKeys(want); !slices.Equal(g, w) {
				t.Errorf("article %d k=%d: %d matches through the partitions, %d in the table", id, k, len(g), len(w))
			}
			compared += len(want)
		}
	}
	if compared == 0 {
		t.Fatal("no sentence match to compare: the fixture tests nothing")
	}
	t.Logf("%d articles, %d sentence matches compared", len(stored), compared)
}

func matchKeys(ms []service.SentenceMatch) []string {
	var out []string
	for _, m := range ms {
		out = append(out, fmt.Sprintf("%d %d/%d %x", m.Query, m.ArticleID, m.Position, m.TextHash))
	}
	slices.Sort(out)
	return out
}

// TestSentencePartitionsSplitDeletesAfterThePause splits two partitions
// (on two servers) into four and holds the split once it has registered
// the four, before it deletes the rows that moved: meanwhile an ingest is
// acknowledged (the writes are no longer paused) and a lookup of an
// article whose rows moved answers what the primary's table does (its rows
// on two partitions at once, counted once); once the split ends the old
// partitions keep none of the rows they gave.
func TestSentencePartitionsSplitDeletesAfterThePause(t *testing.T) {
	ctx := context.Background()
	st := openStore(t, dbtest.URL(t), 8)
	a := dbtest.PrivateCluster(t, "wal_level = logical")
	b := dbtest.PrivateCluster(t, "wal_level = logical")
	olds := []string{preparedPartition(t, a, "p0"), preparedPartition(t, b, "p1")}
	if err := st.SetSentencePartitions(ctx, olds); err != nil {
		t.Fatal(err)
	}
	svc := newService(t, st)
	nv := novel(t)
	rng := rand.New(rand.NewPCG(49, 52))
	arts := nv.Overlapping(rng, 24, 300, 900)
	for i, art := range arts[:20] {
		if _, err := svc.Ingest(ctx, input("before-"+strconv.Itoa(i), art), svc.Defaults()); err != nil {
			t.Fatal(err)
		}
	}
	var (
		movedID  int64 // an article whose rows partition 0 gives partition 2
		movedKey string
	)
	err := st.Pool().QueryRow(ctx, `SELECT id, external_id FROM articles WHERE hashint8(id) & 3 = 2 ORDER BY id LIMIT 1`).
		Scan(&movedID, &movedKey)
	if err != nil {
		t.Fatalf("no article moves to partition 2: %v", err)
	}
	k, err := strconv.Atoi(strings.TrimPrefix(movedKey, "before-"))
	if err != nil {
		t.Fatal(err)
	}
	moved := arts[k]

	registered, resume := make(chan struct{}), make(chan struct{})
	defer repo.HoldBeforeTidy(func() { close(registered); <-resume })()
	type result struct {
		m   repo.PartitionMove
		err error
	}
	done := make(chan result, 1)
	targets := []string{preparedPartition(t, b, "s2"), preparedPartition(t, a, "s3")}
	go func() {
		m, err := st.SplitPartitions(ctx, targets)
		done <- result{m, err}
	}()
	select {
	case <-registered:
	case r := <-done:
		t.Fatalf("split: %v", r.err)
	}

	ingestCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	_, err = svc.Ingest(ingestCtx, input("during", arts[20]), svc.Defaults())
	cancel()
	if err != nil {
		t.Errorf("ingest before the moved rows are deleted: %v; want it acknowledged, the writes resumed", err)
	}
	if partitionRows(t, targets[0]) == 0 {
		t.Error("partition 2 holds no row")
	}
	// A correction of an article whose rows moved waits for the delete: its
	// old rows, left on partition 0 a moment, would be returned beside the
	// new ones on partition 2.
	corrected := make(chan error, 1)
	go func() {
		_, err := svc.Ingest(ctx, input(movedKey, nv.Apply(rng, moved, corpus.AllEdits[0])), svc.Defaults())
		corrected <- err
	}()
	select {
	case err := <-corrected:
		t.Errorf("a correction of moved article %d ended (%v) before its old rows were deleted", movedID, err)
		corrected <- err
	case <-time.After(time.Second):
	}
	sentences, _, err := st.ArticleText(ctx, movedID)
	if err != nil {
		t.Fatal(err)
	}
	q := service.SentenceQuery{Sentences: sentences, MaxDistance: 3}
	got, err := st.SentenceMatches(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	want, err := st.SentenceMatchesTableAlone(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if g, w := matchKeys(got), matchKeys(want); !slices.Equal(g, w) || len(w) == 0 {
		t.Errorf("lookup of moved article %d before the delete: %d matches, the table %d", movedID, len(g), len(w))
	}

	close(resume)
	r := <-done
	if r.err != nil {
		t.Fatalf("split: %v", r.err)
	}
	if err := <-corrected; err != nil {
		t.Fatalf("correction: %v", err)
	}
	if sentences, _, err = st.ArticleText(ctx, movedID); err != nil {
		t.Fatal(err)
	}
	q = service.SentenceQuery{Sentences: sentences, MaxDistance: 3}
	if got, err = st.SentenceMatches(ctx, q); err != nil {
		t.Fatal(err)
	}
	if want, err = st.SentenceMatchesTableAlone(ctx, q); err != nil {
		t.Fatal(err)
	}
	if g, w := matchKeys(got), matchKeys(want); !slices.Equal(g, w) || len(w) == 0 {
		t.Errorf("lookup of corrected article %d after the split: %d matches, the table %d", movedID, len(g), len(w))
	}
	t.Logf("split: %d rows, copy %s, pause %s, delete %s", r.m.Rows, r.m.Copy, r.m.Pause, r.m.Tidy)
	for p, c := range olds {
		n, stray := partitionRowsAndStrays(t, c, p)
		if stray != 0 || n == 0 {
			t.Errorf("partition %d: %d rows, %d of them another partition's", p, n, stray)
		}
	}
}

// preparedPartition makes database name on cluster c a sentence partition
// and returns its connection string as sentence_partitions holds it.
func preparedPartition(t *testing.T, c interface{ URL(string) string }, name string) string {
	t.Helper()
	ctx := context.Background()
	u, err := dbtest.CreateDatabase(ctx, c.URL("postgres"), name, dbtest.DatabaseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := repo.PreparePartition(ctx, u); err != nil {
		t.Fatal(err)
	}
	return partitionConnstr(t, u)
}

// partitionRowsAndStrays counts the rows on partition p of four (connection string
// c), and how many of them hash to another of the four.
func partitionRowsAndStrays(t *testing.T, c string, p int) (n, stray int) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	err = conn.QueryRow(ctx, `SELECT count(*), count(*) FILTER (WHERE hashint8(article_id) & 3 <> $1)
		FROM sentence_part.sentences`, p).Scan(&n, &stray)
	if err != nil {
		t.Fatal(err)
	}
	return n, stray
}
