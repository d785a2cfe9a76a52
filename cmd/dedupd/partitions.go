package main

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/newsdedup/newsdedup/repo"
)

// partitions runs "dedupd partitions ACTION": the operator's tools of the
// sentence index in partitions (repo/sentence_partitions*.go,
// docs/operations.md, "Sentence partitions"). A running service follows
// every change within a second.
func (a *app) partitions(ctx context.Context, cfg Config, args []string) error {
	if len(args) == 0 {
		return usageError{"partitions needs one of list, set, move, split, sweep"}
	}
	action, rest := args[0], args[1:]
	switch action {
	case "list", "sweep":
		if len(rest) > 0 {
			return usageError{"partitions " + action + " takes no arguments"}
		}
	case "set":
	case "move":
		if len(rest) != 2 {
			return usageError{"partitions move needs a partition number and a connection string"}
		}
	case "split":
		if len(rest) == 0 {
			return usageError{"partitions split needs one connection string for each partition there is"}
		}
	default:
		return usageError{fmt.Sprintf("unknown partitions action %q: want list, set, move, split or sweep", action)}
	}
	st, err := repo.Open(ctx, cfg.DatabaseURL, repo.Options{MaxConns: 2})
	if err != nil {
		return err
	}
	defer st.Close()
	switch action {
	case "list":
		connstrs, err := st.SentencePartitions(ctx)
		if err != nil {
			return err
		}
		if len(connstrs) == 0 {
			fmt.Fprintln(a.stdout, "no partitions: the table sentences answers alone")
		}
		for p, c := range connstrs {
			fmt.Fprintf(a.stdout, "%d\t%s\n", p, c)
		}
		return nil
	case "set":
		// Each partition gets this release's schema and functions first
		// (the script may run again): after an upgrade, set the same
		// partitions again.
		for p, c := range rest {
			if err := repo.PreparePartition(ctx, c); err != nil {
				return fmt.Errorf("partition %d: %w", p, err)
			}
		}
		if err := st.SetSentencePartitions(ctx, rest); err != nil {
			return err
		}
		fmt.Fprintf(a.stdout, "%d sentence partitions set\n", len(rest))
		return nil
	case "sweep":
		n, err := st.SweepPartitionSentences(ctx, partitionSweepSettled)
		if err != nil {
			return err
		}
		r, err := st.RepairPartitionSentences(ctx, partitionRepairWindow, partitionSweepSettled)
		if err != nil {
			return err
		}
		fmt.Fprintf(a.stdout, "swept %d rows; wrote again the rows of %d articles whose correction rolled back\n", n, r)
		return nil
	case "move":
		part, err := strconv.Atoi(rest[0])
		if err != nil {
			return usageError{fmt.Sprintf("partitions move: partition %q is not a number", rest[0])}
		}
		m, err := st.MovePartition(ctx, part, rest[1])
		if err != nil {
			return err
		}
		fmt.Fprintf(a.stdout, "moved partition %d: %d rows, copied in %s, writes paused %s\n",
			part, m.Rows, m.Copy.Round(time.Millisecond), m.Pause.Round(time.Millisecond))
		return nil
	default: // split
		m, err := st.SplitPartitions(ctx, rest)
		if err != nil {
			return err
		}
		fmt.Fprintf(a.stdout, "split into %d partitions: %d rows moved, copied in %s, writes paused %s, moved rows deleted in %s\n",
			2*len(rest), m.Rows, m.Copy.Round(time.Millisecond), m.Pause.Round(time.Millisecond), m.Tidy.Round(time.Millisecond))
		return nil
	}
}
