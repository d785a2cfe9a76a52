package service

import (
	"math/bits"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// TestGroupSentenceMatches checks the indexed search of a group's own
// sentences against comparing every pair, on groups whose sentences repeat
// one another's text and simhash, near (1–3 bits apart) and not quite (4–5
// bits), with and without a simhash.
func TestGroupSentenceMatches(t *testing.T) {
	rng := rand.New(rand.NewPCG(20261126, 1))
	type seed struct {
		hash    uint64
		simhash uint64
	}
	var seeds []seed
	for range 40 {
		seeds = append(seeds, seed{rng.Uint64(), rng.Uint64()})
	}
	distances := make(map[int]int) // over the pairs compared, by distance up to 6
	for round := range 20 {
		g := make([]*arrival, 5+rng.IntN(30))
		for i := range g {
			var body strings.Builder
			var sentences []fingerprint.Sentence
			for p := range 5 + rng.IntN(30) {
				sd := seeds[rng.IntN(len(seeds))]
				s := fingerprint.Sentence{TextHash: sd.hash, Simhash: sd.simhash, HasSimhash: rng.IntN(10) > 0}
				switch rng.IntN(4) {
				case 0: // another text, the same simhash
					s.TextHash = rng.Uint64()
				case 1: // another text, a simhash 1 to 5 bits away
					s.TextHash = rng.Uint64()
					for range 1 + rng.IntN(5) {
						s.Simhash ^= 1 << rng.IntN(64)
					}
				}
				text := []rune("句子" + string(rune('甲'+round)) + string(rune('乙'+i)) + string(rune('丙'+p)) + "。")
				s.Start = len([]rune(body.String()))
				s.End, s.Runes = s.Start+len(text), len(text)
				body.WriteString(string(text))
				sentences = append(sentences, s)
			}
			g[i] = &arrival{
				in: &ArticleInput{Text: Text{Title: "t"}, ExternalID: "e" + string(rune('a'+i)), Source: "s",
					PublishedAt: time.Date(2026, 11, 26, 0, i, 0, 0, time.UTC)},
				fp: fingerprint.Fingerprint{PlainBody: body.String(), Sentences: sentences, Version: fingerprint.VersionNews},
			}
		}
		ids := make([]int64, len(g))
		for i := range ids {
			ids[i] = int64(1000*round + i)
		}
		own := indexGroupSentences(g)
		for i := range g {
			got := groupSentenceMatches(g, ids, i, own)
			want := compareEveryPair(g, ids, i)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("round %d, item %d: %d matches, comparing every pair %d", round, i, len(got), len(want))
			}
			for _, s := range g[i].fp.Sentences {
				for j := range i {
					for _, o := range g[j].fp.Sentences {
						if s.HasSimhash && o.HasSimhash && s.TextHash != o.TextHash {
							if d := bits.OnesCount64(s.Simhash ^ o.Simhash); d <= 6 {
								distances[d]++
							}
						}
					}
				}
			}
		}
	}
	for d := range 6 {
		if distances[d] == 0 {
			t.Errorf("no pair of sentences with other texts %d bits apart: the groups do not exercise the distance", d)
		}
	}
}

// compareEveryPair is what groupSentenceMatches returns, found by comparing
// every sentence of item i with every sentence of the items before it (as
// groupSentenceMatches did until it indexed them).
func compareEveryPair(g []*arrival, ids []int64, i int) []SentenceMatch {
	var out []SentenceMatch
	texts := make(map[int][]string)
	for q, s := range g[i].fp.Sentences {
		for j := range i {
			other := g[j]
			for p, o := range other.fp.Sentences {
				same := o.TextHash == s.TextHash
				near := s.HasSimhash && o.HasSimhash && fingerprint.Distance(s.Simhash, o.Simhash) <= sentenceMaxDistance
				if !same && !near {
					continue
				}
				if texts[j] == nil {
					texts[j] = fingerprint.SentenceTexts(other.fp.PlainBody, other.fp.Sentences)
				}
				out = append(out, SentenceMatch{
					Query: q, ArticleID: ids[j], Position: p, Runes: o.Runes,
					TextHash: o.TextHash, Simhash: o.Simhash, HasSimhash: o.HasSimhash,
					Text:    texts[j][p],
					Version: other.fp.Version, PublishedAt: other.in.PublishedAt,
					SentenceRunes: sentenceRunes(other.fp.Sentences),
					ExternalID:    other.in.ExternalID, Source: other.in.Source, Title: other.in.Title,
				})
			}
		}
	}
	return out
}

// BenchmarkGroupSentenceMatches finds the group's own matches of every
// item of a group of 22 and of 57 articles of 31 sentences (the groups of
// the default lock table and of the largest budget), indexed and by
// comparing every pair.
func BenchmarkGroupSentenceMatches(b *testing.B) {
	for _, n := range []int{22, 57} {
		rng := rand.New(rand.NewPCG(uint64(n), 2))
		g := make([]*arrival, n)
		ids := make([]int64, n)
		for i := range g {
			var sentences []fingerprint.Sentence
			for p := range 31 {
				sentences = append(sentences, fingerprint.Sentence{TextHash: rng.Uint64(), Simhash: rng.Uint64(), HasSimhash: true, Start: p, End: p + 1, Runes: 1})
			}
			g[i] = &arrival{in: &ArticleInput{}, fp: fingerprint.Fingerprint{PlainBody: strings.Repeat("字", 31), Sentences: sentences}}
			ids[i] = int64(i)
		}
		b.Run("indexed/"+strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				own := indexGroupSentences(g)
				for i := range g {
					groupSentenceMatches(g, ids, i, own)
				}
			}
		})
		b.Run("every-pair/"+strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				for i := range g {
					compareEveryPair(g, ids, i)
				}
			}
		})
	}
}

// TestSharesWithLater: an article of a group shares a sentence with one
// before it published after it — whichever of the group's articles before
// it holds the sentence, the latest published counts — or not: sharing
// with earlier ones only, or a later one sharing nothing, or none before.
func TestSharesWithLater(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	at := func(h int, hashes ...uint64) *arrival {
		var fp fingerprint.Fingerprint
		for _, x := range hashes {
			fp.Sentences = append(fp.Sentences, fingerprint.Sentence{TextHash: x})
		}
		return &arrival{in: &ArticleInput{PublishedAt: t0.Add(time.Duration(h) * time.Hour)}, fp: fp}
	}
	g := []*arrival{
		at(5, 1, 2), // first: none before it
		at(1, 3),    // a later one before it, sharing nothing
		at(2, 2, 4), // sentence 2 held by the first, published after it
		at(9, 1, 4), // both held before, by earlier articles only
		at(3, 5, 1), // sentence 1: the first (5 h) and the fourth (9 h)
		at(9, 1),    // the same time as the latest holder: not after it
	}
	want := []bool{false, false, true, false, true, false}
	if got := sharesWithLater(g, t0.Add(24*time.Hour)); !slices.Equal(got, want) {
		t.Errorf("shares with a later one %v, want %v", got, want)
	}
}
