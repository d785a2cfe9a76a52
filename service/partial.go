package service

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// Partial duplicates. An article that is no exact or near duplicate may
// still copy most of an earlier one — an excerpt, the first paragraphs, a
// copy in another site's dress — or hold most of one — an expansion, a
// brief grown into a story. Through the sentence index: it is a partial
// duplicate of an earlier article when at least partialThis of its indexed
// sentences (by length) are found there, or at least partialThat of the
// earlier article's are found in it. The evaluation on real news chose the
// shares, counted by length rather than by sentences: they catch every
// first-60 % and first-80 % copy and 99 % of copies with another site's
// header and footer, and flag no pair of unrelated stories. An article of
// fewer than shortArticle indexed sentences must have all of them found:
// a single shared sentence is a quote, not a copy.
//
// A partial duplicate links to the article it covers best, like any
// duplicate, and joins its cluster; its verdict and its row carry both
// coverages, so that an editor tells an excerpt of an article (This near 1)
// from an expansion of one (That near 1).
const (
	partialThis  = 0.6
	partialThat  = 0.7
	shortArticle = 3
)

// judgePartial decides whether fp, published at published, is a partial
// duplicate of an article within sc and opts' window, other than the
// articles apart, from found, the sentence index's matches of fp's
// sentences.
func (s *Service) judgePartial(ctx context.Context, r Reader, fp fingerprint.Fingerprint, found []SentenceMatch, published time.Time, sc scope, opts Options, apart separations) (decision, error) {
	links := linksFrom(fp, found, partialScope(fp, published, sc, opts))
	ids := slices.DeleteFunc(partialCandidates(fp, links), apart.has)
	if len(ids) == 0 {
		return decision{status: StatusUnique}, nil
	}
	candidates, err := r.Candidates(ctx, ids)
	if err != nil {
		return decision{}, err
	}
	return decidePartial(fp, links, candidates, opts), nil
}

// partialScope says which articles a partial duplicate may link to: of its
// version, ingested before sc's bound, published within opts' window.
func partialScope(fp fingerprint.Fingerprint, published time.Time, sc scope, opts Options) func(SentenceMatch) bool {
	return func(m SentenceMatch) bool {
		return m.Version == fp.Version &&
			(sc.before.IsZero() || m.IngestedAt.Before(sc.before)) &&
			inWindow(m.PublishedAt, published, opts)
	}
}

// partialCandidates returns the articles whose coverage makes fp a partial
// duplicate of them.
func partialCandidates(fp fingerprint.Fingerprint, links map[int64]*sharedArticle) []int64 {
	thisMin := partialThis
	if len(fp.Sentences) < shortArticle {
		thisMin = 1
	}
	var ids []int64
	for id, sa := range links {
		if sa.coverage.This >= thisMin || sa.coverage.That >= partialThat {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

// decidePartial is the decision on fp among the candidates that cover
// enough of it: the one covering most (the larger coverage either way),
// then most of this article, then the earliest.
func decidePartial(fp fingerprint.Fingerprint, links map[int64]*sharedArticle, candidates []Candidate, opts Options) decision {
	matches := make([]Match, 0, len(candidates))
	for _, c := range candidates {
		m := newMatch(fp, c, false)
		m.Coverage = links[c.ID].coverage
		matches = append(matches, m)
	}
	if len(matches) == 0 { // deleted since their sentences were read
		return decision{status: StatusUnique}
	}
	slices.SortFunc(matches, func(a, b Match) int {
		return cmp.Or(
			-cmp.Compare(max(a.Coverage.This, a.Coverage.That), max(b.Coverage.This, b.Coverage.That)),
			-cmp.Compare(a.Coverage.This, b.Coverage.This),
			cmp.Compare(a.ID, b.ID),
		)
	})
	d := decision{status: StatusPartialDuplicate, best: &matches[0], matches: matches}
	if len(d.matches) > opts.Limit {
		d.matches = d.matches[:opts.Limit]
	}
	return d
}
