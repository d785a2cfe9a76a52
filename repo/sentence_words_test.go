package repo_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestSentencesWithoutWords checks what migration 00014 promises: the
// store writes its sentences without their words (NULL, which takes no
// room), and a binary from before it, which still writes them, keeps
// working on the new schema while a new one is deployed.
func TestSentencesWithoutWords(t *testing.T) {
	st := newStore(t, 2)
	ctx := context.Background()
	ids, sentences := storeUnrelated(t, st, 1)
	id := ids[0]
	if n := countRows(t, st, fmt.Sprintf(`SELECT count(*) FROM sentences WHERE article_id = %d AND words IS NOT NULL`, id)); n != 0 {
		t.Errorf("%d of article %d's %d sentences were stored with their words", n, id, sentences[id])
	}

	// A sentence as the binary before migration 00014 wrote it: every
	// column, the words too, by COPY.
	before := []string{"article_id", "position", "start_char", "end_char", "runes", "text_hash", "simhash",
		"a0", "a1", "a2", "a3", "b0", "b1", "b2", "b3", "words"}
	row := []any{id, int32(sentences[id]), int32(0), int32(12), int32(12), int64(42), int64(7),
		int16(1), int16(2), int16(3), int16(4), int16(5), int16(6), int16(7), int16(8), []int64{11, 12, 13, 14}}
	if _, err := st.Pool().CopyFrom(ctx, pgx.Identifier{"sentences"}, before, pgx.CopyFromRows([][]any{row})); err != nil {
		t.Fatalf("a sentence written as before migration 00014: %v", err)
	}
	if n := countRows(t, st, fmt.Sprintf(`SELECT count(*) FROM sentences WHERE article_id = %d AND words = '{11,12,13,14}'`, id)); n != 1 {
		t.Errorf("%d sentences stored with the words written, want 1", n)
	}
}
