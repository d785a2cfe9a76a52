package dbtest

import (
	"context"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// Querier is what a pool and a connection have in common, enough for the
// checks of this file.
type Querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// CheckLinks asserts what the design promises of links and clusters, for
// articles ingested with the default options: every link is a real
// match — to an article ingested before, at the stored distance (at most 3
// bits) and the stored ratio (at least the minimum), the same text exactly
// when the link says exact —; every article's cluster is the head its links
// lead to; and articles with the same text share a cluster.
func CheckLinks(t testing.TB, db Querier) {
	t.Helper()
	ctx := context.Background()
	rows, err := db.Query(ctx, `
		SELECT d.id, d.status, d.distance, d.word_ratio, d.overlap, d.simhash, d.words, d.shingles, d.content_hash = l.content_hash,
		       l.id, l.simhash, l.words, l.shingles, (d.ingested_at, d.id) > (l.ingested_at, l.id)
		FROM articles d JOIN articles l ON l.id = d.duplicate_of`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	links := 0
	for rows.Next() {
		var (
			id, linked               int64
			status                   string
			distance                 int
			ratio, overlap           float32
			simhash, linkedSimhash   int64
			words, linkedWords       []int64
			shingles, linkedShingles []int32
			sameText, linksToEarlier bool
		)
		if err := rows.Scan(&id, &status, &distance, &ratio, &overlap, &simhash, &words, &shingles, &sameText,
			&linked, &linkedSimhash, &linkedWords, &linkedShingles, &linksToEarlier); err != nil {
			t.Fatal(err)
		}
		links++
		d := fingerprint.Distance(uint64(simhash), uint64(linkedSimhash))
		r := fingerprint.Ratio(wordSetOf(words), wordSetOf(linkedWords))
		aInB, bInA := fingerprint.Coverage(shingleSetOf(shingles), shingleSetOf(linkedShingles))
		o := max(aInB, bInA)
		switch {
		case !linksToEarlier:
			t.Errorf("article %d links to %d, which was ingested after it", id, linked)
		case d != distance:
			t.Errorf("article %d links to %d at stored distance %d; the fingerprints are %d bits apart", id, linked, distance, d)
		case float32(r) != ratio:
			t.Errorf("article %d links to %d with stored ratio %v; the word sets share %v", id, linked, ratio, r)
		case float32(o) != overlap:
			t.Errorf("article %d links to %d with stored overlap %v; the shingles share %v", id, linked, overlap, o)
		case status == string(service.StatusPartialDuplicate):
			// Judged by its sentences or its text, or a match by its
			// fingerprint that is not near (checked below).
		case d > fingerprint.MaxIndexedDistance || r < service.DefaultOptions.MinWordRatio || min(aInB, bInA) < service.DefaultOptions.MinOverlap ||
			max(aInB, bInA) >= service.HoldShare && min(aInB, bInA) < service.HoldShare:
			t.Errorf("article %d is %s of %d at distance %d, ratio %v, overlap %v: beyond the thresholds", id, status, linked, d, r, o)
		case sameText != (status == string(service.StatusExactDuplicate)):
			t.Errorf("article %d is %s of %d, same text: %v", id, status, linked, sameText)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if n := countRows(t, db, `
		SELECT count(*) FROM articles d JOIN articles l ON l.id = d.duplicate_of
		WHERE d.fingerprint_version <> l.fingerprint_version`); n != 0 {
		t.Errorf("%d articles link to an article of another fingerprint version", n)
	}
	if n := countRows(t, db, fmt.Sprintf(`
		SELECT count(*) FROM articles d
		WHERE d.status = 'partial_duplicate'
		  AND NOT (d.distance <= 3 AND d.overlap >= %v) -- a match by its fingerprint (service/near.go)
		  AND (NOT (d.coverage_this >= 0.6 OR d.coverage_that >= 0.7)
		       OR NOT EXISTS (SELECT 1 FROM sentences x JOIN sentences y
		                        ON y.text_hash = x.text_hash OR bit_count((x.simhash # y.simhash)::bit(64)) <= 3
		                      WHERE x.article_id = d.id AND y.article_id = d.duplicate_of))`, service.DefaultOptions.MinOverlap)); n != 0 {
		t.Errorf("%d partial duplicates share no sentence with the article they link to, or too little of it, and are no match by their fingerprint", n)
	}
	if n := countRows(t, db, `
		WITH RECURSIVE up(id, at, depth) AS (
			SELECT id, id, 0 FROM articles
			UNION ALL
			SELECT up.id, a.duplicate_of, up.depth + 1
			FROM up JOIN articles a ON a.id = up.at
			WHERE a.cluster_head IS NOT NULL AND up.depth < 10000
		)
		SELECT count(*)
		FROM up JOIN articles head ON head.id = up.at JOIN articles me ON me.id = up.id
		WHERE head.cluster_head IS NULL AND me.cluster_id <> head.id`); n != 0 {
		t.Errorf("%d articles have a cluster_id that is not the head their links lead to", n)
	}
	// A head may link to an article of another cluster only as a partial
	// duplicate (service/rules_drift.go); a member is in its link's cluster.
	if n := countRows(t, db, `
		SELECT count(*) FROM articles d JOIN articles l ON l.id = d.duplicate_of
		WHERE CASE WHEN d.cluster_head IS NULL THEN d.status <> 'partial_duplicate' OR l.cluster_id = d.id
		           ELSE d.cluster_id <> l.cluster_id END`); n != 0 {
		t.Errorf("%d linked articles are neither in their link's cluster nor partial duplicates heading their own", n)
	}
	// (Unless an editor separated one of them from an article of the
	// other's cluster: a split may part copies.)
	if n := countRows(t, db, `
		SELECT count(*) FROM articles x JOIN articles y
		  ON y.content_hash = x.content_hash AND y.fingerprint_version = x.fingerprint_version AND y.id > x.id
		WHERE y.cluster_id <> x.cluster_id
		  AND NOT EXISTS (SELECT 1 FROM separations s WHERE s.a IN (x.id, y.id) OR s.b IN (x.id, y.id))`); n != 0 {
		t.Errorf("%d pairs of articles with the same text are in different clusters", n)
	}
	CheckListing(t, db)
	t.Logf("%d links checked", links)
}

// CheckListing asserts that cluster_listing, which triggers keep, says what
// the table says.
func CheckListing(t testing.TB, db Querier) {
	t.Helper()
	if n := countRows(t, db, `
		WITH truth AS (
			SELECT h.id AS cluster_id, h.published_at, m.size, m.sources, m.statuses, m.last_ingested
			FROM (SELECT cluster_id, count(*) AS size, array_agg(DISTINCT source ORDER BY source) AS sources,
			             array_agg(DISTINCT status ORDER BY status) AS statuses, max(ingested_at) AS last_ingested
			      FROM articles GROUP BY cluster_id HAVING count(*) > 1) m
			JOIN articles h ON h.id = m.cluster_id
		)
		SELECT count(*) FROM (
			(SELECT * FROM truth EXCEPT SELECT * FROM cluster_listing)
			UNION ALL
			(SELECT * FROM cluster_listing EXCEPT SELECT * FROM truth)
		) diff`); n != 0 {
		t.Errorf("cluster_listing differs from the table in %d rows", n)
	}
	CheckOriginals(t, db)
}

// CheckOriginals asserts that every article's original_source and
// original_owner, which triggers keep, are the source and owner of the
// article it links to (NULL for one that links to none). A schema before
// migration 00048 (a test that migrated down) has no such columns.
func CheckOriginals(t testing.TB, db Querier) {
	t.Helper()
	if countRows(t, db, `SELECT count(*) FROM pg_attribute WHERE attrelid = 'articles'::regclass AND attname = 'original_owner' AND NOT attisdropped`) == 0 {
		return
	}
	if n := countRows(t, db, `
		SELECT count(*) FROM articles d LEFT JOIN articles o ON o.id = d.duplicate_of
		WHERE d.original_source IS DISTINCT FROM o.source
		   OR d.original_owner IS DISTINCT FROM CASE WHEN o.id IS NOT NULL THEN source_owner(o.source) END`); n != 0 {
		t.Errorf("%d articles store another original source or owner than the article they link to has", n)
	}
}

func shingleSetOf(stored []int32) fingerprint.ShingleSet {
	out := make(fingerprint.ShingleSet, len(stored))
	for i, v := range stored {
		out[i] = uint32(v)
	}
	return out
}

func wordSetOf(stored []int64) fingerprint.WordSet {
	hashes := make([]uint64, len(stored))
	for i, w := range stored {
		hashes[i] = uint64(w)
	}
	return fingerprint.NewWordSet(hashes)
}

func countRows(t testing.TB, db Querier, sql string) int64 {
	t.Helper()
	var n int64
	if err := db.QueryRow(context.Background(), sql).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
