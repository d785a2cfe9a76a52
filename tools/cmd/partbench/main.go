// Command partbench measures the sentence index in partitions
// (docs/scaling.md, "The sentence index in partitions"): the sentences of
// real articles (a JSON-lines corpus on stdin, fields title and text)
// stored once in each layout — one database searched directly, and 1, 2, 4
// … partition databases searched through PL/Proxy from a primary — and
// the same lookups (stored articles' sentences, each leaving its own
// article out, distance 3, 20 a sentence) timed in each, with the CPU of
// every process of the server summed. All databases live on the server of
// -server, whose postmaster pid -pidfile names (its postmaster.pid).
//
//	xz -dc /work/shared/corpora/sina2018-dev.jsonl.xz | go run ./cmd/partbench -server URL -pidfile PATH
//
// With -tiers (grow mode, grow.go) it stores the sentences over the one
// partition count of -parts and grows them with synthetic ones to each
// tier, timing the lookups at each; with -measure it times one search
// function (-fn) in one database, to set two layouts on the same rows
// against each other (docs/scaling.md, "Keys that earn their cost").
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/repo"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

func main() {
	server := flag.String("server", "", "URL of a database on the server to use (its own database is left alone)")
	pidfile := flag.String("pidfile", "", "the server's postmaster.pid, for its CPU")
	n := flag.Int("n", 10000, "articles to store")
	queries := flag.Int("queries", 200, "lookups (the first stored articles)")
	partsFlag := flag.String("parts", "1,2,4", "partition counts to measure")
	tiers := flag.String("tiers", "", "grow mode: sentences in all (comma-separated, rising; the real ones, then synthetic) over the one partition count of -parts, measured at each")
	measureDB := flag.String("measure", "", "measure mode: only time the lookups with -fn in this database (a partition the grow mode left)")
	fn := flag.String("fn", "sentence_part.search", "measure mode: the search function to time")
	flag.Parse()
	ctx := context.Background()
	run := run
	if *measureDB != "" {
		run = func(ctx context.Context, _, pidfile string, n, nq int, _ string) error {
			_, byArticle, err := readCorpus(ctx, n)
			if err != nil {
				return err
			}
			c, err := pgx.Connect(ctx, *measureDB)
			if err != nil {
				return err
			}
			defer c.Close(ctx)
			fmt.Printf("| layout | median ms | p90 ms | p99 ms | server CPU ms a lookup (all processes) |\n| --- | ---: | ---: | ---: | ---: |\n")
			return measure(ctx, c, *fn, *fn, byArticle[:nq], pidfile)
		}
	}
	if *tiers != "" {
		run = func(ctx context.Context, server, pidfile string, n, nq int, parts string) error {
			return grow(ctx, server, pidfile, n, nq, parts, *tiers)
		}
	}
	if err := run(ctx, *server, *pidfile, *n, *queries, *partsFlag); err != nil {
		log.Fatal(err)
	}
}

type sentence struct {
	article                int64
	pos, start, end, runes int32
	textHash               int64
	simhash                *int64
}

func run(ctx context.Context, server, pidfile string, n, nq int, partsFlag string) error {
	rows, byArticle, err := readCorpus(ctx, n)
	if err != nil {
		return err
	}

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
	// The primary: migrated, articles are not needed by the proxy's search.
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
	primary, err := pgx.Connect(ctx, dbURL("partbench"))
	if err != nil {
		return err
	}
	defer primary.Close(ctx)

	fmt.Printf("| layout | median ms | p90 ms | p99 ms | server CPU ms a lookup (all processes) |\n| --- | ---: | ---: | ---: | ---: |\n")
	for _, f := range strings.Split(partsFlag, ",") {
		p, err := strconv.Atoi(f)
		if err != nil {
			return err
		}
		var connstrs []string
		for k := range p {
			db := fmt.Sprintf("partbench_%d_%d", p, k)
			if err := create(db); err != nil {
				return err
			}
			if err := repo.PreparePartition(ctx, dbURL(db)); err != nil {
				return err
			}
			if err := load(ctx, dbURL(db), rows, p, k); err != nil {
				return err
			}
			connstrs = append(connstrs, fmt.Sprintf("host=%s port=%d dbname=%s user=%s", cfg.Host, cfg.Port, db, cfg.User))
		}
		if err := st.SetSentencePartitions(ctx, connstrs); err != nil {
			return err
		}
		// Direct: the one database's search, no proxy.
		if p == 1 {
			c, err := pgx.Connect(ctx, dbURL("partbench_1_0"))
			if err != nil {
				return err
			}
			if err := measure(ctx, c, "one database, direct", `sentence_part.search`, byArticle[:nq], pidfile); err != nil {
				return err
			}
			c.Close(ctx)
		}
		if err := measure(ctx, primary, fmt.Sprintf("%d partition(s) through PL/Proxy", p), `sentence_proxy.search`, byArticle[:nq], pidfile); err != nil {
			return err
		}
	}
	return nil
}

