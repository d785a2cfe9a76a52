package repo_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/internal/pgcluster"
	"github.com/newsdedup/newsdedup/repo"
	"github.com/newsdedup/newsdedup/repo/dbtest"
	"github.com/newsdedup/newsdedup/service"
)

// TestSentencePartitionFailover makes partition 1 of two a pg_auto_failover
// pair (docs/operations.md, "A pg_auto_failover pair per partition"),
// registered by a connection string naming both nodes, and kills its
// primary's machine: ingests answer KindUnavailable, storing nothing, until
// the standby is promoted, then are acknowledged again with no change to
// the configuration; every stored article's rows are on the partitions,
// those acknowledged before the kill included.
func TestSentencePartitionFailover(t *testing.T) {
	ctx := context.Background()
	f := dbtest.PrivateFormation(t, pgcluster.FastDetection)
	url := dbtest.URL(t)
	st := openStore(t, url, 8)
	local := partitionDatabases(t, url, 1)[0]
	if err := repo.PreparePartition(ctx, f.URL(dbtest.PrivateDatabase)); err != nil {
		t.Fatal(err)
	}
	pair := fmt.Sprintf("host=127.0.0.1,127.0.0.1 port=%d,%d dbname=%s user=%s target_session_attrs=read-write connect_timeout=2",
		f.Port(pgcluster.Node1), f.Port(pgcluster.Node2), dbtest.PrivateDatabase, pgcluster.Superuser)
	if err := st.SetSentencePartitions(ctx, []string{partitionConnstr(t, local), pair}); err != nil {
		t.Fatal(err)
	}
	svc := newService(t, st)
	arts := novel(t).Overlapping(rand.New(rand.NewPCG(49, 11)), 40, 300, 800)
	for i, a := range arts[:8] {
		if _, err := svc.Ingest(ctx, input("before-"+strconv.Itoa(i), a), svc.Defaults()); err != nil {
			t.Fatal(err)
		}
	}
	victim, err := f.Primary(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Kill(ctx, victim); err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	refused, acked := 0, 0
	for i := 0; acked < 3; i++ {
		a := arts[8+i%(len(arts)-8)]
		if time.Since(killed) > 2*time.Minute {
			t.Fatalf("no ingest acknowledged 2 minutes after the partition's primary was killed (%d refused)", refused)
		}
		key := "after-" + strconv.Itoa(i)
		_, err := svc.Ingest(ctx, input(key, a), svc.Defaults())
		switch {
		case err == nil:
			acked++
		case isKind(err, service.KindUnavailable):
			refused++
			if _, err := st.ArticleByKey(ctx, "test", key); !isKind(err, service.KindNotFound) {
				t.Errorf("ingest %s refused during the failover stored its article (%v)", key, err)
			}
			time.Sleep(200 * time.Millisecond)
		default:
			t.Fatalf("ingest during the failover: %v", err)
		}
	}
	t.Logf("the partition's primary %s killed: %d ingests refused, then acknowledged %.1f s after the kill",
		victim, refused, time.Since(killed).Seconds())

	// Every stored article's rows on the partitions, per article.
	onParts := map[int64]int{}
	for _, u := range []string{local, f.URL(dbtest.PrivateDatabase)} {
		for _, id := range partitionArticleIDs(t, u) {
			onParts[id]++
		}
	}
	rows, err := st.Pool().Query(ctx, `SELECT a.id, a.external_id, count(s.position)::int FROM articles a
		LEFT JOIN sentences s ON s.article_id = a.id GROUP BY a.id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	stored := 0
	for rows.Next() {
		var (
			id  int64
			key string
			n   int
		)
		if err := rows.Scan(&id, &key, &n); err != nil {
			t.Fatal(err)
		}
		stored++
		if onParts[id] != n {
			t.Errorf("article %d (%s): %d rows on the partitions, %d in the primary's table", id, key, onParts[id], n)
		}
	}
	if stored != 8+acked {
		t.Errorf("%d articles stored, want the %d acknowledged", stored, 8+acked)
	}
}
