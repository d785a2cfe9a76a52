package main

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/newsdedup/newsdedup/internal/samples"
	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// The fixture: days of news, each day's articles published over the day,
// a given number of them in clusters of 2 to 120 members (most of 2 or 3),
// the rest alone. Sources follow a steep popularity curve, with a tail of
// rare ones. Articles are stored straight into the table with COPY, as
// unique ones, then linked into their clusters day by day with UPDATE, as
// the service would have linked them (a member links to its head or to an
// earlier member). The triggers of migration 00009 keep the clusters' list
// up to date through the UPDATEs, as they do for the service's writes.

// sources are the fixture's sources with their weights: a few big
// agencies and portals, then a tail of rare ones.
var sources = func() []weighted {
	s := []weighted{
		{"xinhua", 30}, {"people", 18}, {"cctv", 15}, {"chinanews", 12}, {"sina", 12}, {"163", 10}, {"qq", 10},
		{"sohu", 8}, {"ifeng", 7}, {"thepaper", 6}, {"caixin", 4}, {"yicai", 4}, {"jiemian", 3}, {"bjnews", 3},
		{"gmw", 2}, {"cnr", 2}, {"youth", 2}, {"chinadaily", 2}, {"huanqiu", 2}, {"stcn", 1},
	}
	for i := range 10 {
		s = append(s, weighted{fmt.Sprintf("rare-%02d", i+1), 0.05})
	}
	return s
}()

type weighted struct {
	name   string
	weight float64
}

func pick(rng *rand.Rand, ws []weighted) string {
	total := 0.0
	for _, w := range ws {
		total += w.weight
	}
	x := rng.Float64() * total
	for _, w := range ws {
		if x -= w.weight; x < 0 {
			return w.name
		}
	}
	return ws[len(ws)-1].name
}

// clusterSize draws a cluster's size: half of them 2, a quarter 3, then a
// long tail up to 120.
func clusterSize(rng *rand.Rand) int {
	switch x := rng.Float64(); {
	case x < 0.5:
		return 2
	case x < 0.75:
		return 3
	case x < 0.9:
		return 4 + rng.IntN(3)
	case x < 0.99:
		return 7 + rng.IntN(14)
	default:
		return 21 + rng.IntN(100)
	}
}

// sentences are the sample stories' sentences, to make bodies of.
var sentences = func() []string {
	var out []string
	for _, s := range samples.Stories {
		for _, part := range strings.Split(strings.ReplaceAll(s.Body, "\n", ""), "。") {
			if part != "" {
				out = append(out, part+"。")
			}
		}
	}
	return out
}()

func body(rng *rand.Rand) string {
	var b strings.Builder
	for range 3 + rng.IntN(8) {
		b.WriteString(sentences[rng.IntN(len(sentences))])
		if rng.IntN(3) == 0 {
			b.WriteString("\n")
		}
	}
	return b.String()
}

// credits are the credit classes a copy is given, drawn evenly: the
// copyright desk's report counts each.
var credits = []service.Credit{service.CreditCredited, service.CreditCreditsOther, service.CreditUncredited}

// row is one article of the fixture.
type row struct {
	source, externalID, title, body string
	published, ingested             time.Time
}

// link is how a member of a cluster links into it.
type link struct {
	source, externalID         string
	toSource, toExternalID     string // the article it links to
	headSource, headExternalID string
	status                     service.Status
	distance                   int
	ratio, overlap             float64
	credit                     service.Credit // how the copy credits what it links to: the copyright desk's report counts it
}

