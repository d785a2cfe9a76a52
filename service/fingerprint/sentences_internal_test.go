package fingerprint

import (
	"context"
	"slices"
	"testing"

	"github.com/cespare/xxhash/v2"
)

// TestSentenceSimhashUnchanged holds sentenceSimhash to the way it was first
// written, with two maps a sentence, over every piece of 200,000 bytes of
// 围城: the stored sentences' simhashes were made that way, and a sentence
// that folded differently would no longer find its copies.
func TestSentenceSimhashUnchanged(t *testing.T) {
	d, novel := dictionaryAndNovel(t)
	pieces, err := d.segment(context.Background(), string(novel[:200_000]), false, false)
	if err != nil {
		t.Fatal(err)
	}
	folded := 0
	var scratch simhashScratch // shared, as sentencesOf shares it
	for i, p := range pieces {
		h, ok := d.sentenceSimhash(p.words, &scratch)
		wantH, wantOK := sentenceSimhashByMaps(p.words)
		if h != wantH || ok != wantOK {
			t.Fatalf("piece %d: sentenceSimhash = %016x, %v; with maps %016x, %v", i, h, ok, wantH, wantOK)
		}
		if ok {
			folded++
		}
	}
	if folded < 1000 {
		t.Fatalf("only %d of %d pieces folded: too few to hold the two ways to each other", folded, len(pieces))
	}
}

// sentenceSimhashByMaps is sentenceSimhash as first written.
func sentenceSimhashByMaps(tagged []taggedWord) (uint64, bool) {
	counts := make(map[string]float64)
	idf := make(map[string]float64)
	for _, t := range tagged {
		if t.content {
			counts[t.word]++
			idf[t.word] = t.idf
		}
	}
	if len(counts) < minSentenceWords {
		return 0, false
	}
	words := make([]string, 0, len(counts))
	for w := range counts {
		words = append(words, w)
	}
	slices.Sort(words)
	weighted := make([]weightedWord, len(words))
	for i, w := range words {
		weighted[i] = weightedWord{hash: xxhash.Sum64String(w), weight: counts[w] * idf[w]}
	}
	return fold(weighted), true
}
