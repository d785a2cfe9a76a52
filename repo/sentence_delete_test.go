package repo_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/repo"
)

// storeUnrelated ingests n unrelated articles of the novel and returns
// their ids, each with the count of its stored sentences (at least one).
func storeUnrelated(t *testing.T, st *repo.Store, n int) ([]int64, map[int64]int64) {
	t.Helper()
	svc := newService(t, st)
	ctx := context.Background()
	ids, sentences := make([]int64, 0, n), map[int64]int64{}
	for i, a := range novel(t).Originals(rand.New(rand.NewPCG(13, 25)), n, 800, 1200) {
		v, err := svc.Ingest(ctx, input(fmt.Sprintf("gone-%d", i), a), svc.Defaults())
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, v.ID)
		sentences[v.ID] = countRows(t, st, fmt.Sprintf(`SELECT count(*) FROM sentences WHERE article_id = %d`, v.ID))
		if sentences[v.ID] == 0 {
			t.Fatalf("article %d stored without sentences", v.ID)
		}
	}
	return ids, sentences
}

// TestDeletingArticlesDeletesTheirSentences checks that any DELETE of
// articles — an operator's, of several rows at once, not only the
// service's — and a TRUNCATE take their sentences with them, and no other.
func TestDeletingArticlesDeletesTheirSentences(t *testing.T) {
	st := newStore(t, 4)
	ctx := context.Background()
	ids, sentences := storeUnrelated(t, st, 4)

	if _, err := st.Pool().Exec(ctx, `DELETE FROM articles WHERE id = ANY($1)`, ids[:2]); err != nil {
		t.Fatal(err)
	}
	for i, id := range ids {
		want := sentences[id]
		if i < 2 {
			want = 0
		}
		if n := countRows(t, st, fmt.Sprintf(`SELECT count(*) FROM sentences WHERE article_id = %d`, id)); n != want {
			t.Errorf("article %d (deleted %v): %d sentences, want %d", id, i < 2, n, want)
		}
	}

	if _, err := st.Pool().Exec(ctx, `TRUNCATE articles CASCADE`); err != nil {
		t.Fatal(err)
	}
	if n := countRows(t, st, `SELECT count(*) FROM sentences`); n != 0 {
		t.Errorf("%d sentences left after TRUNCATE articles CASCADE", n)
	}
}

// TestSentencesWrittenWhileTheirArticleIsDeleted checks the order the
// writes keep (repo/writes.go: Replace and Refingerprint update the article,
// then rewrite its sentences): a DELETE of the article that arrives in
// between waits for the writer, and then removes the sentences it wrote.
func TestSentencesWrittenWhileTheirArticleIsDeleted(t *testing.T) {
	st := newStore(t, 4)
	ctx := context.Background()
	ids, _ := storeUnrelated(t, st, 1)
	id := ids[0]

	writer, err := st.Pool().Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer writer.Rollback(ctx)
	if _, err := writer.Exec(ctx, `UPDATE articles SET title = title || ' (updated)' WHERE id = $1`, id); err != nil {
		t.Fatal(err)
	}
	if _, err := writer.Exec(ctx, `DELETE FROM sentences WHERE article_id = $1`, id); err != nil {
		t.Fatal(err)
	}
	if _, err := writer.Exec(ctx, `INSERT INTO sentences (article_id, position, start_char, end_char, runes, text_hash)
		VALUES ($1, 0, 0, 10, 10, 42), ($1, 1, 10, 20, 10, 43)`, id); err != nil {
		t.Fatal(err)
	}

	deleted := make(chan error, 1)
	go func() {
		_, err := st.Pool().Exec(ctx, `DELETE FROM articles WHERE id = $1`, id)
		deleted <- err
	}()
	// The DELETE waits for the writer's lock on the article's row.
	for waiting := int64(0); waiting == 0; {
		select {
		case err := <-deleted:
			t.Fatalf("the DELETE did not wait for the writer: %v", err)
		case <-time.After(20 * time.Millisecond):
		}
		waiting = countRows(t, st, `SELECT count(*) FROM pg_stat_activity
			WHERE wait_event_type = 'Lock' AND query LIKE 'DELETE FROM articles%'`)
	}
	if err := writer.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-deleted; err != nil {
		t.Fatal(err)
	}
	if n := countRows(t, st, fmt.Sprintf(`SELECT count(*) FROM sentences WHERE article_id = %d`, id)); n != 0 {
		t.Errorf("%d sentences written while their article was deleted are left behind", n)
	}
}
