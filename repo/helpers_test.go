package repo_test

import (
	"context"
	"crypto/sha256"
	"math/rand/v2"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/internal/corpus"
	"github.com/newsdedup/newsdedup/repo"
	"github.com/newsdedup/newsdedup/repo/dbtest"
	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// The dictionary and the novel take a while to load: once per test binary.
var shared struct {
	once  sync.Once
	dict  *fingerprint.Dictionary
	novel *corpus.Novel
	err   error
}

func load(tb testing.TB) {
	tb.Helper()
	shared.once.Do(func() {
		shared.dict, shared.err = fingerprint.Load(fingerprint.DefaultDictDir())
		if shared.err == nil {
			shared.novel, shared.err = corpus.LoadNovel()
		}
	})
	if shared.err != nil {
		tb.Fatal(shared.err)
	}
}

func algorithm(tb testing.TB) fingerprint.Algorithm {
	load(tb)
	return fingerprint.NewWeighted(shared.dict, fingerprint.DefaultWeightedParams)
}

func novel(tb testing.TB) *corpus.Novel {
	load(tb)
	return shared.novel
}

// newStore opens a store on a fresh database; maxConns sizes its pool.
func newStore(tb testing.TB, maxConns int32) *repo.Store {
	tb.Helper()
	return openStore(tb, dbtest.URL(tb), maxConns)
}

// openStore opens a store on databaseURL, closed when the test ends.
func openStore(tb testing.TB, databaseURL string, maxConns int32) *repo.Store {
	tb.Helper()
	st, err := repo.Open(context.Background(), databaseURL, repo.Options{MaxConns: maxConns})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(st.Close)
	return st
}

// newMigrator returns a migrator over a fresh migrated database, closed
// when the test ends, and the database's URL.
func newMigrator(tb testing.TB) (*repo.Migrator, string) {
	tb.Helper()
	url := dbtest.URL(tb)
	m, err := repo.NewMigrator(url)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = m.Close() })
	return m, url
}

func newService(tb testing.TB, st *repo.Store) *service.Service {
	tb.Helper()
	svc, err := service.New(st, algorithm(tb), service.DefaultOptions)
	if err != nil {
		tb.Fatal(err)
	}
	return svc
}

func mustFingerprint(tb testing.TB, a corpus.Article) fingerprint.Fingerprint {
	tb.Helper()
	fp, err := algorithm(tb).Fingerprint(context.Background(), fingerprint.Document{Title: a.Title, Body: a.Body})
	if err != nil {
		tb.Fatal(err)
	}
	return fp
}

// fixtureRows are the rows of fixture articles and their fingerprints, in
// source "fixture" under the external ids prefix0, prefix1, …
func fixtureRows(prefix string, articles []corpus.Article, fps []fingerprint.Fingerprint) []repo.CopyRow {
	rows := make([]repo.CopyRow, len(fps))
	for i, fp := range fps {
		rows[i] = repo.CopyRow{Article: service.Article{
			Source: "fixture", ExternalID: prefix + strconv.Itoa(i), Simhash: fp.Simhash, FingerprintVersion: fp.Version,
			Words: fp.Words, Shingles: fp.Shingles, ContentHash: fp.ContentHash,
		}, Body: articles[i].Body}
	}
	return rows
}

// copyArticles stores rows with COPY, unjudged, and returns their ids, in
// the order of rows.
func copyArticles(t testing.TB, st *repo.Store, rows []repo.CopyRow) []int64 {
	t.Helper()
	ctx := context.Background()
	if _, err := st.CopyArticles(ctx, rows); err != nil {
		t.Fatal(err)
	}
	sources, keys := make([]string, len(rows)), make([]string, len(rows))
	for i, r := range rows {
		sources[i], keys[i] = r.Article.Source, r.Article.ExternalID
	}
	pgRows, err := st.Pool().Query(ctx, `
		SELECT a.id
		FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS k(source, external_id, n)
		JOIN articles a USING (source, external_id)
		ORDER BY k.n`, sources, keys)
	if err != nil {
		t.Fatal(err)
	}
	ids, err := pgx.CollectRows(pgRows, pgx.RowTo[int64])
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

// randomRows are n fixture rows with uniformly random simhashes.
func randomRows(rng *rand.Rand, n int, version fingerprint.Version) []repo.CopyRow {
	rows := make([]repo.CopyRow, n)
	for i := range rows {
		rows[i] = fixtureRow("random", i, rng.Uint64(), version)
	}
	return rows
}

// fixtureRow is the i-th stored article of a kind of fixture: simhash h, no
// words, a content hash of its own, published i minutes into 2026.
func fixtureRow(kind string, i int, h uint64, version fingerprint.Version) repo.CopyRow {
	return repo.CopyRow{Article: service.Article{
		Source:             "fixture",
		ExternalID:         kind + "-" + strconv.Itoa(i),
		PublishedAt:        time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Minute),
		Simhash:            h,
		FingerprintVersion: version,
		ContentHash:        sha256.Sum256([]byte(kind + strconv.Itoa(i))),
	}}
}
