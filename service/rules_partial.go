package service

import (
	"cmp"
	"maps"
	"slices"
	"time"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// Partial duplicates. A match of the article index that is not near — a
// digest and one of its stories, an expansion — is one (rules_near.go). An
// article that is no exact or near duplicate, nor such a match, may
// still copy most of an earlier one — an excerpt, the first paragraphs, a
// copy in another site's dress — or hold most of one — an expansion, a
// brief grown into a story. The sentence index proposes the earlier
// articles that share a sentence with it (boilerplate left out), and each
// is measured two ways:
//   - by sentences: at least partialThis of its indexed sentences (by
//     length) are found there, or it holds at least partialThat of the
//     earlier article's;
//   - by text: at least partialText of its text is found there, or it holds
//     at least partialText of the earlier article's, counted on the sampled
//     shingles of the overlap (character 5-grams), the shingles of
//     boilerplate sentences taken out of both.
//
// The evaluation on real news chose the shares (docs/design-notes.md,
// "service: the partial shares"). An article of fewer than shortArticle
// indexed sentences must be found whole, both ways of measuring: a single
// shared sentence is a quote, not a copy.
const (
	partialThis  = 0.6
	partialThat  = 0.7
	partialText  = 0.8
	shortArticle = 3
	// maxProspects is how many of the articles sharing a sentence with
	// an article, those sharing most first, are measured by their text.
	maxProspects = 16
)

// partialScope says which articles a partial duplicate may link to: of its
// version, ingested before before (zero for no bound), published within
// opts' window.
func partialScope(fp fingerprint.Fingerprint, published, before time.Time, opts Options) func(SentenceMatch) bool {
	return func(m SentenceMatch) bool {
		return m.Version == fp.Version &&
			(before.IsZero() || m.IngestedAt.Before(before)) &&
			inWindow(m.PublishedAt, published, opts)
	}
}

// partialProspects returns, ascending, the articles of links worth
// measuring: the maxProspects sharing most sentences with the article
// (the larger coverage either way), then the earliest.
func partialProspects(links map[int64]*sharedArticle) []int64 {
	ids := slices.Collect(maps.Keys(links))
	slices.SortFunc(ids, func(a, b int64) int {
		ca, cb := links[a].coverage, links[b].coverage
		return cmp.Or(-cmp.Compare(max(ca.This, ca.That), max(cb.This, cb.That)), cmp.Compare(a, b))
	})
	ids = ids[:min(len(ids), maxProspects)]
	slices.Sort(ids)
	return ids
}

// textCoverage is how much of an article's text, own (its shingles without
// boilerplate's), is found in c's (This) and of c's in it (That), by their
// sampled shingles, boilerplate's taken out of c's too.
//
// The text measure is for the copy that edits as it copies: a sentence cut
// short, a caption or a price glued onto one without punctuation, a clause
// reworded. Such a sentence no longer matches any, so a copy that keeps 90 %
// of the text can keep 30 % of the sentences; its shingles still say 90 %.
func textCoverage(own fingerprint.ShingleSet, c Candidate, boilerplate fingerprint.ShingleSet) Coverage {
	theirs := c.Shingles
	if len(boilerplate) > 0 {
		theirs = theirs.Without(boilerplate)
	}
	thisInThat, thatInThis := fingerprint.Coverage(own, theirs)
	return Coverage{This: thisInThat, That: thatInThis}
}

// coversEnough reports whether the coverage of fp and a candidate by their
// sentences or by their text makes fp its partial duplicate.
func coversEnough(fp fingerprint.Fingerprint, sentences, text Coverage) bool {
	thisMin := partialThis
	if len(fp.Sentences) < shortArticle {
		thisMin = 1
	}
	return sentences.This >= thisMin || sentences.That >= partialThat ||
		text.This >= max(thisMin, partialText) || text.That >= partialText
}

// decidePartial is the decision on fp among the candidates, the articles
// sharing sentences with it (links), boilerplate the shingles of its
// boilerplate sentences: of those covering enough, the one covering most
// (the larger coverage either way), then most of this article, then the
// earliest published, then the earliest stored.
//
// A partial duplicate links to the article it covers best, like any
// duplicate, and joins its cluster; its verdict and its row carry both
// coverages, each the larger of the two measures, so that an editor tells
// an excerpt of an article (This near 1) from an expansion of one (That
// near 1).
//
// Never to an article published after it (published, its effective
// publication; zero for no bound): in publication order that one arrived
// later and judged this one from its own side, so this one leaves it out
// (decision.later) and heads it instead when it is its copy (copyOf,
// ingest_promote.go). A stored article judged again passes zero: nothing
// there turns such a link round, and dropping it would lose it.
func decidePartial(fp fingerprint.Fingerprint, published time.Time, links map[int64]*sharedArticle, candidates []Candidate, boilerplate fingerprint.ShingleSet, opts Options) decision {
	own := fp.Shingles
	if len(boilerplate) > 0 {
		own = own.Without(boilerplate)
	}
	matches := make([]Match, 0, len(candidates))
	var copies []laterCopy
	var later []int64
	for _, c := range candidates {
		sentences, text := links[c.ID].coverage, textCoverage(own, c, boilerplate)
		if lc, ok := copyOf(fp, links[c.ID], c, sentences, text); ok {
			copies = append(copies, lc)
		}
		m := newMatch(fp, c, false)
		if !published.IsZero() && published.Before(m.published()) {
			// A group's article not stored yet may be its copy too: the
			// group is then stored one by one, and this one finds it.
			if _, itsCopy := copiesFromItsSide(links[c.ID], sentences, text); coversEnough(fp, sentences, text) || (c.IngestedAt.IsZero() && itsCopy) {
				later = append(later, c.ID)
			}
			continue
		}
		if !coversEnough(fp, sentences, text) {
			continue
		}
		m.Coverage = Coverage{This: max(sentences.This, text.This), That: max(sentences.That, text.That)}
		matches = append(matches, m)
	}
	if len(matches) == 0 { // none covers enough, or deleted since their sentences were read
		return decision{status: StatusUnique, copies: copies, later: later}
	}
	slices.SortFunc(matches, func(a, b Match) int {
		return cmp.Or(
			-cmp.Compare(max(a.Coverage.This, a.Coverage.That), max(b.Coverage.This, b.Coverage.That)),
			-cmp.Compare(a.Coverage.This, b.Coverage.This),
			a.published().Compare(b.published()), // the earliest published, whatever arrived first
			cmp.Compare(a.ID, b.ID),
		)
	})
	d := decision{status: StatusPartialDuplicate, best: &matches[0], matches: matches, copies: copies, later: later}
	if len(d.matches) > opts.Limit {
		d.matches = d.matches[:opts.Limit]
	}
	return d
}

// withoutLaterPartials is decision d of the article index (decide) without
// its partial matches published after published (zero for no bound) that
// are in another article's cluster, as decidePartial leaves them out: the
// best chosen again among the rest, none left when it had only those (the
// partial step then looks further). One heading its own cluster stays: the
// article heads it instead, relinked as in publication order (promotes,
// partialLink); one in another's cluster found its own link then.
func withoutLaterPartials(d decision, published time.Time) decision {
	later := func(m Match) bool { return m.partial && m.clusterID != m.ID && published.Before(m.published()) }
	if published.IsZero() || !slices.ContainsFunc(d.matches, later) {
		return d
	}
	out := decision{copies: d.copies, later: d.later}
	for _, m := range d.matches {
		if later(m) {
			out.later = append(out.later, m.ID)
		} else {
			out.matches = append(out.matches, m)
		}
	}
	out.chooseBest()
	return out
}
