package service

import (
	"slices"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// A group judges each article against the stored ones and the articles
// before it (judge_group.go): these say how an article of the group, not
// stored yet, looks to a later one — what the indexes would give were it
// stored. Its sentences are found by groupSentences
// (judge_group_sentences.go).

// groupCandidate is an article of the group as a candidate of a later one.
// Its cluster is set when the later one links to it, once its own is
// known.
func groupCandidate(it *groupItem, id int64) Candidate {
	return Candidate{
		ID:          id,
		ExternalID:  it.in.ExternalID,
		Source:      it.in.Source,
		Title:       it.in.Title,
		PublishedAt: it.in.PublishedAt,
		Simhash:     it.fp.Simhash,
		Words:       it.fp.Words,
		ContentHash: it.fp.ContentHash,
		Shingles:    it.fp.Shingles,
	}
}

// isGroupID reports whether id is one reserved for the group.
func isGroupID(id int64, ids []int64) bool {
	return slices.Contains(ids, id)
}

// withEarlier adds to the stored copies (exact) and near candidates (near)
// of item i of a group, whose ids are reserved, the items before it, as the
// article index would give them were they stored: a copy by its content, a
// near candidate within i's window and opts.MaxDistance bits.
func withEarlier(g []*groupItem, ids []int64, i int, exact, near []Candidate) (ex, nr []Candidate) {
	it := g[i]
	ex, nr = exact, near
	for j := range i {
		c := groupCandidate(g[j], ids[j])
		switch {
		case c.ContentHash == it.fp.ContentHash:
			ex = append(ex, c)
		case inWindow(g[j].in.PublishedAt, it.in.PublishedAt, it.opts) &&
			fingerprint.Distance(c.Simhash, it.fp.Simhash) <= it.opts.MaxDistance:
			nr = append(nr, c)
		}
	}
	return ex, nr
}