// day makes the articles of day d, in the order they are ingested, and the
// links of its clusters.
func day(rng *rand.Rand, vocab *vocabulary, d int, start time.Time, perDay, clusters int) ([]row, []link) {
	dayStart := start.AddDate(0, 0, d)
	var rows []row
	var links []link
	type member struct{ source, id string }
	n := 0
	newRow := func(title, text string, published time.Time) row {
		n++
		return row{source: pick(rng, sources), externalID: fmt.Sprintf("d%03d-%05d", d, n), title: title, body: text,
			published: published, ingested: published.Add(time.Duration(1+rng.IntN(120)) * time.Second)}
	}
	left := perDay
	for c := 0; c < clusters && left >= 2; c++ {
		size := min(clusterSize(rng), left)
		left -= size
		published := dayStart.Add(time.Duration(rng.IntN(22*3600)) * time.Second)
		text := body(rng)
		title := vocab.headline(rng)
		if c == 0 { // one story a day with a headline of this project's samples
			title = samples.Stories[d%len(samples.Stories)].Title
		}
		head := newRow(title, text, published)
		rows = append(rows, head)
		members := []member{{head.source, head.externalID}}
		for range size - 1 {
			published = published.Add(time.Duration(3+rng.IntN(90)) * time.Minute) // after the head's ingestion
			copyText := text
			switch rng.IntN(4) {
			case 0:
				copyText = samples.Byline + "\n" + text
			case 1:
				copyText = text + "\n" + samples.EditorLine
			}
			r := newRow(title, copyText, published)
			rows = append(rows, r)
			to := members[0]
			if rng.IntN(10) < 3 {
				to = members[rng.IntN(len(members))]
			}
			l := link{source: r.source, externalID: r.externalID, toSource: to.source, toExternalID: to.id,
				headSource: head.source, headExternalID: head.externalID,
				status: service.StatusNearDuplicate, distance: 1 + rng.IntN(3), ratio: 0.7 + 0.3*rng.Float64(), overlap: 0.6 + 0.4*rng.Float64()}
			if copyText == text {
				l.status, l.distance, l.ratio, l.overlap = service.StatusExactDuplicate, 0, 1, 1
			}
			l.credit = credits[rng.IntN(len(credits))]
			links = append(links, l)
			members = append(members, member{r.source, r.externalID})
		}
	}
	for range left {
		rows = append(rows, newRow(vocab.headline(rng), body(rng), dayStart.Add(time.Duration(rng.IntN(24*3600))*time.Second)))
	}
	// Ingested in order of publication, so that each head is its
	// cluster's earliest member.
	sortRows(rows)
	return rows, links
}

func sortRows(rows []row) {
	slices.SortFunc(rows, func(a, b row) int { return a.ingested.Compare(b.ingested) })
}

// copyColumns are the columns the fixture fills; the others take their
// defaults.
var copyColumns = []string{
	"source", "external_id", "title", "url", "body", "published_at", "ingested_at",
	"content_hash", "simhash", "fingerprint_version", "words", "shingles", "status",
	"a0", "a1", "a2", "a3", "b0", "b1", "b2", "b3",
}

// values are the row's values in copyColumns' order, with a random
// fingerprint: the page reads only the stored words and shingles of the
// articles it compares.
func values(rng *rand.Rand, r row) []any {
	simhash := rng.Uint64()
	words := make([]int64, 64)
	for i := range words {
		words[i] = int64(rng.Uint64())
	}
	shingles := make([]int32, len([]rune(r.body))/4)
	for i := range shingles {
		shingles[i] = int32(rng.Uint32())
	}
	hash := sha256.Sum256([]byte(r.source + "\x00" + r.externalID))
	v := []any{r.source, r.externalID, r.title, "https://news.example.com/" + r.source + "/" + r.externalID, r.body,
		r.published, r.ingested, hash[:], int64(simhash), int16(fingerprint.VersionOneScript), words, shingles, string(service.StatusUnique)}
	b := fingerprint.BlocksOf(simhash)
	for _, x := range b.A {
		v = append(v, int16(x))
	}
	for _, x := range b.B {
		v = append(v, int16(x))
	}
	return v
}

