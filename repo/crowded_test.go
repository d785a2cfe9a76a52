package repo_test

import (
	"context"
	"crypto/sha256"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/repo"
	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// crowd is a neighbourhood of stored fingerprints around one article: decoys
// one bit from it that share none of its text, and copies two bits from it
// that share all of it. Its store counts the statements that read
// candidates by id (Reader.Candidates).
type crowd struct {
	store   *repo.Store
	reads   *statementCounter
	article service.ArticleInput
	other   service.ArticleInput // the article whose text the decoys share
	fp      fingerprint.Fingerprint
	copies  map[int64]bool // the ids of the copies
	decoys  int
	version fingerprint.Version
}

// buildCrowd stores decoys and copies around an article of the novel (not
// stored itself), straight into the table.
func buildCrowd(t *testing.T, decoys, copies int) *crowd {
	t.Helper()
	ctx := context.Background()
	st, reads := openCountingStore(t, 4, func(sql string) bool { return strings.Contains(sql, "from articles where id = any") })
	rng := rand.New(rand.NewPCG(20261125, 7))
	texts := novel(t).Originals(rng, 2, 600, 1200)
	if len(texts) < 2 {
		t.Fatal("the novel gave fewer than two articles")
	}
	fp, other := mustFingerprint(t, texts[0]), mustFingerprint(t, texts[1])
	published := time.Now().UTC().Add(-time.Hour)
	var rows []repo.CopyRow
	add := func(kind string, i int, h uint64, like fingerprint.Fingerprint) {
		id := kind + "-" + strconv.Itoa(i)
		rows = append(rows, repo.CopyRow{Article: service.Article{
			Source: "fixture", ExternalID: id, PublishedAt: published,
			Simhash: h, FingerprintVersion: fp.Version,
			Words: like.Words, Shingles: like.Shingles, ContentHash: sha256.Sum256([]byte(id)),
		}})
	}
	for i := range decoys {
		add("decoy", i, flipBits(rng, fp.Simhash, 1), other)
	}
	for i := range copies {
		add("copy", i, flipBits(rng, fp.Simhash, 2), fp)
	}
	if _, err := st.CopyArticles(ctx, rows); err != nil {
		t.Fatal(err)
	}
	c := &crowd{store: st, reads: reads, fp: fp, copies: map[int64]bool{}, decoys: decoys, version: fp.Version,
		article: service.ArticleInput{Text: service.Text{Title: texts[0].Title, Body: texts[0].Body}, Source: "test", PublishedAt: published},
		other:   service.ArticleInput{Text: service.Text{Title: texts[1].Title, Body: texts[1].Body}, Source: "test", PublishedAt: published}}
	ids, err := st.Pool().Query(ctx, `SELECT id FROM articles WHERE external_id LIKE 'copy-%'`)
	if err != nil {
		t.Fatal(err)
	}
	defer ids.Close()
	for ids.Next() {
		var id int64
		if err := ids.Scan(&id); err != nil {
			t.Fatal(err)
		}
		c.copies[id] = true
	}
	if err := ids.Err(); err != nil {
		t.Fatal(err)
	}
	return c
}

// TestNearCandidatesReadTheSetsOfTheClosest checks SetsFor: whole distance
// levels read with their sets, the farther ones without.
func TestNearCandidatesReadTheSetsOfTheClosest(t *testing.T) {
	c := buildCrowd(t, 80, 30)
	for _, tc := range []struct {
		setsFor  int
		omitted  int // candidates without their sets: the 30 copies, or none
		readCopy bool
	}{
		{setsFor: 0, omitted: 0, readCopy: true},  // all
		{setsFor: 10, omitted: 30},                // the level of the 80 decoys whole
		{setsFor: 80, omitted: 30},                // 80 closer than each copy: not read
		{setsFor: 81, omitted: 0, readCopy: true}, // fewer than 81 closer: read
		{setsFor: 1000, omitted: 0, readCopy: true},
	} {
		got, err := c.store.NearCandidates(context.Background(), []service.NearQuery{{
			Simhash: c.fp.Simhash, Version: c.version, MaxDistance: 3, Limit: 1000, SetsFor: tc.setsFor,
		}})
		if err != nil {
			t.Fatal(err)
		}
		if len(got[0]) != 110 {
			t.Fatalf("SetsFor %d: %d candidates, want 110", tc.setsFor, len(got[0]))
		}
		omitted := 0
		for i, cand := range got[0] {
			isCopy := c.copies[cand.ID]
			if isCopy != (i >= 80) {
				t.Fatalf("SetsFor %d: candidate %d (copy %v) out of order: the 80 decoys are closer", tc.setsFor, i, isCopy)
			}
			if cand.SetsOmitted {
				omitted++
				if len(cand.Words) > 0 || len(cand.Shingles) > 0 {
					t.Errorf("SetsFor %d: candidate %d omitted but has sets", tc.setsFor, cand.ID)
				}
			} else if len(cand.Words) == 0 || len(cand.Shingles) == 0 {
				t.Errorf("SetsFor %d: candidate %d read without its sets", tc.setsFor, cand.ID)
			}
			if isCopy && !cand.SetsOmitted != tc.readCopy {
				t.Errorf("SetsFor %d: copy %d read with sets %v, want %v", tc.setsFor, cand.ID, !cand.SetsOmitted, tc.readCopy)
			}
		}
		if omitted != tc.omitted {
			t.Errorf("SetsFor %d: %d candidates without their sets, want %d", tc.setsFor, omitted, tc.omitted)
		}
	}
}

// TestCrowdedNeighbourhoodVerdicts checks that a verdict whose closest
// candidates are all rejected still finds the farther matches, whose sets
// the candidate query left out: through a check (judge) and through a
// batch (a group). Without the second read both would say unique.
func TestCrowdedNeighbourhoodVerdicts(t *testing.T) {
	c := buildCrowd(t, 80, 30)
	svc := newService(t, c.store)
	ctx := context.Background()
	opts := service.DefaultOptions

	check := func(name string, v service.Verdict) {
		t.Helper()
		if v.Status != service.StatusNearDuplicate {
			t.Fatalf("%s: status %s, want near_duplicate", name, v.Status)
		}
		if len(v.Matches) != opts.Limit {
			t.Fatalf("%s: %d matches, want %d", name, len(v.Matches), opts.Limit)
		}
		for _, m := range v.Matches {
			if !c.copies[m.ID] || m.Distance != 2 {
				t.Errorf("%s: match %d (distance %d) is no copy", name, m.ID, m.Distance)
			}
		}
		if v.Candidates != 110 {
			t.Errorf("%s: %d candidates, want 110", name, v.Candidates)
		}
	}

	v, err := svc.Check(ctx, c.article, opts)
	if err != nil {
		t.Fatal(err)
	}
	check("check", v)
	if n := c.reads.n.Load(); n != 1 {
		t.Errorf("check: the farther candidates' sets read in %d statements, want 1", n)
	}

	// Two articles, so that they are judged as a group.
	in, other := c.article, c.other
	in.ExternalID, other.ExternalID = "crowded-1", "crowded-2"
	res, err := svc.IngestBatch(ctx, []service.BatchItem{{Article: other, Options: opts}, {Article: in, Options: opts}})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		if r.Err != nil {
			t.Fatal(r.Err)
		}
	}
	check("batch", res[1].Verdict)
}

