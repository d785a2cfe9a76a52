package repo_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/newsdedup/newsdedup/service"
)

// TestClustersExportAgreesWithThePages stores service.MaxExportRows + 1
// clusters of two straight into the table and reads the export
// (EachCluster: one statement, summarised a chunk at a time, the next
// chunks read ahead) against the list read page by page: the same
// clusters in the same order, each with the same original and kept
// member, cut after MaxExportRows and said so; from a cursor and with a
// filter, the same as the pages from there.
func TestClustersExportAgreesWithThePages(t *testing.T) {
	st := newStore(t, 8)
	svc := newService(t, st)
	ctx := context.Background()
	n := service.MaxExportRows + 1
	// Each cluster: a head and an exact copy of it one minute later, from
	// two of five sources; every 7th head is xinhua's.
	if _, err := st.Pool().Exec(ctx, `
		INSERT INTO articles (source, external_id, title, body, published_at, content_hash, simhash, fingerprint_version,
		                      words, shingles, status, a0, a1, a2, a3, b0, b1, b2, b3)
		SELECT CASE WHEN c % 7 = 0 THEN 'xinhua' ELSE 'src-' || (c % 5) END || CASE WHEN copy THEN '-copy' ELSE '' END,
		       'k-' || c, 'story ' || c, 'text of story ' || c,
		       timestamptz '2026-11-01' + c * interval '1 minute' + CASE WHEN copy THEN interval '30 seconds' ELSE interval '0' END,
		       sha256(('story ' || c)::bytea), c, 1, ARRAY[c::int8], ARRAY[c::int4, c::int4 + 1], 'unique', 0, 0, 0, 0, 0, 0, 0, 0
		FROM generate_series(1, $1) c, (VALUES (false), (true)) v(copy)`, n); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Pool().Exec(ctx, `
		UPDATE articles d SET duplicate_of = h.id, cluster_head = h.id, status = 'exact_duplicate', distance = 0, word_ratio = 1, overlap = 1
		FROM articles h
		WHERE d.source LIKE '%-copy' AND h.external_id = d.external_id AND h.source NOT LIKE '%-copy'`); err != nil {
		t.Fatal(err)
	}

	type line struct{ cluster, original, kept int64 }
	pages := func(q service.ClusterQuery) []line {
		t.Helper()
		var out []line
		q.Limit = service.MaxClusterPage
		for {
			p, err := svc.Clusters(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range p.Clusters {
				out = append(out, line{c.ID, c.Original.ID, c.Kept.ID})
			}
			if p.Next == nil {
				return out
			}
			q.After = p.Next
		}
	}
	export := func(q service.ClusterQuery) ([]line, bool) {
		t.Helper()
		var out []line
		cut, err := svc.EachCluster(ctx, q, func(c service.ClusterSummary) error {
			out = append(out, line{c.ID, c.Original.ID, c.Kept.ID})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return out, cut
	}

	all := pages(service.ClusterQuery{})
	if len(all) != n {
		t.Fatalf("the pages list %d clusters, want %d", len(all), n)
	}
	got, cut := export(service.ClusterQuery{})
	if !cut || len(got) != service.MaxExportRows || !slices.Equal(got, all[:service.MaxExportRows]) {
		t.Errorf("the export: %d clusters, cut %v, first differing at %s; want the pages' first %d, cut",
			len(got), cut, firstDiff(got, all), service.MaxExportRows)
	}

	q := service.ClusterQuery{Limit: 100}
	p, err := svc.Clusters(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	q = service.ClusterQuery{After: p.Next, Source: "xinhua"}
	want := pages(q)
	got, cut = export(q)
	if cut || len(want) == 0 || !slices.Equal(got, want) {
		t.Errorf("xinhua's after the first 100: export %d clusters (cut %v), pages %d, first differing at %s",
			len(got), cut, len(want), firstDiff(got, want))
	}
}

func firstDiff[T comparable](a, b []T) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return fmt.Sprintf("%d (%v, %v)", i, a[i], b[i])
		}
	}
	return fmt.Sprintf("%d (one ends)", min(len(a), len(b)))
}
