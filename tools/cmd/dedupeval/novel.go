package main

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/newsdedup/newsdedup/internal/corpus"
	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// The regression check on 围城: the labelled corpus the project measured
// before it had real news (novel_corpus.go), judged by the decision of
// fingerprint version 2 as it shipped — WeightedParamsV2 and a shared-word
// ratio of at least 0.5 — and by version 3 as it ships now — the shipped
// parameters and min_overlap. Every copy and every original is compared
// with every stored original, as the service would compare it (novel_pairs.go).
// It runs on every machine: the novel comes with gojieba.

// version2MinWordRatio is the min_word_ratio version 2 shipped with.
const version2MinWordRatio = 0.5

// The operating points the novel is tallied at.
const (
	pointV2     = iota // version 2's verdict
	pointV3            // version 3's verdict
	pointV2Near        // version 2 within 3 bits, the verifier aside
	pointV3Near        // version 3 within 3 bits
	novelPoints
)

// novelSignature is what the two verdicts read of a text.
type novelSignature struct {
	OK                 bool
	V2, V3             uint64
	Words              fingerprint.WordSet // version 2's
	Shingles           fingerprint.ShingleSet
	ContentV2, Content [32]byte
}

// novelResult is the regression check's figures.
type novelResult struct {
	Corpus  labelledCorpus `json:"-"`
	Queries int            `json:"queries"`
	Pairs   int            `json:"pairs"`
	Tallies tallies        `json:"-"`
	// Rows are the recall of each edit, long and short, and the precision
	// and load, for both versions.
	Rows []novelRow `json:"rows"`
}

// novelRow is one figure under both versions.
type novelRow struct {
	What   string `json:"what"`
	V2     number `json:"version_2"`
	V3     number `json:"version_3"`
	V2Text string `json:"-"`
	V3Text string `json:"-"`
	// Higher tells whether a higher figure is better (recall, precision)
	// or worse (load).
	Higher bool `json:"higher_is_better"`
}

// falls tells whether version 3's figure is worse than version 2's.
func (r novelRow) falls() bool {
	v2, v3 := float64(r.V2), float64(r.V3)
	if r.Higher {
		return v3 < v2-1e-12
	}
	return v3 > v2+1e-12
}

// evaluateNovel builds the novel's corpus (limit originals per band, 0 for
// all) and tallies both versions' decisions.
func evaluateNovel(ctx context.Context, d *fingerprint.Dictionary, limit, workers int) (novelResult, error) {
	n, err := corpus.LoadNovel()
	if err != nil {
		return novelResult{}, err
	}
	c, err := buildCorpus(n, limit)
	if err != nil {
		return novelResult{}, err
	}
	qs := queries(c)
	sigs, err := novelSignatures(ctx, d, qs, workers)
	if err != nil {
		return novelResult{}, err
	}
	stored := sigs[:len(c.Originals)] // the originals are the first queries
	minOverlap := service.DefaultOptions.MinOverlap
	ts := countPairs(qs, len(stored), novelPoints, func(q, s int, hits []bool) bool {
		a, b := sigs[q], stored[s]
		if !a.OK || !b.OK {
			return false
		}
		d2, d3 := fingerprint.Distance(a.V2, b.V2), fingerprint.Distance(a.V3, b.V3)
		hits[pointV2Near] = d2 <= maxK
		hits[pointV3Near] = d3 <= maxK
		hits[pointV2] = a.ContentV2 == b.ContentV2 || d2 <= maxK && fingerprint.Ratio(a.Words, b.Words) >= version2MinWordRatio
		hits[pointV3] = a.Content == b.Content || d3 <= maxK && overlap(a.Shingles, b.Shingles) >= minOverlap
		return hits[pointV2Near] || hits[pointV3Near] || hits[pointV2] || hits[pointV3]
	})
	res := novelResult{Corpus: c, Queries: len(qs), Tallies: ts}
	forEachPair(qs, len(stored), func(int, int, bool) { res.Pairs++ })
	res.Rows = novelRows(ts)
	return res, nil
}

