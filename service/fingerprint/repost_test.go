package fingerprint_test

import (
	"testing"

	"github.com/newsdedup/newsdedup/internal/corpus"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// TestRepost is the acceptance test of the default algorithm: an article
// reposted with a byline, an editor's line and half-width punctuation stays
// within the index's distance of the original, for at least 95% of 200
// articles of 500–3000 runes.
func TestRepost(t *testing.T) {
	const (
		count    = 200
		minRunes = 500
		maxRunes = 3000
	)
	n := mustNovel(t)
	rng := newRand(41)
	originals := n.Originals(rng, count, minRunes, maxRunes)
	source := "Originals"
	if len(originals) < count { // the novel holds about 140 such articles side by side
		originals, source = n.Overlapping(rng, count, minRunes, maxRunes), "Overlapping"
	}
	if len(originals) != count {
		t.Fatalf("%s gave %d articles, want %d", source, len(originals), count)
	}

	alg := fingerprint.NewWeighted(dict, fingerprint.DefaultWeightedParams)
	// yanyiwu/simhash on the same pairs, for comparison only.
	yanyiwu := fingerprint.NewYanyiwu(dict, fingerprint.DefaultYanyiwuTopN)
	hist, yhist := make(map[int]int), make(map[int]int)
	within := 0
	for _, a := range originals {
		repost := n.Apply(rng, a, corpus.Light)
		original, copied := fingerprint.Document{Title: a.Title, Body: a.Body}, fingerprint.Document{Title: repost.Title, Body: repost.Body}
		d := fingerprint.Distance(mustFingerprint(t, alg, original).Simhash, mustFingerprint(t, alg, copied).Simhash)
		hist[d]++
		if d <= fingerprint.MaxIndexedDistance {
			within++
		}
		yhist[fingerprint.Distance(mustFingerprint(t, yanyiwu, original).Simhash, mustFingerprint(t, yanyiwu, copied).Simhash)]++
	}
	t.Logf("%d articles from %s, light repost distances: %s", count, source, histogram(hist))
	t.Logf("the same with Yanyiwu (not asserted): %s", histogram(yhist))
	t.Logf("within distance %d: %d of %d (%.1f%%)", fingerprint.MaxIndexedDistance, within, count, 100*float64(within)/count)
	if within*100 < count*95 {
		t.Errorf("%d of %d light reposts within distance %d, want at least 95%%", within, count, fingerprint.MaxIndexedDistance)
	}
}
