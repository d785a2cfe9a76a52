package main

import (
	"context"
	"fmt"
	"sort"
	"strings"
)

// Each statement of the ingest, from pg_stat_statements, when the server
// preloads it (devdb does: tools/cmd/devdb). A run's database is reset
// just before its articles are sent and read just after, so the table is
// the ingest's own: the service's statements, not the migrations' nor the
// benchmark's counting. Tracking is "top": a statement run inside a
// function or trigger counts under the statement that called it.

// StatementStat is one statement's figures over one run.
type StatementStat struct {
	Query   string  `json:"query"`
	Calls   int64   `json:"calls"`
	TotalMS float64 `json:"total_exec_ms"`
	Rows    int64   `json:"rows"`
}

// statementsTop is how many statements, by total time, a run keeps.
const statementsTop = 25

// resetStatements empties pg_stat_statements for the database at pool's
// end; false when the server does not preload it (then nothing is kept).
func resetStatements(ctx context.Context, dbURL string) (bool, error) {
	pool, err := openPool(ctx, dbURL, 1)
	if err != nil {
		return false, err
	}
	defer pool.Close()
	var libs string
	if err := pool.QueryRow(ctx, `SELECT current_setting('shared_preload_libraries')`).Scan(&libs); err != nil {
		return false, fmt.Errorf("read shared_preload_libraries: %w", err)
	}
	if !strings.Contains(libs, "pg_stat_statements") {
		return false, nil
	}
	if _, err := pool.Exec(ctx, `CREATE EXTENSION IF NOT EXISTS pg_stat_statements`); err != nil {
		return false, fmt.Errorf("create pg_stat_statements: %w", err)
	}
	_, err = pool.Exec(ctx, `SELECT pg_stat_statements_reset(0, (SELECT oid FROM pg_database WHERE datname = current_database()), 0)`)
	if err != nil {
		return false, fmt.Errorf("reset pg_stat_statements: %w", err)
	}
	return true, nil
}

// readStatements returns the statementsTop statements of the database at
// dbURL by total execution time, the benchmark's own left out.
func readStatements(ctx context.Context, dbURL string) ([]StatementStat, error) {
	pool, err := openPool(ctx, dbURL, 1)
	if err != nil {
		return nil, err
	}
	defer pool.Close()
	rows, err := pool.Query(ctx, `
		SELECT query, calls, total_exec_time, rows
		FROM pg_stat_statements
		WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
		  AND query NOT LIKE '%pg_stat_statements%'
		ORDER BY total_exec_time DESC
		LIMIT $1`, statementsTop)
	if err != nil {
		return nil, fmt.Errorf("read pg_stat_statements: %w", err)
	}
	defer rows.Close()
	var out []StatementStat
	for rows.Next() {
		var s StatementStat
		if err := rows.Scan(&s.Query, &s.Calls, &s.TotalMS, &s.Rows); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// writeNewsStatements writes, for each batch measurement, its statements
// summed over its runs: calls, execution time and rows an article.
func writeNewsStatements(b *strings.Builder, r *NewsIngestResult) {
	w := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	header := false
	for _, m := range r.modesOf(newsBatch) {
		byQuery := map[string]*StatementStat{}
		sent := 0
		for _, run := range m.Runs {
			if run.Statements == nil {
				continue
			}
			sent += run.Sent
			for _, s := range run.Statements {
				t := byQuery[s.Query]
				if t == nil {
					t = &StatementStat{Query: s.Query}
					byQuery[s.Query] = t
				}
				t.Calls += s.Calls
				t.TotalMS += s.TotalMS
				t.Rows += s.Rows
			}
		}
		if sent == 0 {
			continue
		}
		if !header {
			w("### Each statement of the batch ingest\n\n")
			w("From `pg_stat_statements` (preloaded by devdb; tracking `top`, so a statement inside a function or trigger counts under its caller), reset just before each run's articles were sent, summed over the measurement's runs, the %d heaviest of each run by execution time. Execution time is the server's wall time in the executor (lock and I/O waits included, planning not), not its CPU time.\n\n", statementsTop)
			header = true
		}
		list := make([]*StatementStat, 0, len(byQuery))
		all := 0.0
		for _, s := range byQuery {
			list = append(list, s)
			all += s.TotalMS
		}
		sort.Slice(list, func(i, j int) bool { return list[i].TotalMS > list[j].TotalMS })
		n := float64(sent)
		w("**Sentence index %s, %d clients** (%s articles; these statements %.3f ms an article):\n\n", onOff(m.Sentences), m.Clients, num(sent), all/n)
		w("| statement | calls an article | ms an article | ms a call | rows a call |\n| --- | ---: | ---: | ---: | ---: |\n")
		for _, s := range list {
			w("| `%s` | %.2f | %.3f | %.3f | %.1f |\n", shortQuery(s.Query), float64(s.Calls)/n, s.TotalMS/n,
				s.TotalMS/float64(max(s.Calls, 1)), float64(s.Rows)/float64(max(s.Calls, 1)))
		}
		w("\n")
	}
	if !header && len(r.modesOf(newsBatch)) > 0 {
		w("### Each statement of the batch ingest\n\nNot measured: the server does not preload `pg_stat_statements` (devdb's cluster does; restart it with `make db-stop` if it was started before it did).\n\n")
	}
}

// shortQuery is a statement on one line, at most 110 characters, fit for a
// table cell.
func shortQuery(q string) string {
	q = strings.Join(strings.Fields(q), " ")
	q = strings.ReplaceAll(q, "|", `\|`)
	q = strings.ReplaceAll(q, "`", "'")
	if r := []rune(q); len(r) > 110 {
		q = string(r[:110]) + "…"
	}
	return q
}
