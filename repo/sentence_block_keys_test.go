package repo_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// TestSentenceBlockKeysMigration upgrades a database whose sentences the
// binary before migration 00019 wrote (block columns filled, found through
// their B-trees) and checks that the new search finds them through the
// block keys' index; then writes a sentence the new way (no block columns)
// and migrates down, which must give that row the block values the binary
// before searches by.
func TestSentenceBlockKeysMigration(t *testing.T) {
	ctx := context.Background()
	m, url := newMigrator(t)
	if _, err := m.DownTo(ctx, 18); err != nil { // the schema before 00019
		t.Fatal(err)
	}
	st := openStore(t, url, 2)
	rng := rand.New(rand.NewPCG(19, 19))
	ids := copyArticles(t, st, randomRows(rng, 2, fingerprint.VersionNews))
	old := fingerprint.Sentence{Start: 0, End: 30, Runes: 28, TextHash: rng.Uint64(), Simhash: rng.Uint64(), HasSimhash: true}
	b := fingerprint.BlocksOf(old.Simhash)
	_, err := st.Pool().Exec(ctx, `
		INSERT INTO sentences (article_id, position, start_char, end_char, runes, text_hash, simhash, a0, a1, a2, a3, b0, b1, b2, b3)
		VALUES ($1, 0, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
		ids[0], old.Start, old.End, old.Runes, int64(old.TextHash), int64(old.Simhash),
		int16(b.A[0]), int16(b.A[1]), int16(b.A[2]), int16(b.A[3]), int16(b.B[0]), int16(b.B[1]), int16(b.B[2]), int16(b.B[3]))
	if err != nil {
		t.Fatal(err)
	}

	if _, err := m.Up(ctx); err != nil {
		t.Fatal(err)
	}
	var valid bool
	if err := st.Pool().QueryRow(ctx, `SELECT indisvalid FROM pg_index WHERE indexrelid = 'sentences_block_keys_idx'::regclass`).Scan(&valid); err != nil || !valid {
		t.Fatalf("sentences_block_keys_idx valid = %v, %v", valid, err)
	}
	near := old
	near.TextHash, near.Simhash = rng.Uint64(), old.Simhash^(1<<3|1<<40) // another text, 2 bits away
	found, err := st.SentenceMatches(ctx, service.SentenceQuery{Sentences: []fingerprint.Sentence{near}, MaxDistance: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) != 1 || found[0].ArticleID != ids[0] || found[0].Simhash != old.Simhash {
		t.Errorf("after the upgrade, a sentence 2 bits from one stored before it found %+v, want that one", found)
	}

	// A sentence written by the new binary, then the schema taken back.
	written := fingerprint.Sentence{Start: 0, End: 40, Runes: 35, TextHash: rng.Uint64(), Simhash: rng.Uint64(), HasSimhash: true}
	if err := st.CopySentences(ctx, map[int64][]fingerprint.Sentence{ids[1]: {written}}); err != nil {
		t.Fatal(err)
	}
	var a0 *int16
	if err := st.Pool().QueryRow(ctx, `SELECT a0 FROM sentences WHERE article_id = $1`, ids[1]).Scan(&a0); err != nil || a0 != nil {
		t.Fatalf("the new binary wrote a0 = %v (%v), want NULL", a0, err)
	}
	if _, err := m.Down(ctx); err != nil {
		t.Fatal(err)
	}
	want := fingerprint.BlocksOf(written.Simhash)
	var got [8]int16
	err = st.Pool().QueryRow(ctx, `SELECT a0, a1, a2, a3, b0, b1, b2, b3 FROM sentences WHERE article_id = $1`, ids[1]).
		Scan(&got[0], &got[1], &got[2], &got[3], &got[4], &got[5], &got[6], &got[7])
	if err != nil {
		t.Fatal(err)
	}
	for j := range 4 {
		if got[j] != int16(want.A[j]) || got[4+j] != int16(want.B[j]) {
			t.Errorf("after migrating down, the row's blocks are %v, want A %v and B %v", got, want.A, want.B)
			break
		}
	}
	var checks int
	if err := st.Pool().QueryRow(ctx, `SELECT count(*) FROM pg_constraint WHERE conname = 'sentences_simhash_check'`).Scan(&checks); err != nil || checks != 1 {
		t.Errorf("after migrating down, %d constraints sentences_simhash_check (%v), want 1", checks, err)
	}
	if _, err := m.Up(ctx); err != nil {
		t.Fatal(err)
	}
}

