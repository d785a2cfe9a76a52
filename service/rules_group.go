package service

import (
	"time"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// A group judges each article against the stored ones and the articles
// before it (judge_group.go): these say how an article of the group, not
// stored yet, looks to a later one — what the indexes would give were it
// stored. Its sentences are found by groupSentences
// (judge_group_sentences.go).

// withEarlier adds to the stored copies (exact) and near candidates (near)
// of an article of a group, fp published at published, the articles before
// it in the group (earlier, as groupCandidate makes them), as the article
// index would give them were they stored: a copy by its content, a near
// candidate within opts' window and opts.MaxDistance bits.
func withEarlier(fp fingerprint.Fingerprint, published time.Time, opts Options, earlier, exact, near []Candidate) (ex, nr []Candidate) {
	ex, nr = exact, near
	for _, c := range earlier {
		switch {
		case c.ContentHash == fp.ContentHash:
			ex = append(ex, c)
		case inWindow(c.PublishedAt, published, opts) && fingerprint.Distance(c.Simhash, fp.Simhash) <= opts.MaxDistance:
			nr = append(nr, c)
		}
	}
	return ex, nr
}