// TestCrowdedNeighbourhoodReadsNoMoreSets checks the other side: when the
// closest candidates give the verdict its matches, it lists them, and the
// farther ones' sets are never read.
func TestCrowdedNeighbourhoodReadsNoMoreSets(t *testing.T) {
	c := buildCrowd(t, 0, 0)
	ctx := context.Background()
	// 100 copies one bit away, 50 decoys two bits away (the reverse).
	rng := rand.New(rand.NewPCG(20261125, 8))
	var rows []repo.CopyRow
	for i := range 150 {
		like, bits, kind := c.fp, 1, "near"
		if i >= 100 {
			like.Words, like.Shingles, bits, kind = nil, nil, 2, "far"
		}
		id := kind + "-" + strconv.Itoa(i)
		rows = append(rows, repo.CopyRow{Article: service.Article{
			Source: "fixture", ExternalID: id, PublishedAt: c.article.PublishedAt,
			Simhash: flipBits(rng, c.fp.Simhash, bits), FingerprintVersion: c.version,
			Words: like.Words, Shingles: like.Shingles, ContentHash: sha256.Sum256([]byte(id)),
		}})
	}
	if _, err := c.store.CopyArticles(ctx, rows); err != nil {
		t.Fatal(err)
	}
	v, err := newService(t, c.store).Check(ctx, c.article, service.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	if v.Status != service.StatusNearDuplicate || len(v.Matches) != service.DefaultOptions.Limit || v.Candidates != 150 {
		t.Fatalf("status %s, %d matches, %d candidates; want near_duplicate, %d, 150", v.Status, len(v.Matches), v.Candidates, service.DefaultOptions.Limit)
	}
	for i, m := range v.Matches {
		if m.Distance != 1 || m.ExternalID != "near-"+strconv.Itoa(i) {
			t.Errorf("match %d: %s at distance %d, want near-%d at 1 (closest, then earliest id)", i, m.ExternalID, m.Distance, i)
		}
	}
	if n := c.reads.n.Load(); n != 0 {
		t.Errorf("the farther candidates' sets read in %d statements, want none", n)
	}
}
