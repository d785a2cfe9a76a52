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
