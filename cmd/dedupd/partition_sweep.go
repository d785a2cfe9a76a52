package main

import (
	"context"
	"log/slog"
	"time"

	"github.com/newsdedup/newsdedup/repo"
)

// The sweep of the sentence partitions' rows of articles that do not exist
// (ingests rolled back after their partition write; articles deleted):
// repo/sentence_partitions_sweep.go. The searches already leave them out;
// the sweep frees their space, reading only the rows written since its last
// pass and the articles deleted since (the first pass after migration 00052
// reads every id; so does `dedupd partitions sweep`). Then the rows of
// corrections rolled back are written again from the primary's table.
// Without partitions it costs one count.
const (
	// partitionSweepEvery is how often the sweep runs.
	partitionSweepEvery = 10 * time.Minute
	// partitionSweepSettled is how old a row must be to be swept: longer
	// than any transaction of an ingest lasts (bounded by the request's
	// deadline and the statement timeout), so that none still open loses
	// the rows it wrote.
	partitionSweepSettled = 10 * time.Minute
	// partitionRepairWindow is how far back the repair of rolled-back
	// corrections looks (repo/sentence_partitions_repair.go): several
	// sweeps' worth, so that a sweep missed or failed is made up.
	partitionRepairWindow = time.Hour
)

// sweepPartitions runs the sweep every partitionSweepEvery until ctx ends.
func sweepPartitions(ctx context.Context, st *repo.Store, log *slog.Logger) {
	t := time.NewTicker(partitionSweepEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		n, err := st.SweepRecentPartitionSentences(ctx, partitionSweepSettled)
		switch {
		case err != nil && ctx.Err() == nil:
			log.Warn("sweep of the sentence partitions failed; it runs again later", "err", err)
		case n > 0:
			log.Info("swept the sentence partitions", "rows", n)
		}
		n, err = st.RepairPartitionSentences(ctx, partitionRepairWindow, partitionSweepSettled)
		switch {
		case err != nil && ctx.Err() == nil:
			log.Warn("repair of the sentence partitions failed; it runs again later", "err", err)
		case n > 0:
			log.Info("repaired the sentence partitions' rows of rolled-back corrections", "articles", n)
		}
	}
}
