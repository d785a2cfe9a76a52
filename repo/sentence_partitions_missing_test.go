package repo_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/repo/dbtest"
	"github.com/newsdedup/newsdedup/service"
)

// TestSentencePartitionStoppedIncompleteCheck stops one of two sentence
// partitions (a cluster of its own): a check answers KindUnavailable unless
// it allows an incomplete answer, when its verdict names partition 1
// missing and its sentence matches are exactly those of the partition
// still up; an ingest answers KindUnavailable and stores nothing.
func TestSentencePartitionStoppedIncompleteCheck(t *testing.T) {
	ctx := context.Background()
	url := dbtest.URL(t)
	st := openStore(t, url, 8)
	local, c := localAndRemotePartitions(t, url, st)
	svc := newService(t, st)
	rng := rand.New(rand.NewPCG(49, 7))
	nv := novel(t)
	arts := nv.Overlapping(rng, 12, 400, 1200)
	for i, a := range arts[:10] {
		if _, err := svc.Ingest(ctx, input("up-"+strconv.Itoa(i), a), svc.Defaults()); err != nil {
			t.Fatal(err)
		}
	}
	// The probe holds every stored article's text: its sentences match
	// on both partitions.
	probe := arts[10]
	for _, a := range arts[:10] {
		probe.Body += a.Body
	}
	fp := mustFingerprint(t, probe)
	q := service.SentenceQuery{Sentences: fp.Sentences, MaxDistance: 3}
	key := func(ms []service.SentenceMatch) []string {
		var out []string
		for _, m := range ms {
			out = append(out, fmt.Sprintf("%d %d/%d", m.Query, m.ArticleID, m.Position))
		}
		slices.Sort(out)
		return out
	}
	all, err := st.SentenceMatches(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	mctx, missing := service.WithMissingPartitions(ctx)
	each, err := st.SentenceMatches(mctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if got := missing.List(); got != nil {
		t.Errorf("every partition up: missing %v", got)
	}
	if !slices.Equal(key(each), key(all)) {
		t.Errorf("partition by partition: %d matches, all at once %d", len(each), len(all))
	}
	// The articles on the partition that stays up.
	onLocal := map[int64]bool{}
	lc, err := pgx.Connect(ctx, local)
	if err != nil {
		t.Fatal(err)
	}
	ids, err := lc.Query(ctx, `SELECT DISTINCT article_id FROM sentence_part.sentences`)
	if err != nil {
		t.Fatal(err)
	}
	localIDs, err := pgx.CollectRows(ids, pgx.RowTo[int64])
	lc.Close(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range localIDs {
		onLocal[id] = true
	}
	var want []service.SentenceMatch
	for _, m := range all {
		if onLocal[m.ArticleID] {
			want = append(want, m)
		}
	}
	if len(want) == 0 || len(want) == len(all) {
		t.Fatalf("%d of %d matches on partition 0: the fixture must have matches on both", len(want), len(all))
	}

	if err := c.Stop(ctx, "fast"); err != nil {
		t.Fatal(err)
	}
	mctx, missing = service.WithMissingPartitions(ctx)
	got, err := st.SentenceMatches(mctx, q)
	if err != nil {
		t.Fatalf("matches allowing an incomplete answer: %v", err)
	}
	if m := missing.List(); !slices.Equal(m, []int{1}) {
		t.Errorf("missing %v, want [1]", m)
	}
	if !slices.Equal(key(got), key(want)) {
		t.Errorf("with partition 1 stopped: %d matches, want the %d of partition 0", len(got), len(want))
	}
	hctx, _ := service.WithMissingPartitions(ctx)
	hs, err := st.SentenceHolders(hctx, q)
	if err != nil {
		t.Fatal(err)
	}
	per := make([]int, len(fp.Sentences))
	for _, m := range want {
		per[m.Query]++
	}
	for i, h := range hs {
		if h.All != per[i] {
			t.Errorf("holders of sentence %d: %d, want %d", i, h.All, per[i])
		}
	}

	opts := svc.Defaults()
	if _, err := svc.Check(ctx, input("check", probe), opts); !isKind(err, service.KindUnavailable) {
		t.Errorf("check with a partition stopped: %v, want KindUnavailable", err)
	}
	opts.AllowIncomplete, opts.SharedSentences = true, true
	v, err := svc.Check(ctx, input("check", arts[0]), opts)
	if err != nil {
		t.Fatalf("check allowing an incomplete answer: %v", err)
	}
	if !slices.Equal(v.MissingPartitions, []int{1}) || v.Status != service.StatusExactDuplicate {
		t.Errorf("incomplete check of a stored article: missing %v, status %s; want [1], exact_duplicate", v.MissingPartitions, v.Status)
	}
	if _, err := svc.Ingest(ctx, input("down", arts[11]), svc.Defaults()); !isKind(err, service.KindUnavailable) {
		t.Errorf("ingest with a partition stopped: %v, want KindUnavailable", err)
	}
	if _, err := st.ArticleByKey(ctx, "test", "down"); !isKind(err, service.KindNotFound) {
		t.Errorf("the ingest with a partition stopped stored its article (%v)", err)
	}
}

// TestSentencePartitionSlowIncompleteCheck holds partition 1's table
// locked so that its searches wait: a check of a text holding several
// stored ones, with a 4 s deadline, that allows an incomplete answer is
// answered in time without it, naming it missing.
func TestSentencePartitionSlowIncompleteCheck(t *testing.T) {
	ctx := context.Background()
	st, urls := partitionedStore(t, 2)
	svc := newService(t, st)
	arts := novel(t).Overlapping(rand.New(rand.NewPCG(49, 12)), 6, 400, 800)
	for i, a := range arts {
		if _, err := svc.Ingest(ctx, input("slow-"+strconv.Itoa(i), a), svc.Defaults()); err != nil {
			t.Fatal(err)
		}
	}
	lock, err := pgx.Connect(ctx, urls[1])
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close(ctx)
	tx, err := lock.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `LOCK TABLE sentence_part.sentences IN ACCESS EXCLUSIVE MODE`); err != nil {
		t.Fatal(err)
	}
	opts := svc.Defaults()
	opts.AllowIncomplete = true
	cctx, cancel := context.WithTimeout(ctx, 4*time.Second)
	defer cancel()
	began := time.Now()
	// Not a copy of one stored article: its sentences must be searched.
	probe := arts[0]
	for _, a := range arts[1:] {
		probe.Body += a.Body
	}
	v, err := svc.Check(cctx, input("check", probe), opts)
	if err != nil {
		t.Fatalf("check allowing an incomplete answer, partition 1 slow: %v after %s", err, time.Since(began))
	}
	if !slices.Equal(v.MissingPartitions, []int{1}) {
		t.Errorf("check with partition 1 slow: missing %v, want [1]", v.MissingPartitions)
	}
	t.Logf("answered in %s without the slow partition", time.Since(began).Round(time.Millisecond))
}
