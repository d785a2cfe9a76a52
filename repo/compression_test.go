package repo_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestArticleCompression checks what migration 00015 promises: an article's
// text is stored compressed with lz4 when the server has it (pglz when it
// has not), and its word and shingle hashes, which no compressor shrinks,
// are stored as they are, never handed to a compressor.
func TestArticleCompression(t *testing.T) {
	st := newStore(t, 2)
	svc := newService(t, st)
	ctx := context.Background()

	want := "lz4"
	probe, err := st.Pool().Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Local to the transaction, rolled back: the pool's session keeps its
	// default, so that only the schema decides the method.
	if _, err := probe.Exec(ctx, `SELECT set_config('default_toast_compression', 'lz4', true)`); err != nil {
		want = "pglz" // a server built without lz4; the migration kept pglz
	}
	if err := probe.Rollback(ctx); err != nil {
		t.Fatal(err)
	}

	var ids []int64
	for i, a := range novel(t).Originals(rand.New(rand.NewPCG(15, 4)), 3, 2500, 3500) {
		v, err := svc.Ingest(ctx, input(fmt.Sprintf("long-%d", i), a), svc.Defaults())
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, v.ID)
	}
	// The database holds these articles alone.
	var methods string
	err = st.Pool().QueryRow(ctx, `
		SELECT string_agg(coalesce(pg_column_compression(body), 'none'), ' ' ORDER BY id) FROM articles`).Scan(&methods)
	if err != nil {
		t.Fatal(err)
	}
	if wantAll := strings.TrimSpace(strings.Repeat(want+" ", len(ids))); methods != wantAll {
		t.Errorf("the %d long bodies are stored compressed with %q, want %q", len(ids), methods, wantAll)
	}

	var storage string
	err = st.Pool().QueryRow(ctx, `
		SELECT string_agg(attname || '=' || attstorage::text, ' ' ORDER BY attname)
		FROM pg_attribute
		WHERE attrelid = 'articles'::regclass AND attname IN ('words', 'shingles')`).Scan(&storage)
	if err != nil {
		t.Fatal(err)
	}
	if storage != "shingles=e words=e" {
		t.Errorf("storage of the hash arrays: %s, want both e (external, uncompressed)", storage)
	}
	if got := countRows(t, st, `SELECT count(*) FROM articles WHERE pg_column_compression(words) IS NOT NULL OR pg_column_compression(shingles) IS NOT NULL`); got != 0 {
		t.Errorf("%d articles have compressed hash arrays", got)
	}
}

// TestArticleCompressionDown checks migration 00015's Down: the columns
// return to PostgreSQL's defaults (the server's default compression, hash
// arrays compressed when it helps), and Up applies it again.
func TestArticleCompressionDown(t *testing.T) {
	ctx := context.Background()
	m, url := newMigrator(t)
	st := openStore(t, url, 1)
	columns := func() string {
		t.Helper()
		var s string
		err := st.Pool().QueryRow(ctx, `
			SELECT string_agg(attname || '=' || attstorage::text || coalesce(nullif(attcompression::text, ''), '-'), ' ' ORDER BY attname)
			FROM pg_attribute
			WHERE attrelid = 'articles'::regclass AND attname IN ('body', 'plain_body', 'words', 'shingles')`).Scan(&s)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	up := columns()
	if _, err := m.DownTo(ctx, 14); err != nil {
		t.Fatal(err)
	}
	if got, want := columns(), "body=x- plain_body=x- shingles=x- words=x-"; got != want {
		t.Errorf("after migrating down to 14: %s, want %s", got, want)
	}
	if _, err := m.Up(ctx); err != nil {
		t.Fatal(err)
	}
	if got := columns(); got != up {
		t.Errorf("after migrating up again: %s, want %s as before", got, up)
	}
	if !strings.Contains(up, "words=e") || !strings.Contains(up, "shingles=e") {
		t.Errorf("migrated: %s, want the hash arrays' storage e", up)
	}
}