// load fills the database with the fixture, reporting its progress to log.
func load(ctx context.Context, pool *pgxpool.Pool, cfg config, log io.Writer) error {
	rng := rand.New(rand.NewPCG(2026, 14))
	vocab, err := loadVocabulary()
	if err != nil {
		return err
	}
	// The last day is today (in UTC), so that the overview has a today.
	today := time.Now().UTC().Truncate(24 * time.Hour)
	start := today.AddDate(0, 0, 1-cfg.days)
	perDay := cfg.articles / cfg.days
	began := time.Now()
	for d := range cfg.days {
		rows, links := day(rng, vocab, d, start, perDay, cfg.clustersPerDay)
		i := 0
		_, err := pool.CopyFrom(ctx, pgx.Identifier{"articles"}, copyColumns, pgx.CopyFromFunc(func() ([]any, error) {
			if i == len(rows) {
				return nil, nil
			}
			i++
			return values(rng, rows[i-1]), nil
		}))
		if err != nil {
			return fmt.Errorf("copy day %d: %w", d, err)
		}
		if err := linkDay(ctx, pool, links); err != nil {
			return fmt.Errorf("link day %d: %w", d, err)
		}
		if d%10 == 9 || d == cfg.days-1 {
			fmt.Fprintf(log, "  loaded %d of %d days (%d articles) in %s\n", d+1, cfg.days, (d+1)*perDay, time.Since(began).Round(time.Second))
		}
	}
	return nil
}

// linkDay links a day's cluster members, in one UPDATE, through a
// temporary table of the links.
func linkDay(ctx context.Context, pool *pgxpool.Pool, links []link) error {
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `CREATE TEMP TABLE links (source text, external_id text, to_source text, to_external_id text,
		head_source text, head_external_id text, status text, distance smallint, word_ratio real, overlap real, credit text) ON COMMIT DROP`); err != nil {
		return err
	}
	i := 0
	_, err = tx.CopyFrom(ctx, pgx.Identifier{"links"},
		[]string{"source", "external_id", "to_source", "to_external_id", "head_source", "head_external_id", "status", "distance", "word_ratio", "overlap", "credit"},
		pgx.CopyFromFunc(func() ([]any, error) {
			if i == len(links) {
				return nil, nil
			}
			l := links[i]
			i++
			return []any{l.source, l.externalID, l.toSource, l.toExternalID, l.headSource, l.headExternalID, string(l.status),
				int16(l.distance), float32(l.ratio), float32(l.overlap), string(l.credit)}, nil
		}))
	if err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `
		UPDATE articles a SET duplicate_of = t.id, cluster_head = h.id, status = l.status,
		       distance = l.distance, word_ratio = l.word_ratio, overlap = l.overlap, credit = l.credit
		FROM links l
		JOIN articles t ON (t.source, t.external_id) = (l.to_source, l.to_external_id)
		JOIN articles h ON (h.source, h.external_id) = (l.head_source, l.head_external_id)
		WHERE (a.source, a.external_id) = (l.source, l.external_id)`); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// longBytes is how long lengthenHeads makes a head: a compilation of 2 MB,
// the size that made the list of issue 44 take two seconds.
const longBytes = 2 << 20

// lengthenHeads makes the heads of the n newest clusters (the list's first
// pages) compilations of longBytes: their text repeated, and as many
// sampled 5-grams as such a text has (a quarter of its characters, random,
// in their stored order) — what the list would weigh if it read them.
func lengthenHeads(ctx context.Context, pool *pgxpool.Pool, n int) error {
	if n <= 0 {
		return nil
	}
	_, err := pool.Exec(ctx, `
		WITH long AS (
		    SELECT cluster_id FROM cluster_listing ORDER BY published_at DESC, cluster_id DESC LIMIT $1
		)
		UPDATE articles a
		SET body = repeat(a.body || E'\n', $2 / (octet_length(a.body) + 1)),
		    shingles = ARRAY(SELECT g FROM (
		        SELECT (floor(random() * 4294967296) - 2147483648)::int4 AS g FROM generate_series(1, $2 / 12)
		    ) s ORDER BY g::bigint & 4294967295)
		FROM long
		WHERE a.id = long.cluster_id`, n, longBytes)
	if err != nil {
		return fmt.Errorf("lengthen %d heads: %w", n, err)
	}
	return nil
}
