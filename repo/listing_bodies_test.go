package repo_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/repo"
	"github.com/newsdedup/newsdedup/repo/dbtest"
	"github.com/newsdedup/newsdedup/service"
)

// statementLog keeps the statements a store sends while on.
type statementLog struct {
	mu         sync.Mutex
	on         bool
	statements []pgx.TraceQueryStartData
}

func (l *statementLog) TraceQueryStart(ctx context.Context, _ *pgx.Conn, data pgx.TraceQueryStartData) context.Context {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.on {
		l.statements = append(l.statements, data)
	}
	return ctx
}

func (l *statementLog) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// listCost is what the list's statements cost the database: the bytes
// they return, and the buffers they touch (EXPLAIN ANALYZE's, TOAST's
// included when an expression reads a stored text).
type listCost struct{ bytes, buffers int }

// replayCost runs the reads among statements again on the database at url
// (begin, commit and set have no rows): the bytes of the rows they return
// and the shared buffers their plans touch, each read logged when verbose.
func replayCost(t *testing.T, url string, statements []pgx.TraceQueryStartData) listCost {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var c listCost
	for _, s := range statements {
		if verb := strings.ToUpper(strings.Fields(s.SQL)[0]); verb != "SELECT" && verb != "WITH" {
			continue
		}
		rows, err := conn.Query(ctx, s.SQL, s.Args...)
		if err != nil {
			t.Fatalf("%s: %v", s.SQL, err)
		}
		for rows.Next() {
			for _, v := range rows.RawValues() {
				c.bytes += len(v)
			}
		}
		rows.Close()
		var plan []struct {
			Plan struct {
				Hit  int `json:"Shared Hit Blocks"`
				Read int `json:"Shared Read Blocks"`
			}
		}
		var out []byte
		if err := conn.QueryRow(ctx, "EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) "+s.SQL, s.Args...).Scan(&out); err != nil {
			t.Fatalf("EXPLAIN %s: %v", s.SQL, err)
		}
		if err := json.Unmarshal(out, &plan); err != nil {
			t.Fatal(err)
		}
		c.buffers += plan[0].Plan.Hit + plan[0].Plan.Read
		if testing.Verbose() {
			t.Logf("%d buffers: %.120s", plan[0].Plan.Hit+plan[0].Plan.Read, strings.Join(strings.Fields(s.SQL), " "))
		}
	}
	return c
}

// randomText is a text of n characters in sentences of 20 to 40, drawn at
// random from common characters: no two sentences alike.
func randomText(rng *rand.Rand, n int) string {
	const chars = "的一是不了人我在有他这为之大来以个中上们到说国和地也子时道出而要于就下得可你年生自会那后能对着事其里所去行过家十用发天如然作方成者多日都三小军二无同么经法当起与好看学进种将还分此心前面又定见只主没公从"
	rs := []rune(chars)
	var b strings.Builder
	for b.Len() < 3*n {
		for range 20 + rng.IntN(21) {
			b.WriteRune(rs[rng.IntN(len(rs))])
		}
		b.WriteString("。")
		if rng.IntN(4) == 0 {
			b.WriteString("\n")
		}
	}
	return b.String()
}

