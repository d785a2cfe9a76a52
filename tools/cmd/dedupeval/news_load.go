package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/newsdedup/newsdedup/tools/internal/newscorpus"
)

// newsCorpora are the real articles of both corpora, in ingest order, or
// the reason they are absent.
type newsCorpora struct {
	Dir      string
	Articles []newsArticle
	// Missing says why the corpora could not be read; "" when they were.
	Missing string
}

// loadNews reads both corpora from dir (at most limit articles of each; 0
// for all) and sets their publication times. A missing folder or file is
// no error: Missing says what is missing, and the evaluation goes on with
// the novel alone.
func loadNews(ctx context.Context, dir string, limit int) (newsCorpora, error) {
	nc := newsCorpora{Dir: dir}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		nc.Missing = fmt.Sprintf("the corpora folder %s does not exist", dir)
		return nc, nil
	}
	for _, name := range corpusNames {
		articles, err := newscorpus.Read(ctx, dir, name, limit)
		if errors.Is(err, newscorpus.ErrMissing) {
			nc.Missing = err.Error()
			nc.Articles = nil
			return nc, nil
		}
		if err != nil {
			return nc, err
		}
		if err := newscorpus.SetPublished(articles); err != nil {
			return nc, err
		}
		nc.Articles = append(nc.Articles, articles...)
	}
	return nc, nil
}
