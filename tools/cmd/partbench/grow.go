package main

import (
	"context"
	"fmt"
	"log"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"golang.org/x/sync/errgroup"

	"github.com/newsdedup/newsdedup/repo"
)

// grow is partbench's grow mode (-tiers): the real sentences over parts
// partitions, then synthetic ones added on each partition (written by the
// partition's server itself, with its indexes in place, as ingest grows
// them) up to each tier's total, and at each tier the lookups timed through
// PL/Proxy and, for comparison, on partition 0 alone. Synthetic rows are
// articles of 31 sentences, random text hashes, uniformly random simhashes
// for the share of real sentences that have one (80.5 % of the corpora's):
// what makes a near key's posting list long. Every article's rows go to the
// partition its id hashes to, as the proxy routes writes.
func grow(ctx context.Context, server, pidfile string, n, nq int, partsFlag, tiersFlag string) error {
	p, err := strconv.Atoi(partsFlag)
	if err != nil || p < 1 || p&(p-1) != 0 {
		return fmt.Errorf("grow mode needs one partition count, a power of 2, in -parts: %q", partsFlag)
	}
	var tiers []int64
	for _, f := range strings.Split(tiersFlag, ",") {
		t, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
		if err != nil {
			return err
		}
		tiers = append(tiers, t)
	}
	rows, byArticle, err := readCorpus(ctx, n)
	if err != nil {
		return err
	}
	log.Printf("%d articles, %d sentences", len(byArticle), len(rows))
	admin, err := pgx.Connect(ctx, server)
	if err != nil {
		return err
	}
	defer admin.Close(ctx)
	cfg := admin.Config()
	dbURL := func(db string) string {
		return fmt.Sprintf("postgres://%s@%s:%d/%s?sslmode=disable", cfg.User, cfg.Host, cfg.Port, db)
	}
	create := func(db string) error {
		if _, err := admin.Exec(ctx, "DROP DATABASE IF EXISTS "+db+" WITH (FORCE)"); err != nil {
			return err
		}
		_, err := admin.Exec(ctx, "CREATE DATABASE "+db)
		return err
	}
	if err := create("partbench"); err != nil {
		return err
	}
	m, err := repo.NewMigrator(dbURL("partbench"))
	if err != nil {
		return err
	}
	if _, err := m.Up(ctx); err != nil {
		return err
	}
	m.Close()
	st, err := repo.Open(ctx, dbURL("partbench"), repo.Options{MaxConns: 2})
	if err != nil {
		return err
	}
	defer st.Close()
	var connstrs []string
	conns := make([]*pgx.Conn, p)
	for k := range p {
		db := fmt.Sprintf("partbench_grow_%d", k)
		if err := create(db); err != nil {
			return err
		}
		if err := repo.PreparePartition(ctx, dbURL(db)); err != nil {
			return err
		}
		if err := load(ctx, dbURL(db), rows, p, k); err != nil {
			return err
		}
		if conns[k], err = pgx.Connect(ctx, dbURL(db)); err != nil {
			return err
		}
		defer conns[k].Close(ctx)
		connstrs = append(connstrs, fmt.Sprintf("host=%s port=%d dbname=%s user=%s", cfg.Host, cfg.Port, db, cfg.User))
	}
	if err := st.SetSentencePartitions(ctx, connstrs); err != nil {
		return err
	}
	primary, err := pgx.Connect(ctx, dbURL("partbench"))
	if err != nil {
		return err
	}
	defer primary.Close(ctx)

	total := int64(len(rows))
	nextID := int64(100_000_000) // synthetic article ids, apart from the real ones
	fmt.Printf("| sentences in all | layout | median ms | p90 ms | p99 ms | server CPU ms a lookup (all processes) |\n| ---: | --- | ---: | ---: | ---: | ---: |\n")
	for _, tier := range tiers {
		started := time.Now()
		for total < tier {
			// A step of at most 4,000,000 rows, its articles' ids dealt to
			// the partitions by hash, each partition writing its own.
			articles := min((tier-total+30)/31, 4_000_000/31)
			lo, hi := nextID, nextID+articles
			nextID = hi
			added := make([]int64, p)
			g, gctx := errgroup.WithContext(ctx)
			for k := range p {
				g.Go(func() error {
					tag, err := conns[k].Exec(gctx, `
						INSERT INTO sentence_part.sentences (article_id, position, start_char, end_char, runes, text_hash, simhash)
						SELECT a, pos, pos * 60, pos * 60 + 20 + r, 20 + r,
						       ((random() * 4294967296)::int8 - 2147483648) << 32 | (random() * 4294967295)::int8,
						       CASE WHEN random() < 0.805 THEN ((random() * 4294967296)::int8 - 2147483648) << 32 | (random() * 4294967295)::int8 END
						FROM generate_series($1::int8, $2::int8 - 1) AS a,
						     generate_series(0, 30) AS pos,
						     LATERAL (SELECT (random() * 40)::int + 0 * pos AS r) AS x
						WHERE hashint8(a) & $3 = $4`, lo, hi, p-1, k)
					added[k] = tag.RowsAffected()
					return err
				})
			}
			if err := g.Wait(); err != nil {
				return err
			}
			for _, a := range added {
				total += a
			}
			log.Printf("%d sentences (%s)", total, time.Since(started).Round(time.Second))
		}
		for _, c := range conns {
			if _, err := c.Exec(ctx, `VACUUM ANALYZE sentence_part.sentences`); err != nil {
				return err
			}
		}
		var bytes int64
		for _, c := range conns {
			var b int64
			if err := c.QueryRow(ctx, `SELECT pg_total_relation_size('sentence_part.sentences')`).Scan(&b); err != nil {
				return err
			}
			bytes += b
		}
		log.Printf("tier %d: %d sentences, %.1f bytes a sentence with its indexes, grown in %s", tier, total, float64(bytes)/float64(total), time.Since(started).Round(time.Second))
		label := func(s string) string { return fmt.Sprintf("%d | %s", total, s) }
		if err := measure(ctx, primary, label(fmt.Sprintf("%d partitions through PL/Proxy", p)), `sentence_proxy.search`, byArticle[:nq], pidfile); err != nil {
			return err
		}
		if err := measure(ctx, conns[0], label("partition 0 alone, directly"), `sentence_part.search`, byArticle[:nq], pidfile); err != nil {
			return err
		}
	}
	return nil
}
