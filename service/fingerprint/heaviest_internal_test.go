package fingerprint

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// sortedTop is what heaviest replaced: every keyword sorted, the first n
// kept.
func sortedTop(keywords []Keyword, n int) []Keyword {
	sortByWeight(keywords)
	if n > 0 && len(keywords) > n {
		keywords = keywords[:n]
	}
	return keywords
}

// TestHeaviestAsSortingAll checks the heap's pick against sorting all, on
// random keywords with many equal weights (ties broken by word).
func TestHeaviestAsSortingAll(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 3000 {
		k := r.IntN(300)
		keywords := make([]Keyword, k)
		for i := range keywords {
			keywords[i] = Keyword{Word: fmt.Sprintf("w%d", r.IntN(1_000_000)), Weight: float64(r.IntN(1 + trial%40))}
		}
		// Words are distinct in a fingerprint (a map's keys).
		slices.SortFunc(keywords, func(a, b Keyword) int { return cmpString(a.Word, b.Word) })
		keywords = slices.CompactFunc(keywords, func(a, b Keyword) bool { return a.Word == b.Word })
		r.Shuffle(len(keywords), func(i, j int) { keywords[i], keywords[j] = keywords[j], keywords[i] })
		n := []int{0, 1, 2, 64, r.IntN(400)}[trial%5]
		got := heaviest(slices.Clone(keywords), n)
		want := sortedTop(slices.Clone(keywords), n)
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d, n %d of %d: got %v, want %v", trial, n, len(keywords), got, want)
		}
	}
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// TestWeightedTopAsAllKeywords checks, on articles cut from 围城, that the
// fingerprint keeps the first 64 of all its keywords sorted: the keywords
// TopN 0 gives (every one, sorted), cut at 64, are those of TopN 64, so the
// simhash folded from them is the same as before heaviest.
func TestWeightedTopAsAllKeywords(t *testing.T) {
	d, novel := dictionaryAndNovel(t)
	runes := []rune(string(novel))
	every := DefaultWeightedParams
	every.TopN = 0
	all := NewWeighted(d, every)
	top := NewWeighted(d, DefaultWeightedParams)
	r := rand.New(rand.NewPCG(5, 6))
	for range 300 {
		start := r.IntN(len(runes) - 3000)
		body := string(runes[start : start+50+r.IntN(2900)])
		a, err := all.Fingerprint(context.Background(), Document{Body: body, SkipSentences: true})
		if err != nil {
			continue
		}
		b, err := top.Fingerprint(context.Background(), Document{Body: body, SkipSentences: true})
		if err != nil {
			t.Fatal(err)
		}
		if want := a.Keywords[:min(64, len(a.Keywords))]; !slices.Equal(b.Keywords, want) {
			t.Fatalf("text at rune %d: keywords %v, want %v", start, b.Keywords, want)
		}
	}
}
