package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"
)

// Every repost is checked — POST /v1/check, which stores nothing — against
// the store that holds all the corpora, published two hours after its
// source. It is detected when the verdict links it (any status but unique)
// to its source, or to an article of its source's cluster.

// repostDelay is how long after its source a repost is published.
const repostDelay = 2 * time.Hour

// repostOutcome is the verdict on one repost.
type repostOutcome struct {
	Status string
	// Detected: linked to the source or its cluster. Elsewhere: linked, but
	// to another cluster.
	Detected, Elsewhere bool
	Distance            int
	Overlap             float64
	// Coverage tells whether the link carried coverage (a field the
	// contract is gaining).
	Coverage bool
	// Refused: the service answered 422 (no words left to fingerprint).
	Refused bool
}

// checkReposts checks every repost on workers connections.
func checkReposts(ctx context.Context, c *client, articles []newsArticle, st *stored, reposts []repost, workers int, progress io.Writer) ([]repostOutcome, time.Duration, error) {
	start := time.Now()
	out := make([]repostOutcome, len(reposts))
	next := make(chan int)
	errs := make(chan error, workers)
	var wg sync.WaitGroup
	for range max(1, workers) {
		wg.Go(func() {
			for i := range next {
				r := &reposts[i]
				src := &articles[r.Source]
				v, err := c.check(ctx, articleJSON{
					Source:      "repost",
					Title:       r.Title,
					Body:        r.Body,
					PublishedAt: src.Published.Add(repostDelay).Format(time.RFC3339),
				})
				var se *statusError
				if errors.As(err, &se) && se.Status == http.StatusUnprocessableEntity {
					out[i] = repostOutcome{Refused: true} // missed, and shown as refused
					continue
				}
				if err != nil {
					errs <- fmt.Errorf("check the %s repost of %s: %w", r.Edit, src.ExternalID(), err)
					return
				}
				out[i] = judgeRepost(v, st.Articles[r.Source])
			}
		})
	}
	var err error
feed:
	for i := range reposts {
		select {
		case next <- i:
		case err = <-errs:
			break feed
		case <-ctx.Done():
			err = ctx.Err()
			break feed
		}
		if (i+1)%2000 == 0 {
			fmt.Fprintf(progress, "  checked %d of %d reposts (%v)\n", i+1, len(reposts), time.Since(start).Round(time.Second))
		}
	}
	close(next)
	wg.Wait()
	if err == nil {
		select {
		case err = <-errs:
		default:
		}
	}
	return out, time.Since(start), err
}

// judgeRepost reads a check's verdict on a repost of source.
func judgeRepost(v verdictJSON, source storedArticle) repostOutcome {
	o := repostOutcome{Status: v.Status}
	if !v.linked() {
		return o
	}
	o.Distance, o.Overlap, o.Coverage = v.DuplicateOf.Distance, v.DuplicateOf.Overlap, v.DuplicateOf.Coverage != nil
	if v.DuplicateOf.ID == source.ID || v.ClusterID == source.ClusterID {
		o.Detected = true
	} else {
		o.Elsewhere = true
	}
	return o
}

// repostCount tallies the outcomes of one group of reposts.
type repostCount struct {
	Reposts int `json:"reposts"`
	// Detected counts every detected repost; Near, Partial and Exact those
	// detected with that status (an unknown status counts in Detected
	// alone).
	Detected int `json:"detected"`
	Near     int `json:"near_duplicate"`
	Partial  int `json:"partial_duplicate"`
	Exact    int `json:"exact_duplicate"`
	// Elsewhere counts reposts linked to an article outside the source's
	// cluster.
	Elsewhere int `json:"linked_elsewhere"`
	// Refused counts reposts the service refused to judge (422).
	Refused int `json:"refused"`
}

func (c *repostCount) add(o repostOutcome) {
	c.Reposts++
	if o.Refused {
		c.Refused++
	}
	if o.Elsewhere {
		c.Elsewhere++
	}
	if !o.Detected {
		return
	}
	c.Detected++
	switch o.Status {
	case statusNear:
		c.Near++
	case statusPartial:
		c.Partial++
	case statusExact:
		c.Exact++
	}
}

func (c repostCount) detected() rate { return rate{Hit: c.Detected, Of: c.Reposts} }

// repostResults are the outcomes of the reposts by edit and band.
type repostResults struct {
	Originals []int          `json:"originals_per_band"`
	Unapplied map[string]int `json:"unapplied"`
	// Counts[edit][band].
	Counts  map[string][]repostCount `json:"counts"`
	Elapsed time.Duration            `json:"-"`
	Seconds float64                  `json:"seconds"`
}

// tallyReposts counts the outcomes by edit and band.
func tallyReposts(reposts []repost, outcomes []repostOutcome) map[string][]repostCount {
	out := make(map[string][]repostCount, len(repostEdits))
	for _, e := range repostEdits {
		out[e] = make([]repostCount, len(newsBands))
	}
	for i, r := range reposts {
		out[r.Edit][r.Band].add(outcomes[i])
	}
	return out
}
