package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// Version 3 as it ships is the whole service, not its fingerprint alone: a
// copy the fingerprint misses may still be an exact duplicate or a partial
// duplicate through the sentence index. So the regression check stores the
// novel's originals in the service — on a scratch database of their own,
// which the news corpora never see — and checks every query (each original,
// then each copy) through POST /v1/check, which stores nothing. A copy is
// detected when the verdict links it to its original or to an article of
// its original's cluster, as a repost is (repost_check.go); a copy linked
// to another original, and an original linked to any other, is a false
// link.

// novelSource is the source of the stored originals.
const novelSource = "围城"

// novelPublished is when the first original is published; the others
// follow a minute apart, so every two are within the window, and every
// copy is checked two hours after its original (repostDelay).
var novelPublished = time.Date(2024, 1, 1, 8, 0, 0, 0, time.UTC)

// novelService is the service's verdicts on the novel's queries.
type novelService struct {
	// Counts are the outcomes by band and edit (editNone for the originals
	// checked against the others).
	Counts map[groupKey]repostCount `json:"-"`
	// Groups are the same counts, for evaluation.json.
	Groups []novelGroupCount `json:"groups"`
	// IngestLinked counts the originals the service linked to an earlier
	// original while storing them.
	IngestLinked int `json:"ingest_linked"`
	// IngestRefused counts the originals it refused to store.
	IngestRefused int `json:"ingest_refused"`
	// FalseLinks counts the false links (a copy linked to another original,
	// an original to any) by status.
	FalseLinks map[string]int `json:"false_links"`
	Seconds    float64        `json:"seconds"`
}

// novelGroupCount is the outcome of one group of queries.
type novelGroupCount struct {
	Band string `json:"band"`
	Edit string `json:"edit"`
	repostCount
}

// sum adds up the counts of the groups keep accepts.
func (s *novelService) sum(keep func(groupKey) bool) repostCount {
	var out repostCount
	for k, c := range s.Counts {
		if keep(k) {
			out = repostCount{
				Reposts: out.Reposts + c.Reposts, Detected: out.Detected + c.Detected,
				Near: out.Near + c.Near, Partial: out.Partial + c.Partial, Exact: out.Exact + c.Exact,
				Elsewhere: out.Elsewhere + c.Elsewhere, Refused: out.Refused + c.Refused,
			}
		}
	}
	return out
}

// checkNovelService starts the service on a scratch database of its own,
// stores the originals, checks every query and drops the database.
func checkNovelService(ctx context.Context, cfg config, d *fingerprint.Dictionary, c labelledCorpus, qs []query, stdout io.Writer) (*novelService, error) {
	start := time.Now()
	srv, err := startServer(ctx, cfg.databaseURL, cfg.dbPrefix+"novel_", d)
	if err != nil {
		return nil, fmt.Errorf("start the service: %w", err)
	}
	cl := newClient(srv.URL)
	s, err := func() (*novelService, error) {
		originals, err := ingestNovel(ctx, cl, c)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(stdout, "  stored %d originals; checking %d queries through POST /v1/check\n", len(originals), len(qs))
		outcomes, err := checkNovel(ctx, cl, c, qs, originals, cfg.workers, stdout)
		if err != nil {
			return nil, err
		}
		s := &novelService{Counts: tallyNovel(qs, outcomes), FalseLinks: make(map[string]int)}
		for _, o := range outcomes {
			if o.Elsewhere {
				s.FalseLinks[o.Status]++
			}
		}
		for _, o := range originals {
			switch {
			case o.Error != "":
				s.IngestRefused++
			case o.DuplicateOf != 0:
				s.IngestLinked++
			}
		}
		return s, nil
	}()
	if err := errors.Join(err, srv.Stop()); err != nil {
		return nil, err
	}
	keys := slices.SortedFunc(maps.Keys(s.Counts), compareGroups)
	for _, k := range keys {
		s.Groups = append(s.Groups, novelGroupCount{Band: novelBands[k.Band].Name, Edit: k.Edit, repostCount: s.Counts[k]})
	}
	s.Seconds = time.Since(start).Seconds()
	return s, nil
}

// novelArticle is original i as the API takes it, published at published.
func novelArticle(c labelledCorpus, i int) articleJSON {
	o := c.Originals[i]
	return articleJSON{ExternalID: fmt.Sprintf("novel-%d", i), Source: novelSource, Title: o.Title, Body: o.Body,
		PublishedAt: novelPublished.Add(time.Duration(i) * time.Minute).Format(time.RFC3339)}
}

