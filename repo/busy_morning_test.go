package repo_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/internal/corpus"
	"github.com/newsdedup/newsdedup/service"
)

// TestBusyMorning is a wire story's morning: 16 writers send 1,000 copies
// of it from 40 portals — exact copies, retitled and re-dressed reposts,
// excerpts, one at a time and in batches — while the agency corrects the
// original five times (a headline, correction lines, a fixed character)
// and replaces it once with a write-through (a new lede over the story),
// and two portals delete their reposts, which other portals had copied.
// No request is refused; the corrected original still heads its cluster,
// ingested when it first was; every link is real (checkLinks), and the
// stored-links query of docs/reporting.md finds nothing. The requests
// carry no deadline, which would test the machine's speed rather than the
// service: under the race detector on a shared machine, a copy of a story
// already copied a thousand times may wait a minute for the copies before
// it (each reads a thousand of them as candidates), corrections or not.
func TestBusyMorning(t *testing.T) {
	const writers, copies, portals = 16, 1000, 40
	st := newStore(t, writers+4)
	svc := newService(t, st)
	ctx := context.Background()
	nv := novel(t)
	rng := rand.New(rand.NewPCG(32, 7))

	story := nv.Originals(rng, 1, 1500, 2500)[0]
	versions := []corpus.Article{story}
	next := func(edit func(a *corpus.Article)) {
		a := versions[len(versions)-1]
		edit(&a)
		versions = append(versions, a)
	}
	next(func(a *corpus.Article) { a.Title = "（更新）" + a.Title })
	next(func(a *corpus.Article) { a.Body += "\n更正：本文此前版本中的日期有误，现已更正。" })
	next(func(a *corpus.Article) { a.Body = strings.Replace(a.Body, "的", "地", 1) })
	next(func(a *corpus.Article) { a.Title = "（再次更新）" + story.Title })
	next(func(a *corpus.Article) { a.Body += "\n更正：此前版本中一位受访者的姓名有误。" })
	next(func(a *corpus.Article) { // the write-through
		a.Title = "（综述）" + story.Title
		a.Body = strings.Join(corpus.SplitSentences(nv.Originals(rng, 1, 200, 400)[0].Body), "") + "\n" + a.Body
	})
	original, err := svc.Ingest(ctx, keyed("wire", "story-1", story), svc.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	ingested := mustFind(t, svc, original.ID).IngestedAt

	// The morning's requests, in the order they are sent: copies of the
	// version out at the time, the corrections and the write-through after
	// so many copies, two reposts that others copy and that are deleted
	// later.
	type request struct {
		copies  []service.ArticleInput
		version int    // > 0: the original's version to send
		delete  string // a portal whose repost is deleted
	}
	var (
		requests []request
		hubs     []corpus.Article // the reposts others copy, while they stand
		sent     int
		version  int
	)
	correct := func() { version++; requests = append(requests, request{version: version}) }
	repost := func() {
		hub := nv.Apply(rng, versions[version], corpus.Boilerplate)
		hubs = append(hubs, hub)
		requests = append(requests, request{copies: []service.ArticleInput{keyed(fmt.Sprintf("portal-hub-%d", len(hubs)), "repost", hub)}})
		sent++
	}
	deleted := 0
	retract := func() {
		deleted++
		requests = append(requests, request{delete: fmt.Sprintf("portal-hub-%d", deleted)})
		hubs[deleted-1] = corpus.Article{}
	}
	events := []struct {
		at   int
		fire func()
	}{{40, repost}, {150, correct}, {300, correct}, {320, repost}, {450, correct}, {500, retract}, {600, correct},
		{750, correct}, {800, retract}, {900, correct}}
	copyOf := func(i int) service.ArticleInput {
		portal := fmt.Sprintf("portal-%02d", rng.IntN(portals))
		a := versions[version]
		switch k := rng.IntN(20); {
		case k < 9: // an exact copy
		case k < 11:
			a = nv.Apply(rng, a, corpus.HeadlineChanged)
		case k < 13:
			a = nv.Apply(rng, a, corpus.Light)
		case k < 15:
			a = nv.Apply(rng, a, corpus.Boilerplate)
		case k < 17:
			a = corpus.Article{Title: "摘要：" + a.Title, Body: firstShare(a.Body, 0.6)}
		case k < 18:
			a = corpus.Article{Title: a.Title, Body: chromeSwapped(a.Body)}
		default: // a copy of a repost others copy, while one stands
			for _, hub := range hubs {
				if hub.Body != "" {
					a = hub
				}
			}
		}
		return keyed(portal, fmt.Sprintf("%s-%d", portal, i), a)
	}
	for sent < copies {
		for len(events) > 0 && events[0].at <= sent {
			events[0].fire()
			events = events[1:]
		}
		n := 1
		if rng.IntN(4) == 0 {
			n = min(1+rng.IntN(25), copies-sent)
		}
		r := request{}
		for range n {
			r.copies = append(r.copies, copyOf(sent))
			sent++
		}
		requests = append(requests, r)
	}
	if version != len(versions)-1 || deleted != 2 {
		t.Fatalf("fixture: %d versions sent, %d reposts deleted; want %d and 2", version+1, deleted, len(versions))
	}

	queue := make(chan request)
	var (
		mu       sync.Mutex
		refused  []string
		slowest  time.Duration
		received int
	)
	failed := func(what string, err error) {
		mu.Lock()
		defer mu.Unlock()
		refused = append(refused, fmt.Sprintf("%s: %v", what, err))
	}
	var wg sync.WaitGroup
	for range writers {
		wg.Go(func() {
			for r := range queue {
				rctx := ctx
				start := time.Now()
				switch {
				case r.version > 0:
					if _, err := svc.Ingest(rctx, keyed("wire", "story-1", versions[r.version]), svc.Defaults()); err != nil {
						failed(fmt.Sprintf("version %d of the original", r.version), err)
					}
				case r.delete != "":
					a, err := svc.FindArticleByKey(rctx, r.delete, "repost")
					if err == nil {
						err = svc.DeleteArticle(rctx, a.ID)
					}
					if err != nil {
						failed("delete the repost of "+r.delete, err)
					}
				case len(r.copies) == 1:
					if _, err := svc.Ingest(rctx, r.copies[0], svc.Defaults()); err != nil {
						failed("copy "+r.copies[0].ExternalID, err)
					}
				default:
					items := make([]service.BatchItem, len(r.copies))
					for i, in := range r.copies {
						items[i] = service.BatchItem{Article: in, Options: svc.Defaults()}
					}
					results, err := svc.IngestBatch(rctx, items)
					if err != nil {
						failed("a batch", err)
					}
					for i, res := range results {
						if res.Err != nil {
							failed("copy "+r.copies[i].ExternalID+" of a batch", res.Err)
						}
					}
				}
				mu.Lock()
				slowest = max(slowest, time.Since(start))
				received += len(r.copies)
				mu.Unlock()
			}
		})
	}
	for _, r := range requests {
		queue <- r
	}
	close(queue)
	wg.Wait()
	t.Logf("%d requests, %d copies; the slowest took %v", len(requests), received, slowest.Round(time.Millisecond))
	for _, r := range refused {
		t.Errorf("refused: %s", r)
	}

	now := mustFind(t, svc, original.ID)
	if !now.IsCanonical() || now.ClusterID != original.ID || !now.IngestedAt.Equal(ingested) {
		t.Errorf("the original, corrected, is %+v; want it heading its cluster %d, ingested at %v", now, original.ID, ingested)
	}
	size := countRows(t, st, fmt.Sprintf(`SELECT count(*) FROM articles WHERE cluster_id = %d`, original.ID))
	t.Logf("its cluster holds %d of the %d articles", size, countRows(t, st, `SELECT count(*) FROM articles`))
	if size < copies/2 {
		t.Errorf("the original's cluster holds %d articles, want most of the %d copies", size, copies)
	}
	checkLinks(t, st)
	if n := countRows(t, st, `SELECT count(*) FROM (`+storedLinksCheck(t)+`) bad`); n != 0 {
		t.Errorf("the stored-links check of docs/reporting.md finds %d rows", n)
	}
}

// storedLinksCheck is the query docs/reporting.md gives analysts to check
// that every stored link is a real match: the SQL block after "This query
// checks that promise", without its semicolon.
func storedLinksCheck(t *testing.T) string {
	t.Helper()
	doc, err := os.ReadFile("../docs/reporting.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(doc), "This query checks that promise")
	if ok {
		_, after, ok = strings.Cut(after, "```sql\n")
	}
	query, _, closed := strings.Cut(after, "```")
	if !ok || !closed {
		t.Fatal("docs/reporting.md: no SQL block after \"This query checks that promise\"")
	}
	return strings.TrimSuffix(strings.TrimSpace(query), ";")
}