// maxK is the largest distance the index finds.
const maxK = fingerprint.MaxIndexedDistance

// novelSignatures fingerprints every query with both versions.
func novelSignatures(ctx context.Context, d *fingerprint.Dictionary, qs []query, workers int) ([]novelSignature, error) {
	v2 := fingerprint.NewWeighted(d, fingerprint.WeightedParamsV2)
	v3 := fingerprint.NewWeighted(d, fingerprint.DefaultWeightedParams)
	out := make([]novelSignature, len(qs))
	var mu sync.Mutex
	var firstErr error
	parallel(len(qs), workers, func(i int) {
		a, errA := v2.Fingerprint(ctx, qs[i].Doc)
		b, errB := v3.Fingerprint(ctx, qs[i].Doc)
		if err := errors.Join(errA, errB); err != nil {
			if !errors.Is(errA, fingerprint.ErrNoWords) && !errors.Is(errB, fingerprint.ErrNoWords) {
				mu.Lock()
				firstErr = errors.Join(firstErr, fmt.Errorf("fingerprint novel query %d: %w", i, err))
				mu.Unlock()
			}
			return
		}
		out[i] = novelSignature{OK: true, V2: a.Simhash, V3: b.Simhash, Words: a.Words, Shingles: b.Shingles,
			ContentV2: a.ContentHash, Content: b.ContentHash}
	})
	return out, firstErr
}

// novelRows are the figures of both versions: each edit's recall on long
// (≥500 runes) and short copies, the precision over every copy, and the
// share of negative pairs within 3 bits.
func novelRows(ts tallies) []novelRow {
	var rows []novelRow
	add := func(what string, higher bool, v2, v3 float64, v2Text, v3Text string) {
		rows = append(rows, novelRow{What: what, V2: number(v2), V3: number(v3), V2Text: v2Text, V3Text: v3Text, Higher: higher})
	}
	for _, e := range copyEdits()[1:] {
		for _, length := range []struct {
			name string
			keep func(string) func(groupKey) bool
		}{{"≥500", longEdit}, {"<500", shortEdit}} {
			a, b := ts.at(length.keep(e), pointV2), ts.at(length.keep(e), pointV3)
			add(fmt.Sprintf("%s, %s runes: recall", e, length.name), true, a.Recall(), b.Recall(), recallOf(a), recallOf(b))
		}
	}
	a, b := ts.at(copies, pointV2), ts.at(copies, pointV3)
	add("every copy: recall", true, a.Recall(), b.Recall(), recallOf(a), recallOf(b))
	add("every copy: precision", true, a.Precision(), b.Precision(), precisionOf(a), precisionOf(b))
	x, y := ts.at(anyGroup, pointV2Near), ts.at(anyGroup, pointV3Near)
	add("negative pairs within 3 bits (load)", false, x.FalsePositiveRate(), y.FalsePositiveRate(),
		fmt.Sprintf("%s (%d)", pct(x.FalsePositiveRate()), x.FP), fmt.Sprintf("%s (%d)", pct(y.FalsePositiveRate()), y.FP))
	return rows
}

func copies(k groupKey) bool { return k.Edit != editExact }

// novelGoal is "the 围城 figures do not fall": every figure of version 3
// at least version 2's (recall, precision), or at most (load).
func (r novelResult) goal() goalRow {
	row := goalRow{Issue: 9, What: "围城 figures do not fall (version 3 against version 2, every edit, long and short)", Target: "none falls"}
	var falls []string
	for _, x := range r.Rows {
		if x.falls() {
			falls = append(falls, fmt.Sprintf("%s %s → %s", x.What, f3(float64(x.V2)), f3(float64(x.V3))))
		}
	}
	met := len(falls) == 0
	row.Met = &met
	if met {
		row.Figure = "none falls"
	} else {
		row.Figure = fmt.Sprintf("%d of %d fall: %s", len(falls), len(r.Rows), joinShort(falls, 4))
	}
	return row
}