// ingestNovel stores the originals in their order, in batches of
// ingestBatchSize, and returns the service's verdict on each.
func ingestNovel(ctx context.Context, cl *client, c labelledCorpus) ([]storedArticle, error) {
	out := make([]storedArticle, len(c.Originals))
	for from := 0; from < len(c.Originals); from += ingestBatchSize {
		to := min(from+ingestBatchSize, len(c.Originals))
		batch := make([]articleJSON, 0, to-from)
		for i := from; i < to; i++ {
			batch = append(batch, novelArticle(c, i))
		}
		results, err := cl.ingestBatch(ctx, batch)
		if err != nil {
			return nil, fmt.Errorf("store the originals %d–%d: %w", from, to-1, err)
		}
		for k, r := range results {
			if r.Error != nil {
				out[from+k] = storedArticle{Error: r.Error.Code + ": " + r.Error.Message}
				continue
			}
			sa := storedArticle{ID: r.ID, Status: r.Status, ClusterID: r.ClusterID}
			if r.linked() {
				sa.DuplicateOf = r.DuplicateOf.ID
			}
			out[from+k] = sa
		}
	}
	return out, nil
}

// novelQuery is query q as the API takes it: an original under its own key
// (so that the check leaves it out of its matches, and judges it against
// the others), a copy under none, two hours after its original.
func novelQuery(c labelledCorpus, qs []query, q int) articleJSON {
	a := novelArticle(c, qs[q].Of)
	if qs[q].Edit == editNone {
		return a
	}
	published, _ := time.Parse(time.RFC3339, a.PublishedAt)
	d := qs[q].Doc
	return articleJSON{Source: "repost", Title: d.Title, Body: d.Body, PublishedAt: published.Add(repostDelay).Format(time.RFC3339)}
}

// checkNovel checks every query on workers connections and returns each
// outcome.
func checkNovel(ctx context.Context, cl *client, c labelledCorpus, qs []query, originals []storedArticle, workers int, progress io.Writer) ([]repostOutcome, error) {
	start := time.Now()
	out := make([]repostOutcome, len(qs))
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	next := make(chan int)
	var wg sync.WaitGroup
	for range max(1, workers) {
		wg.Go(func() {
			for q := range next {
				v, err := cl.check(ctx, novelQuery(c, qs, q))
				var se *statusError
				switch {
				case errors.As(err, &se) && se.Status == http.StatusUnprocessableEntity:
					out[q] = repostOutcome{Refused: true} // missed, and counted as refused
				case err != nil:
					cancel(fmt.Errorf("check the %s query of original %d: %w", qs[q].Edit, qs[q].Of, err))
				default:
					out[q] = judgeNovel(v, qs[q], originals)
				}
			}
		})
	}
feed:
	for q := range qs {
		select {
		case next <- q:
		case <-ctx.Done():
			break feed
		}
		if (q+1)%1000 == 0 {
			fmt.Fprintf(progress, "  checked %d of %d (%v)\n", q+1, len(qs), time.Since(start).Round(time.Second))
		}
	}
	close(next)
	wg.Wait()
	return out, context.Cause(ctx)
}

// judgeNovel reads the verdict on a query. An original, checked with
// itself left out, is detected by nothing: any link is a false one. A copy
// is read as a repost of its original.
func judgeNovel(v verdictJSON, q query, originals []storedArticle) repostOutcome {
	if q.Edit != editNone {
		return judgeRepost(v, originals[q.Of])
	}
	o := repostOutcome{Status: v.Status}
	if v.linked() {
		o.Elsewhere = true
		o.Distance, o.Overlap, o.Coverage = v.DuplicateOf.Distance, v.DuplicateOf.Overlap, v.DuplicateOf.Coverage != nil
	}
	return o
}

// tallyNovel counts the outcomes by band and edit.
func tallyNovel(qs []query, outcomes []repostOutcome) map[groupKey]repostCount {
	out := make(map[groupKey]repostCount)
	for i, q := range qs {
		k := groupKey{Band: q.Band, Edit: q.Edit}
		c := out[k]
		c.add(outcomes[i])
		out[k] = c
	}
	return out
}