// TestListCostsTheSameWithLongMembers: the list of clusters (what the
// editors' page and GET /v1/clusters read) costs the database the same
// when each cluster's members are 2 MB long as when they are 200 KB, and
// at most a bounded amount a member more than when they are 2 KB (issue
// 44: fifty clusters of a 2 MB original made the page take 2 s): no
// statement of it returns or reads whole texts, or what grows with them.
func TestListCostsTheSameWithLongMembers(t *testing.T) {
	ctx := context.Background()
	cost := func(runes int) listCost {
		t.Helper()
		url := dbtest.URL(t)
		log := &statementLog{}
		st, err := repo.Open(ctx, url, repo.Options{MaxConns: 4, Tracer: log})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		svc := newService(t, st)
		rng := rand.New(rand.NewPCG(44, uint64(runes)))
		day := time.Date(2026, 11, 28, 8, 0, 0, 0, time.UTC)
		// Articles alone, not listed, so that every database holds as
		// much text, and its sentence index is as large.
		if filler := 700_000 - runes; filler > 0 {
			for i := range 4 {
				_, err := svc.Ingest(ctx, service.ArticleInput{Text: service.Text{Title: "另一篇", Body: randomText(rng, filler)},
					ExternalID: "alone-" + string(rune('a'+i)), Source: "cctv", PublishedAt: day.Add(-time.Duration(i+1) * time.Hour)}, svc.Defaults())
				if err != nil {
					t.Fatal(err)
				}
			}
		}
		for c := range 2 {
			text := randomText(rng, runes)
			for i, body := range []string{text, "【搜狐新闻】" + text} {
				v, err := svc.Ingest(ctx, service.ArticleInput{Text: service.Text{Title: "标题" + string(rune('甲'+c)), Body: body},
					ExternalID: string(rune('a'+c)) + string(rune('0'+i)), Source: []string{"xinhua", "portal"}[i],
					PublishedAt: day.Add(time.Duration(c*10+i) * time.Hour)}, svc.Defaults())
				if err != nil {
					t.Fatal(err)
				}
				if i == 1 && v.Status == service.StatusUnique {
					t.Fatalf("the copy of %d characters was stored alone", runes)
				}
			}
		}
		log.on = true
		page, err := svc.Clusters(ctx, service.ClusterQuery{Limit: 50})
		log.on = false
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Clusters) != 2 {
			t.Fatalf("the list of clusters of %d characters has %d, want 2", runes, len(page.Clusters))
		}
		c := replayCost(t, url, log.statements)
		t.Logf("members of %d characters: the list's %d statements return %d bytes and touch %d buffers", runes, len(log.statements), c.bytes, c.buffers)
		return c
	}
	// Of a member longer than some 16,000 characters the list reads at
	// most 4,096 sampled 5-grams (8 bytes each as they travel) and 64
	// sentences, whatever its length; of a 2 KB one, all of them.
	const perMember = 4096*8 + 64*64
	short, middle, long := cost(700), cost(70_000), cost(700_000)
	if long.bytes > short.bytes+4*perMember {
		t.Errorf("the list returns %d bytes with members of 2 MB, %d with members of 2 KB; want at most %d more", long.bytes, short.bytes, 4*perMember)
	}
	if long.bytes > middle.bytes+middle.bytes/10 || long.buffers > middle.buffers+middle.buffers/4 {
		t.Errorf("the list costs %+v with members of 2 MB, %+v with members of 200 KB; want the same", long, middle)
	}
}

// TestKeptOfLongMembers: of members longer than 4,096 sampled 5-grams the
// keep rule reads the first 4,096 (shingles_head, set by the trigger of
// migration 00025) and counts the story below the cut; of two members that
// stop at 60 % and two that hold the whole story, it keeps the earliest of
// the whole ones, as the view cluster_kept does.
func TestKeptOfLongMembers(t *testing.T) {
	ctx := context.Background()
	st := newStore(t, 4)
	svc := newService(t, st)
	rng := rand.New(rand.NewPCG(25, 44))
	day := time.Date(2026, 11, 28, 8, 0, 0, 0, time.UTC)
	text := randomText(rng, 120_000)
	cut := strings.LastIndex(text[:len(text)*3/5], "。") + len("。")
	var ids []int64
	for i, body := range []string{text[:cut], "【搜狐新闻】" + text, text[:cut] + "（责任编辑：王芳）", text + "（责任编辑：李明）"} {
		v, err := svc.Ingest(ctx, service.ArticleInput{Text: service.Text{Title: "标题", Body: body},
			ExternalID: string(rune('a' + i)), Source: []string{"portal", "xinhua", "sina", "qq"}[i],
			PublishedAt: day.Add(time.Duration(i) * time.Hour)}, svc.Defaults())
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, v.ID)
	}
	var heads []int
	rows, err := st.Pool().Query(ctx, `SELECT coalesce(cardinality(shingles_head), 0) FROM articles ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var n int
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		heads = append(heads, n)
	}
	if rows.Err() != nil || !slices.Equal(heads, []int{4096, 4096, 4096, 4096}) {
		t.Fatalf("shingles_head of the members: %v (%v), want 4,096 each", heads, rows.Err())
	}
	v, err := svc.Cluster(ctx, ids[0])
	if err != nil {
		t.Fatal(err)
	}
	if v.Size != 4 || v.Kept.ID != ids[1] {
		t.Fatalf("cluster of %d members keeps %d (%s), want the whole text %d", v.Size, v.Kept.ID, v.Kept.Reason, ids[1])
	}
	var viewKept int64
	if err := st.Pool().QueryRow(ctx, `SELECT kept_id FROM cluster_kept WHERE cluster_id = $1`, v.ID).Scan(&viewKept); err != nil {
		t.Fatal(err)
	}
	if viewKept != v.Kept.ID {
		t.Errorf("cluster_kept keeps %d, the service %d", viewKept, v.Kept.ID)
	}
}
