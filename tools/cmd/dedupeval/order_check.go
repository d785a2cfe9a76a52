package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// orderCheck stores the corpora twice, each time on a scratch database of
// its own: in publication order and in reverse publication order (the
// latest first, every original arriving after its copies). It prints how
// many stored links and cluster heads differ between the two, and how
// many links point to an article published after the one linking: links
// by publication come out the same whatever the arrival order.
func orderCheck(ctx context.Context, cfg config, d *fingerprint.Dictionary, articles []newsArticle, stdout io.Writer) error {
	inOrder := slices.Clone(articles)
	slices.SortStableFunc(inOrder, func(a, b newsArticle) int { return a.Published.Compare(b.Published) })
	reverse := slices.Clone(inOrder)
	slices.Reverse(reverse)
	var runs [2]map[string]storedLink
	for i, order := range [][]newsArticle{inOrder, reverse} {
		name := []string{"publication order", "reverse publication order"}[i]
		fmt.Fprintf(stdout, "storing %d articles in %s\n", len(order), name)
		start := time.Now()
		links, err := storeInOrder(ctx, cfg, d, order, stdout)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		runs[i] = links
		later := 0
		linked := 0
		for _, l := range links {
			if l.link != "" {
				linked++
				if l.linkPublished.After(l.published) {
					later++
				}
			}
		}
		fmt.Fprintf(stdout, "  %s: %d linked of %d, %d linked to an article published after them (%v)\n",
			name, linked, len(links), later, time.Since(start).Round(time.Second))
	}
	links, heads, statuses := 0, 0, 0
	var examples []string
	for key, a := range runs[0] {
		b := runs[1][key]
		if a.link != b.link {
			links++
			if len(examples) < 10 || cfg.orderAll {
				examples = append(examples, fmt.Sprintf("%s (published %s): in order %s %q (%s, cov %.2f/%.2f), reversed %s %q (%s, cov %.2f/%.2f)",
					key, a.published.Format(time.DateTime), a.status, a.link, a.linkPublished.Format(time.DateTime), a.covThis, a.covThat,
					b.status, b.link, b.linkPublished.Format(time.DateTime), b.covThis, b.covThat))
			}
		}
		if a.head != b.head {
			heads++
		}
		if a.status != b.status {
			statuses++
		}
	}
	fmt.Fprintf(stdout, "reverse vs publication order: %d links differ, %d cluster heads differ, %d statuses differ, of %d articles\n",
		links, heads, statuses, len(runs[0]))
	slices.Sort(examples)
	for _, e := range examples {
		fmt.Fprintf(stdout, "  %s\n", e)
	}
	return nil
}

// storedLink is an article's stored link, by keys.
type storedLink struct {
	status, link, head       string
	published, linkPublished time.Time
	covThis, covThat         float32 // a partial duplicate's coverage, 0 otherwise
}

// storeInOrder stores articles in their order on a scratch database and
// reads every stored link back, by source/external_id.
func storeInOrder(ctx context.Context, cfg config, d *fingerprint.Dictionary, articles []newsArticle, stdout io.Writer) (map[string]storedLink, error) {
	srv, err := startServer(ctx, cfg.databaseURL, cfg.dbPrefix, d)
	if err != nil {
		return nil, fmt.Errorf("start the service: %w", err)
	}
	links, err := func() (map[string]storedLink, error) {
		if _, err := ingestNews(ctx, newClient(srv.URL), articles, stdout); err != nil {
			return nil, err
		}
		conn, err := pgx.Connect(ctx, srv.dbURL)
		if err != nil {
			return nil, err
		}
		defer conn.Close(context.WithoutCancel(ctx))
		rows, err := conn.Query(ctx, `
			SELECT a.source || '/' || a.external_id, a.status, coalesce(o.source || '/' || o.external_id, ''),
			       h.source || '/' || h.external_id, a.published_at, coalesce(o.published_at, a.published_at),
			       coalesce(a.coverage_this, 0), coalesce(a.coverage_that, 0)
			FROM articles a LEFT JOIN articles o ON o.id = a.duplicate_of JOIN articles h ON h.id = a.cluster_id`)
		if err != nil {
			return nil, err
		}
		out := make(map[string]storedLink, len(articles))
		var (
			key string
			l   storedLink
		)
		_, err = pgx.ForEachRow(rows, []any{&key, &l.status, &l.link, &l.head, &l.published, &l.linkPublished, &l.covThis, &l.covThat}, func() error {
			out[key] = l
			return nil
		})
		return out, err
	}()
	return links, errors.Join(err, srv.Stop())
}
