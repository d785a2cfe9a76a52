package main

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/newsdedup/newsdedup/internal/corpus"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// wordSoup returns count texts of 500–3000 runes made of words drawn at
// random from jieba's dictionary (its words of Chinese characters only),
// in sentences of 8–20 words. Unlike passages of one novel, whose
// fingerprints crowd together (the same names and words weigh most in all
// of them), these have fingerprints spread like random ones: few stored
// articles lie within 3 bits of another. Ingesting them measures the
// service's cost per article when the candidate step finds little, next to
// 围城, where it finds much.
func wordSoup(count int) ([]corpus.Article, error) {
	f, err := os.Open(filepath.Join(fingerprint.DefaultDictDir(), "jieba.dict.utf8"))
	if err != nil {
		return nil, fmt.Errorf("word soup: %w", err)
	}
	defer f.Close()
	var words []string
	s := bufio.NewScanner(f)
	for s.Scan() {
		w, _, _ := strings.Cut(s.Text(), " ")
		if utf8.RuneCountInString(w) >= 2 && strings.IndexFunc(w, func(r rune) bool { return !unicode.Is(unicode.Han, r) }) < 0 {
			words = append(words, w)
		}
	}
	if err := s.Err(); err != nil {
		return nil, fmt.Errorf("word soup: %w", err)
	}
	if len(words) < 1000 {
		return nil, fmt.Errorf("word soup: only %d words in the dictionary", len(words))
	}
	rng := rand.New(rand.NewPCG(20260503, 6))
	out := make([]corpus.Article, count)
	for i := range out {
		target := 500 + rng.IntN(2501)
		var b strings.Builder
		runes := 0
		for runes < target {
			for range 8 + rng.IntN(13) {
				w := words[rng.IntN(len(words))]
				b.WriteString(w)
				runes += utf8.RuneCountInString(w)
			}
			b.WriteString("。")
			runes++
		}
		out[i] = corpus.Article{
			Title: words[rng.IntN(len(words))] + words[rng.IntN(len(words))] + words[rng.IntN(len(words))],
			Body:  b.String(),
		}
	}
	return out, nil
}