// readCorpus fingerprints the first n articles of the corpus on stdin
// and returns their sentence rows (article ids from 1) and each article's
// sentences.
func readCorpus(ctx context.Context, n int) ([]sentence, [][]fingerprint.Sentence, error) {
	dict, err := fingerprint.Load(fingerprint.DefaultDictDir())
	if err != nil {
		return nil, nil, err
	}
	alg := fingerprint.NewWeighted(dict, fingerprint.DefaultWeightedParams)
	var rows []sentence
	var byArticle [][]fingerprint.Sentence
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() && len(byArticle) < n {
		var a struct{ Title, Text string }
		if err := json.Unmarshal(sc.Bytes(), &a); err != nil {
			return nil, nil, err
		}
		fp, err := alg.Fingerprint(ctx, fingerprint.Document{Title: a.Title, Body: a.Text})
		if err != nil {
			continue // an article the service would refuse (no words)
		}
		id := int64(len(byArticle) + 1)
		for i, s := range fp.Sentences {
			r := sentence{article: id, pos: int32(i), start: int32(s.Start), end: int32(s.End), runes: int32(s.Runes), textHash: int64(s.TextHash)}
			if s.HasSimhash {
				h := int64(s.Simhash)
				r.simhash = &h
			}
			rows = append(rows, r)
		}
		byArticle = append(byArticle, fp.Sentences)
	}
	log.Printf("%d articles, %d sentences", len(byArticle), len(rows))

	return rows, byArticle, sc.Err()
}

// load copies the rows whose article hashes to partition k of p, as
// PL/Proxy's RUN ON hashint8(article_id) routes them, and analyses.
func load(ctx context.Context, url string, rows []sentence, p, k int) error {
	c, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer c.Close(ctx)
	_, err = c.CopyFrom(ctx, pgx.Identifier{"sentence_part", "sentences"},
		[]string{"article_id", "position", "start_char", "end_char", "runes", "text_hash", "simhash"},
		pgx.CopyFromSlice(len(rows), func(i int) ([]any, error) {
			r := rows[i]
			return []any{r.article, r.pos, r.start, r.end, r.runes, r.textHash, r.simhash}, nil
		}))
	if err != nil {
		return err
	}
	if _, err := c.Exec(ctx, `DELETE FROM sentence_part.sentences WHERE hashint8(article_id) & $1 <> $2`, p-1, k); err != nil {
		return err
	}
	_, err = c.Exec(ctx, `VACUUM ANALYZE sentence_part.sentences`)
	return err
}

// measure runs each article's lookup with fn twice (the first warms),
// and prints the second's latencies and the server's CPU a lookup.
func measure(ctx context.Context, c *pgx.Conn, label, fn string, articles [][]fingerprint.Sentence, pidfile string) error {
	sql := `SELECT count(*) FROM ` + fn + `($1::int4[], $2::int8[], $3::int8[], $4::int8, 3, 20)`
	var took []time.Duration
	var cpu0 float64
	for round := range 2 {
		if round == 1 {
			cpu0 = serverCPU(pidfile)
		}
		for i, ss := range articles {
			idx := make([]int32, len(ss))
			th := make([]int64, len(ss))
			sh := make([]*int64, len(ss))
			for j, s := range ss {
				idx[j], th[j] = int32(j), int64(s.TextHash)
				if s.HasSimhash {
					h := int64(s.Simhash)
					sh[j] = &h
				}
			}
			start := time.Now()
			var count int64
			if err := c.QueryRow(ctx, sql, idx, th, sh, int64(i+1)).Scan(&count); err != nil {
				return err
			}
			if round == 1 {
				took = append(took, time.Since(start))
			}
		}
	}
	cpu := (serverCPU(pidfile) - cpu0) / float64(len(articles))
	slices.Sort(took)
	q := func(f float64) float64 { return float64(took[int(f*float64(len(took)-1))].Microseconds()) / 1000 }
	fmt.Printf("| %s | %.2f | %.2f | %.2f | %.2f |\n", label, q(0.5), q(0.9), q(0.99), cpu)
	return nil
}

// serverCPU is the CPU time in ms of the postmaster's children so far
// (the live ones: the lookups' backends stay connected).
func serverCPU(pidfile string) float64 {
	b, err := os.ReadFile(pidfile)
	if err != nil {
		return 0
	}
	pm := strings.SplitN(string(b), "\n", 2)[0]
	procs, _ := filepath.Glob("/proc/[0-9]*/stat")
	var ticks float64
	for _, f := range procs {
		s, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		fields := strings.Fields(string(s[strings.LastIndexByte(string(s), ')')+2:]))
		// state ppid ... utime (14th field of the file, 12th here) stime
		if len(fields) < 13 || fields[1] != pm {
			continue
		}
		u, _ := strconv.ParseFloat(fields[11], 64)
		st, _ := strconv.ParseFloat(fields[12], 64)
		ticks += u + st
	}
	return ticks * 10 // 100 ticks a second
}
