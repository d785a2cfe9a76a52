package repo_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/service"
)

// TestSentencePartitionsSweepRecent runs the incremental sweep after its
// first (full) pass: it deletes the rows of an ingest rolled back since and
// every row of an article deleted since, though that article's rows were
// written long before the last pass; it keeps a stored article's rows; and
// it does not read the rows written before its last pass, so an orphan row
// planted there is left, for the full pass to delete.
func TestSentencePartitionsSweepRecent(t *testing.T) {
	ctx := context.Background()
	st, urls := partitionedStore(t, 2)
	svc := newService(t, st)
	arts := novel(t).Overlapping(rand.New(rand.NewPCG(49, 53)), 3, 400, 800)
	kept := mustFingerprint(t, arts[0])
	if _, err := svc.Ingest(ctx, input("kept", arts[0]), service.DefaultOptions); err != nil {
		t.Fatal(err)
	}
	deleted := mustFingerprint(t, arts[1])
	v, err := svc.Ingest(ctx, input("deleted", arts[1]), service.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := st.SweepRecentPartitionSentences(ctx, 0); err != nil || n != 0 {
		t.Fatalf("first sweep (a full pass): %d, %v; want 0, nil", n, err)
	}

	// Every row so far written two hours ago, before the last pass; one
	// more of an article that never existed (id 0), with no recorded
	// delete, on the partition id 0 routes to.
	var home int
	if err := st.Pool().QueryRow(ctx, `SELECT hashint8(0) & 1`).Scan(&home); err != nil {
		t.Fatal(err)
	}
	for i, u := range urls {
		c, err := pgx.Connect(ctx, u)
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Exec(ctx, `UPDATE sentence_part.sentences SET written_at = now() - interval '2 hours'`)
		if err == nil && i == home {
			_, err = c.Exec(ctx, `INSERT INTO sentence_part.sentences (article_id, position, start_char, end_char, runes, text_hash, written_at)
				VALUES (0, 0, 0, 10, 10, 42, now() - interval '2 hours')`)
		}
		c.Close(ctx)
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := st.InTx(ctx, func(tx service.Tx) error { return tx.Delete(ctx, v.ID) }); err != nil {
		t.Fatal(err)
	}
	a := arts[2]
	fp := mustFingerprint(t, a)
	insertRolledBack(t, st, a, fp)
	rows := func() int {
		n := 0
		for _, u := range urls {
			n += partitionRows(t, u)
		}
		return n
	}
	if got, want := rows(), len(kept.Sentences)+len(deleted.Sentences)+len(fp.Sentences)+1; got != want {
		t.Fatalf("the partitions hold %d rows before the sweep, want %d", got, want)
	}

	if n, err := st.SweepRecentPartitionSentences(ctx, 3600e9); err != nil || n != len(deleted.Sentences) {
		t.Errorf("sweep leaving unsettled rows: %d, %v; want the deleted article's %d", n, err, len(deleted.Sentences))
	}
	if n, err := st.SweepRecentPartitionSentences(ctx, 0); err != nil || n != len(fp.Sentences) {
		t.Errorf("sweep: %d, %v; want the rolled-back ingest's %d", n, err, len(fp.Sentences))
	}
	if got, want := rows(), len(kept.Sentences)+1; got != want {
		t.Errorf("after the incremental sweep the partitions hold %d rows, want the stored article's %d and the planted one", got, want-1)
	}
	var departed int
	if err := st.Pool().QueryRow(ctx, `SELECT count(*) FROM sentence_partition_departed`).Scan(&departed); err != nil || departed != 0 {
		t.Errorf("deleted articles left to sweep: %d, %v", departed, err)
	}
	if n, err := st.SweepPartitionSentences(ctx, 0); err != nil || n != 1 {
		t.Errorf("full sweep: %d, %v; want the planted row", n, err)
	}
	if got := rows(); got != len(kept.Sentences) {
		t.Errorf("after the full sweep the partitions hold %d rows, want the stored article's %d", got, len(kept.Sentences))
	}
}
