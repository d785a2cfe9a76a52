package main

import (
	"sync"
)

// newsSet is the real articles with what the labels read of them.
type newsSet struct {
	Articles []newsArticle
	// Bodies and Titles are the compact (normalised, spaceless) texts;
	// Grams the bodies' 5-grams.
	Bodies, Titles []string
	Grams          []gramSet
	Labels         *labels
}

// prepareNews measures the articles and labels their pairs.
func prepareNews(articles []newsArticle, workers int) *newsSet {
	s := &newsSet{
		Articles: articles,
		Bodies:   make([]string, len(articles)),
		Titles:   make([]string, len(articles)),
		Grams:    make([]gramSet, len(articles)),
	}
	parallel(len(articles), workers, func(i int) {
		s.Bodies[i] = compact(articles[i].Body)
		s.Titles[i] = compact(articles[i].Title)
		s.Grams[i] = gramsOf(s.Bodies[i])
	})
	s.Labels = buildLabels(s.Grams, s.Bodies, s.Titles, workers)
	return s
}

// pairBand is the band of a pair: the band of its shorter body.
func (s *newsSet) pairBand(i, j int) int {
	return bandOf(min(s.Articles[i].Chars, s.Articles[j].Chars))
}

// likeness measures the bodies of articles i and j exactly.
func (s *newsSet) likeness(i, j int) likeness {
	if p, ok := s.Labels.of(i, j); ok {
		return p.likeness
	}
	return likenessOf(s.Grams[i], s.Grams[j])
}

// parallel calls fn(i) for every i in [0, n) on workers goroutines.
func parallel(n, workers int, fn func(i int)) {
	var wg sync.WaitGroup
	workers = max(1, workers)
	for w := range workers {
		wg.Go(func() {
			for i := w; i < n; i += workers {
				fn(i)
			}
		})
	}
	wg.Wait()
}

// commonGramShare is the share of all articles (and boilerplateFrom the
// count, at least) a 5-gram must be found in to count as boilerplate: the
// link line and update stamp the CCTV scraper kept under every story,
// portals' slogans.
const commonGramShare = 0.01

// commonGrams returns, among the 5-grams of the articles of, those found in
// at least commonGramShare of all the articles.
func (s *newsSet) commonGrams(of []int) map[uint64]bool {
	counts := make(map[uint64]int)
	for _, i := range of {
		for _, h := range s.Grams[i] {
			counts[h] = 0
		}
	}
	for _, g := range s.Grams {
		for _, h := range g {
			if _, ok := counts[h]; ok {
				counts[h]++
			}
		}
	}
	least := int(commonGramShare * float64(len(s.Grams)))
	out := make(map[uint64]bool)
	for h, n := range counts {
		if n >= max(least, boilerplateFrom) {
			out[h] = true
		}
	}
	return out
}

// coreLikeness measures the bodies of articles i and j without the common
// 5-grams: what they share beyond boilerplate. Two bodies of nothing but
// boilerplate share nothing.
func (s *newsSet) coreLikeness(i, j int, common map[uint64]bool) likeness {
	strip := func(g gramSet) gramSet {
		out := make(gramSet, 0, len(g))
		for _, h := range g {
			if !common[h] {
				out = append(out, h)
			}
		}
		return out
	}
	return likenessOf(strip(s.Grams[i]), strip(s.Grams[j]))
}
