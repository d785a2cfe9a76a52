package main

import (
	"context"
	"fmt"
	"io"
	"time"
)

// ingestBatchSize is how many articles one POST /v1/articles/batch holds.
const ingestBatchSize = 100

// storedArticle is the service's verdict on one ingested article.
type storedArticle struct {
	ID          int64
	Status      string
	DuplicateOf int64 // 0 when unique
	ClusterID   int64
	Distance    int
	Overlap     float64
	Coverage    *coverageJSON
	Simhash     string // 16 hex digits
	// Error is the article's own error when the service refused it ("" when
	// stored).
	Error string
}

// stored is what ingesting the corpora gave.
type stored struct {
	Articles []storedArticle // by article index
	byID     map[int64]int   // article index by the service's id
	Elapsed  time.Duration
}

// indexOf returns the article index of a service id.
func (s *stored) indexOf(id int64) (int, bool) {
	i, ok := s.byID[id]
	return i, ok
}

// apiArticle is a news article as the API takes it.
func apiArticle(a *newsArticle) articleJSON {
	return articleJSON{
		ExternalID:  a.ExternalID(),
		Source:      a.Corpus,
		Title:       a.Title,
		Body:        a.Body,
		PublishedAt: a.Published.Format(time.RFC3339),
	}
}

// ingestNews sends every article, in order, through POST
// /v1/articles/batch in batches of ingestBatchSize, one batch at a time (the
// verdicts depend on the order), and keeps each verdict.
func ingestNews(ctx context.Context, c *client, articles []newsArticle, progress io.Writer) (*stored, error) {
	start := time.Now()
	s := &stored{Articles: make([]storedArticle, len(articles)), byID: make(map[int64]int, len(articles))}
	batches := (len(articles) + ingestBatchSize - 1) / ingestBatchSize
	for b := range batches {
		from, to := b*ingestBatchSize, min((b+1)*ingestBatchSize, len(articles))
		batch := make([]articleJSON, 0, to-from)
		for i := from; i < to; i++ {
			batch = append(batch, apiArticle(&articles[i]))
		}
		results, err := c.ingestBatch(ctx, batch)
		if err != nil {
			return nil, fmt.Errorf("batch %d of %d: %w", b+1, batches, err)
		}
		for k, r := range results {
			i := from + k
			if r.Error != nil {
				s.Articles[i] = storedArticle{Error: r.Error.Code + ": " + r.Error.Message}
				continue
			}
			sa := storedArticle{ID: r.ID, Status: r.Status, ClusterID: r.ClusterID, Simhash: r.Simhash}
			if d := r.DuplicateOf; d != nil && r.linked() {
				sa.DuplicateOf, sa.Distance, sa.Overlap, sa.Coverage = d.ID, d.Distance, d.Overlap, d.Coverage
			}
			s.Articles[i] = sa
			s.byID[r.ID] = i
		}
		if (b+1)%50 == 0 || b+1 == batches {
			fmt.Fprintf(progress, "  ingested %d of %d articles (%v)\n", to, len(articles), time.Since(start).Round(time.Second))
		}
	}
	s.Elapsed = time.Since(start)
	return s, nil
}

// linked tells whether articles i and j are linked: one's duplicate_of is
// the other, or both are in one cluster.
func (s *stored) linked(i, j int) bool {
	a, b := &s.Articles[i], &s.Articles[j]
	if a.ID == 0 || b.ID == 0 {
		return false
	}
	return a.ClusterID == b.ClusterID || a.DuplicateOf == b.ID || b.DuplicateOf == a.ID
}
