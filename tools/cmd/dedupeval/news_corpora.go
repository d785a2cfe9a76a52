package main

import "github.com/newsdedup/newsdedup/tools/internal/newscorpus"

// The real corpora are read by package newscorpus, which the benchmark
// shares; these are the evaluation's short names for its corpora, articles
// and publication times.
const (
	corpusSina = newscorpus.Sina
	corpusCCTV = newscorpus.CCTV
	sinaSpan   = newscorpus.SinaSpan
)

var corpusNames = newscorpus.Names

// newsArticle is one article of a real corpus.
type newsArticle = newscorpus.Article

// newsBands are the length bands of the news figures, in body characters
// (white space not counted). Articles under 80 characters are stored like
// any other but belong to no band.
var newsBands = []struct {
	Name     string
	Min, Max int // Max 0: no upper bound
}{
	{"80–300", 80, 300},
	{"300–1000", 300, 1000},
	{"≥1000", 1000, 0},
}

// bandOf returns the band of a body of chars characters, or -1 below the
// first.
func bandOf(chars int) int {
	for b := len(newsBands) - 1; b >= 0; b-- {
		if chars >= newsBands[b].Min {
			return b
		}
	}
	return -1
}
