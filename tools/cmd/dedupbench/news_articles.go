package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/newsdedup/newsdedup/internal/corpus"
	"github.com/newsdedup/newsdedup/tools/internal/newscorpus"
)

// newsItem is an article of the real-news section as it is sent.
type newsItem struct {
	ExternalID string
	Title      string
	Body       string
	Published  time.Time
}

// newsSet is what the real-news section ingests.
type newsSet struct {
	Source   string // newsSourceSina or newsSourceNovel
	Fallback string // why the corpora were not used; "" when they were
	Items    []newsItem
}

// loadNewsSet reads the first count Sina articles from dir, published as
// the evaluation publishes them (spread over five days, all within the
// service's window). When the folder or the file is missing it cuts count
// articles from the novel instead, as the other ingest runs do, and says
// why in Fallback. The articles are read at run time and never written
// anywhere but to the service under test.
func loadNewsSet(ctx context.Context, dir string, count int, novel func() (*corpus.Novel, error)) (*newsSet, error) {
	why := ""
	var articles []newscorpus.Article
	if st, err := os.Stat(dir); dir == "" || err != nil || !st.IsDir() {
		why = fmt.Sprintf("the corpora folder %q does not exist", dir)
	} else {
		articles, err = newscorpus.Read(ctx, dir, newscorpus.Sina, count)
		switch {
		case errors.Is(err, newscorpus.ErrMissing):
			why = err.Error()
		case err != nil:
			return nil, fmt.Errorf("read the Sina corpus: %w", err)
		case len(articles) == 0:
			why = "the Sina corpus in " + dir + " holds no article"
		}
	}
	if why != "" {
		n, err := novel()
		if err != nil {
			return nil, err
		}
		set := &newsSet{Source: newsSourceNovel, Fallback: why}
		for i, a := range ingestArticles(n, count) {
			set.Items = append(set.Items, newsItem{ExternalID: fmt.Sprintf("novel-%d", i), Title: a.Title, Body: a.Body,
				Published: publishBase.Add(time.Duration(i) * time.Minute)})
		}
		return set, nil
	}
	if err := newscorpus.SetPublished(articles); err != nil {
		return nil, err
	}
	set := &newsSet{Source: newsSourceSina}
	for i := range articles {
		a := &articles[i]
		set.Items = append(set.Items, newsItem{ExternalID: a.ExternalID(), Title: a.Title, Body: a.Body, Published: a.Published})
	}
	return set, nil
}

// size returns the set's text in UTF-8 bytes and its bodies' mean length
// in runes that are not white space.
func (s *newsSet) size() (textBytes int64, meanChars float64) {
	chars := 0
	for _, it := range s.Items {
		textBytes += int64(len(it.Title) + len(it.Body))
		chars += newscorpus.NonSpaceRunes(it.Body)
	}
	return textBytes, float64(chars) / float64(max(len(s.Items), 1))
}
