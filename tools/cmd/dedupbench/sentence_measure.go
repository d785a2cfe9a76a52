package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// sentenceWarmups is how many lookups run, uncounted, before the measured
// ones.
const sentenceWarmups = 10

// sentenceBlockKeys names the sentence block keys' GIN index.
const sentenceBlockKeys = "sentences_block_keys_idx"

// measureSentenceLookups times each lookup once under EXPLAIN (ANALYZE,
// BUFFERS, FORMAT JSON) and once as a plain query whose rows the client
// reads, after prewarming the sentence indexes every lookup reads, and
// fills in res.
func measureSentenceLookups(ctx context.Context, db *sentenceDB, queries []sentenceLookup, res *SentenceLookupResult) error {
	if err := prewarm(ctx, db.Pool, "sentences"); err != nil {
		return err
	}
	// Every query sentence also probes the text hash's index, so a busy
	// server holds it too. (prewarm loads the block keys' index.)
	if _, err := db.Pool.Exec(ctx, `SELECT pg_prewarm('sentences_text_hash_idx')`); err != nil {
		return fmt.Errorf("prewarm the sentences' text hash index: %w", err)
	}
	conn, err := db.Pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("acquire a connection: %w", err)
	}
	defer conn.Release()
	for _, q := range queries[:min(sentenceWarmups, len(queries))] {
		if _, err := runSentenceLookup(ctx, conn, q); err != nil {
			return err
		}
	}

	var dbms, planning, client, buffers, sentences, returned, found []float64
	// res may be a copy of the first tier's result (growSentenceTier):
	// its counts start again.
	res.QueryKinds, res.Shapes = map[string]int{}, map[string]int{}
	res.BlockKeys, res.StoredQueries, res.StoredAllFound, res.StoredAllFoundOrCapped = 0, 0, 0, 0
	byKind := map[string][]float64{}
	for _, q := range queries {
		var out []byte
		if err := conn.QueryRow(ctx, "EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) "+q.SQL, q.Args...).Scan(&out); err != nil {
			return fmt.Errorf("explain the sentence lookup: %w", err)
		}
		e, err := parseExplain(out, "sentences")
		if err != nil {
			return err
		}
		keys, err := usesBlockKeys(out)
		if err != nil {
			return err
		}
		start := time.Now()
		got, err := runSentenceLookup(ctx, conn, q)
		if err != nil {
			return err
		}
		client = append(client, time.Since(start).Seconds()*1000)
		dbms, planning = append(dbms, e.ExecutionMS), append(planning, e.PlanningMS)
		buffers = append(buffers, e.SharedHit+e.SharedRead)
		sentences = append(sentences, float64(q.Sentences))
		returned, found = append(returned, float64(got.rows)), append(found, float64(len(got.found)))
		res.QueryKinds[q.Kind]++
		byKind[q.Kind] = append(byKind[q.Kind], e.ExecutionMS)
		res.Shapes[e.Shape]++
		if keys {
			res.BlockKeys++
		}
		if q.Kind == sentenceKindStored {
			res.StoredQueries++
			found, orCapped := got.ownFound(q.StoredID)
			if found == q.Sentences {
				res.StoredAllFound++
			}
			if orCapped == q.Sentences {
				res.StoredAllFoundOrCapped++
			}
		}
	}
	res.Queries = len(queries)
	res.DBMSByKind = map[string]Summary{}
	for kind, xs := range byKind {
		res.DBMSByKind[kind] = summarize(xs)
	}
	res.DBMS, res.PlanningMS, res.ClientMS = summarize(dbms), summarize(planning), summarize(client)
	res.Buffers = summarize(buffers)
	res.Sentences, res.Returned, res.Found = summarize(sentences), summarize(returned), summarize(found)
	return nil
}

// lookupRows is what a lookup returned: how many rows, and for each query
// sentence found, the articles it was found in.
type lookupRows struct {
	rows    int
	found   map[int32]map[int64]bool
	matches map[int32]int // rows per query sentence
}

// ownFound counts the query sentences found in article id, and those of
// them or not that reached the per-sentence limit: a sentence that many
// articles hold (boilerplate) returns the limit's first matches, which
// need not include article id's.
func (l lookupRows) ownFound(id int64) (found, foundOrCapped int) {
	for i, articles := range l.found {
		switch {
		case articles[id]:
			found++
			foundOrCapped++
		case l.matches[i] >= serviceSentencePerSentence:
			foundOrCapped++
		}
	}
	return found, foundOrCapped
}

// runSentenceLookup runs the service's statement and reads its rows (the
// first two columns: the query sentence and the article; the others are
// read and dropped, as the wire carries them all).
func runSentenceLookup(ctx context.Context, conn *pgxpool.Conn, q sentenceLookup) (lookupRows, error) {
	out := lookupRows{found: map[int32]map[int64]bool{}, matches: map[int32]int{}}
	rows, err := conn.Query(ctx, q.SQL, q.Args...)
	if err != nil {
		return out, fmt.Errorf("the sentence lookup: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		values, err := rows.Values()
		if err != nil {
			return out, fmt.Errorf("the sentence lookup: %w", err)
		}
		i, ok1 := values[0].(int32)
		article, ok2 := values[1].(int64)
		if !ok1 || !ok2 {
			return out, fmt.Errorf("the sentence lookup returned %T, %T first, not the query sentence and the article: has it changed?", values[0], values[1])
		}
		if out.found[i] == nil {
			out.found[i] = map[int64]bool{}
		}
		out.found[i][article] = true
		out.matches[i]++
		out.rows++
	}
	return out, rows.Err()
}

// usesBlockKeys reports whether a plan (EXPLAIN's JSON) asks the sentence
// block keys' GIN index for both families in one scan.
func usesBlockKeys(data []byte) (bool, error) {
	var docs []explainDoc
	if err := json.Unmarshal(data, &docs); err != nil || len(docs) != 1 {
		return false, fmt.Errorf("parse EXPLAIN output: %v", err)
	}
	found := false
	walk(docs[0].Plan, func(n *planNode) {
		if n.NodeType == "Bitmap Index Scan" && n.IndexName == sentenceBlockKeys &&
			strings.Contains(n.IndexCond, "[1:4]") && strings.Contains(n.IndexCond, "[5:8]") {
			found = true
		}
	})
	return found, nil
}
