package service

import (
	"cmp"
	"time"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// Lineage by publication (issue 47): a copy links to the earliest published
// article it could have been copied from — of its near and exact matches,
// the one published first — whatever the order they arrived in. An article
// that arrives after its copies but was published before them heads their
// cluster instead: it is stored unlinked and the copies it holds relink to
// it (ingest_promote.go).
//
// A publication time is the client's word. One later than the article's
// arrival by more than publishedSkew cannot be true and counts as the
// arrival; one far in the past is trusted — an archive imported today is
// all in the past — and the window (Options.Window) already keeps a copy
// from matching articles far from its time. An article sent without one
// takes its arrival, as it always has. docs/reporting.md, "Who copied whom".

// publishedSkew is how far after its arrival a publication time may be
// (clocks differ, a CMS schedules a minute ahead) before it counts as the
// arrival.
const publishedSkew = 10 * time.Minute

// effectivePublished is the publication time lineage compares: published,
// or arrived when published is later than arrived by more than
// publishedSkew. A zero arrived (an article of the group being stored)
// trusts published.
func effectivePublished(published, arrived time.Time) time.Time {
	if !arrived.IsZero() && published.After(arrived.Add(publishedSkew)) {
		return arrived
	}
	return published
}

// appeared is when a stored article appeared, for judging it again by
// publication: its effective publication, or its first ingestion when
// that is earlier. An article corrected without a publication time takes
// the correction's arrival as its publication, yet it was there, and
// copied, since it was first stored. A zero ingested (an article of the
// group being stored) is its effective publication.
func appeared(published, ingested time.Time) time.Time {
	p := effectivePublished(published, ingested)
	if ingested.IsZero() || p.Before(ingested) {
		return p
	}
	return ingested
}

// earliestHolder is the match a copy links to among matches, sorted best
// first by decide: the earliest published (effectivePublished) of its
// exact copies, or when it has none, of its near duplicates, the best
// sorted first among equals; nil when none is near or exact. An exact copy
// of a repost links to the repost, whose text it has, not to the original
// without the repost's lines.
func earliestHolder(matches []Match) *Match {
	var best *Match
	for i := range matches {
		m := &matches[i]
		if m.partial || (best != nil && best.exact && !m.exact) {
			continue
		}
		if best == nil || (m.exact && !best.exact) || m.published().Before(best.published()) {
			best = m
		}
	}
	return best
}

// earliestClosest is, of matches sorted closest first by decide, the
// earliest published (then the first sorted) of those as close as the
// first — as many differing bits, as much shared text and words: of a
// story and its repost, an excerpt holding both whole links to the story,
// whichever arrived first.
func earliestClosest(matches []Match) *Match {
	best := &matches[0]
	for i := 1; i < len(matches); i++ {
		m := &matches[i]
		if m.partial != best.partial || m.Distance != best.Distance || m.exact != best.exact ||
			m.Overlap != matches[0].Overlap || m.WordRatio != matches[0].WordRatio {
			break
		}
		if m.published().Before(best.published()) {
			best = m
		}
	}
	return best
}

// published is the match's publication time as lineage compares it.
func (m *Match) published() time.Time { return effectivePublished(m.PublishedAt, m.ingestedAt) }

// promotes reports whether an article published at published (its
// effective time) heads the cluster of its decision's match rather than
// link to it: its match was published after it, and is a near or exact
// duplicate, or a partial one that heads its cluster (an excerpt stored
// alone before its original). An article sent without a publication time
// (arrived) never does: its time is its arrival, after everything stored.
//
// It also heads, when it has no match of its own, the stored partial copies
// of it published after it (headsCopies).
func promotes(published time.Time, arrived bool, d decision) bool {
	if arrived {
		return false
	}
	if d.best == nil {
		return len(headsCopies(published, d)) > 0
	}
	return (!d.best.partial || d.best.clusterID == d.best.ID) && published.Before(d.best.published())
}

// A partial copy stored before its original — an excerpt of a story that
// arrives first — is found by the original the other way round: its
// sentences are among the original's matches in the sentence index, and it
// is measured from its own side, as it would have been had it arrived
// after: of its sentences and its text, how much the original holds.

// laterCopy is a stored article that is a partial copy of the article
// judged, measured from the copy's side (Coverage.This: of the copy, found
// in the article judged), with its stored status.
type laterCopy struct {
	Match
	status Status
}

// copyOf reports whether stored candidate c, sharing sentences with fp (sa;
// sentences and text its coverages seen from fp's side, as decidePartial
// measures them), is a partial copy of fp by the partial rule applied from
// c's side: an article found whole or mostly in fp, or holding most of it.
// Only an article heading its own cluster or a partial duplicate is one to
// relink: a near or exact copy found the near match it links to by the
// article index.
func copyOf(fp fingerprint.Fingerprint, sa *sharedArticle, c Candidate, sentences, text Coverage) (laterCopy, bool) {
	if c.IngestedAt.IsZero() || (sa.match.Status != StatusPartialDuplicate && !(sa.match.Status == StatusUnique && c.ClusterID == c.ID)) {
		return laterCopy{}, false
	}
	coverage, ok := copiesFromItsSide(sa, sentences, text)
	if !ok {
		return laterCopy{}, false
	}
	m := newMatch(fp, c, false)
	m.partial = true
	m.Coverage = coverage
	return laterCopy{Match: m, status: sa.match.Status}, true
}

// copiesFromItsSide reports whether an article sharing sentences with the
// one judged (sa; sentences and text its coverages seen from the judged
// one's side) copies it by the partial rule applied from its own side, and
// its coverage seen from there.
func copiesFromItsSide(sa *sharedArticle, sentences, text Coverage) (Coverage, bool) {
	own := Coverage{This: sentences.That, That: sentences.This}
	ownText := Coverage{This: text.That, That: text.This}
	thisMin := partialThis
	if knownSentences(sa, own) < shortArticle { // a copy of so few sentences must be found whole
		thisMin = 1
	}
	ok := own.This >= thisMin || own.That >= partialThat || ownText.This >= max(thisMin, partialText) || ownText.That >= partialText
	return Coverage{This: max(own.This, ownText.This), That: max(own.That, ownText.That)}, ok
}

// knownSentences is how many indexed sentences a stored article sharing
// sentences with the one judged (sa) has at least, as far as the shared
// ones tell: its sentences matched, and one more when they are not all of
// it (own.This, of its sentences found in the judged one, below 1). The
// partial rule asks a copy of fewer than shortArticle sentences to be
// found whole, counting its own (coversEnough): counting only the shared
// ones asked it of a longer copy that shares two, which found its original
// in publication order (sina-9377 in docs/reporting.md).
func knownSentences(sa *sharedArticle, own Coverage) int {
	positions := make(map[int]bool, len(sa.pairs))
	for _, p := range sa.pairs {
		positions[p.OtherPosition] = true
	}
	n := len(positions)
	if own.This < 1 {
		n++
	}
	return n
}

// withCopies measures, for a judging decided on a near or exact match, the
// candidates prospects asked for (found, their matches) from their side:
// the decision's copies (copyOf).
func (j *judging) withCopies(found []SentenceMatch, candidates []Candidate) {
	boilerplate := boilerplateShingles(j.fp, holdersIn(j.fp, found))
	own := j.fp.Shingles
	if len(boilerplate) > 0 {
		own = own.Without(boilerplate)
	}
	for _, c := range candidates {
		sa := j.links[c.ID]
		if sa == nil {
			continue
		}
		if lc, ok := copyOf(j.fp, sa, c, sa.coverage, textCoverage(own, c, boilerplate)); ok {
			j.d.copies = append(j.d.copies, lc)
		}
	}
}

// headsCopies are d's partial copies published after published, the
// effective publication of the article judged: it heads them. They are
// those the sentence index found (decision.copies) and its partial matches
// by the article index published after it that head their own cluster
// (laterPartialHeads).
func headsCopies(published time.Time, d decision) []laterCopy {
	var out []laterCopy
	seen := make(map[int64]bool, len(d.copies))
	for _, c := range d.copies {
		if published.Before(c.published()) {
			out = append(out, c)
			seen[c.ID] = true
		}
	}
	for _, c := range laterPartialHeads(published, d) {
		if !seen[c.ID] {
			out = append(out, c)
		}
	}
	return out
}

// laterPartialHeads are, as copies seen from their side, the partial
// matches of decision d by the article index (decide) published after
// published that head their own cluster, stored unique: the article
// index's measures are the same from either side, so in publication order
// each arrived after the article judged, found it among its candidates
// and linked to it. Only the best of them was relinked before (a stored
// bulletin left unique beside a near one the earlier bulletin headed).
// One in another's cluster found its own link (withoutLaterPartials).
func laterPartialHeads(published time.Time, d decision) []laterCopy {
	var out []laterCopy
	for _, m := range d.matches {
		if !m.partial || m.exact || m.ingestedAt.IsZero() || m.clusterID != m.ID || !published.Before(m.published()) {
			continue
		}
		c := laterCopy{Match: m, status: StatusUnique}
		c.Coverage = Coverage{This: m.Coverage.That, That: m.Coverage.This}
		out = append(out, c)
	}
	return out
}

// laterMatchesElsewhere are, of decision d of an article published at
// published (its effective time) that heads its match's cluster
// (promotes), the other near or exact matches published after it that are
// in clusters other than the match's, the first of each cluster: in
// publication order each arrived after it and linked to it, its earliest
// published near match, where promoting only the match's cluster left them
// heading their own (a bulletin near two later ones that are not near
// each other). saveAsHead reads their clusters' members too.
func laterMatchesElsewhere(published time.Time, d decision) []*Match {
	if d.best == nil {
		return nil
	}
	seen := map[int64]bool{d.best.clusterID: true}
	var out []*Match
	for i := range d.matches {
		m := &d.matches[i]
		if m.partial || seen[m.clusterID] || !published.Before(m.published()) {
			continue
		}
		seen[m.clusterID] = true
		out = append(out, m)
	}
	return out
}

// leavesForHead reports whether member m of a later match's cluster
// (laterMatchesElsewhere), near the new head published at published,
// relinks to it: it heads its cluster, or what it links to was published
// after the head (of its near matches the head is then the earliest);
// one linked to an article published before the head keeps that link, as
// in publication order. targetPublished is the effective publication of
// the article m links to, ok false when it is unknown (kept).
func leavesForHead(published time.Time, m Article, targetPublished time.Time, ok bool) bool {
	if m.DuplicateOf == 0 {
		return true
	}
	return ok && published.Before(targetPublished)
}

// closerByIndex reports whether a partial match by the article index
// measured as sim is at least as close as the one measured as than, by
// decide's order (fewer differing bits, more shared text, more shared
// words): an article published before than's would then be the one
// earliestClosest links to. than not a match by the index at all (a link
// the partial step made) is never closer: the article index's match is
// chosen before the partial step looks.
func closerByIndex(sim, than Similarity, opts Options) bool {
	if !linkedByFingerprint(than, opts) {
		return true
	}
	return cmp.Or(
		cmp.Compare(sim.Distance, than.Distance),
		-cmp.Compare(sim.Overlap, than.Overlap),
		-cmp.Compare(sim.WordRatio, than.WordRatio),
	) <= 0
}
