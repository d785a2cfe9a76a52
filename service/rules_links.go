package service

import (
	"cmp"
	"crypto/sha256"
	"slices"
	"time"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// Measuring dependants in memory. The articles that link to one that
// changes or leaves (dependants.go) are measured against the article's new
// content, or against each other, from their stored fingerprints and
// indexed sentences, by the rules judge applies: an exact copy by its text,
// a near duplicate by decide, a partial one by decidePartial, here with
// the sentences two articles share by their exact text. A link made so
// has its distance, ratio and overlap measured against the article it
// names and passes the thresholds, as every link must. What judge does and
// these do not: count a sentence's holders in the whole index, which tells
// boilerplate — a link already made passed that check against the counts
// of its day, and a widely copied story's own sentences reach the count
// (20 articles) within minutes — and find near-identical sentences, which
// only adds partial links. A dependant these find nothing for is judged by
// judge's own reads (judgeStored).

// member is a dependant as the measures see it: its stored article and
// fingerprint, with its indexed sentences, read from the first of the
// dependants with its text (textOf): articles with one text share their
// sentences, and their plain text.
type member struct {
	Article
	fp     fingerprint.Fingerprint
	textOf int64
}

// candidate is the member as a candidate of another.
func (m *member) candidate() Candidate {
	return Candidate{
		ID: m.ID, ExternalID: m.ExternalID, Source: m.Source, Title: m.Title, PublishedAt: m.PublishedAt,
		Simhash: m.Simhash, Words: m.Words, ContentHash: m.ContentHash, Shingles: m.Shingles,
		ClusterID: m.ClusterID, IngestedAt: m.IngestedAt,
	}
}

// noLink is the decision that links to none.
var noLink = decision{status: StatusUnique}

// linkTo decides whether member d is a duplicate of target t: an exact
// copy, else a near duplicate within opts' window, else a partial one
// sharing sentences with it. best is nil when it is none of them, or when
// their fingerprints are of different versions.
func linkTo(d, t *member, opts Options) decision {
	if d.fp.Version != t.fp.Version {
		return noLink
	}
	if d.ContentHash == t.ContentHash {
		return decide(d.fp, []Candidate{t.candidate()}, nil, opts)
	}
	if !inWindow(t.PublishedAt, d.PublishedAt, opts) {
		return noLink
	}
	if fingerprint.Distance(d.Simhash, t.Simhash) <= opts.MaxDistance {
		if dec := decide(d.fp, nil, []Candidate{t.candidate()}, opts); dec.best != nil {
			return dec
		}
	}
	return linkPartial(d, []*member{t}, opts)
}

// linkPartial decides whether member d is a partial duplicate of one of
// targets (of its version, within opts' window), by the sentences they
// share by their exact text and by their text (decidePartial).
func linkPartial(d *member, targets []*member, opts Options) decision {
	links := make(map[int64]*sharedArticle, len(targets))
	var candidates []Candidate
	for _, t := range targets {
		if t.fp.Version != d.fp.Version || !inWindow(t.PublishedAt, d.PublishedAt, opts) {
			continue
		}
		coverage, shared := sentenceCoverage(d.fp.Sentences, t.fp.Sentences)
		if !shared {
			continue
		}
		links[t.ID] = &sharedArticle{coverage: coverage}
		candidates = append(candidates, t.candidate())
	}
	if len(candidates) == 0 {
		return noLink
	}
	return decidePartial(d.fp, time.Time{}, links, candidates, nil, opts) // no bound: see decidePartial
}

// sentenceCoverage is how much of own's sentences (by length) are found,
// by their exact text, in other's (This), and of other's in own (That);
// shared says whether they share one.
func sentenceCoverage(own, other []fingerprint.Sentence) (c Coverage, shared bool) {
	theirs := make(map[uint64]bool, len(other))
	for _, s := range other {
		theirs[s.TextHash] = true
	}
	ours := make(map[uint64]bool, len(own))
	this := 0
	for _, s := range own {
		ours[s.TextHash] = true
		if theirs[s.TextHash] {
			this += s.Runes
		}
	}
	that := 0
	for _, s := range other {
		if ours[s.TextHash] {
			that += s.Runes
		}
	}
	return Coverage{This: share(this, sentenceRunes(own)), That: share(that, sentenceRunes(other))}, this > 0
}

// Bounds of the search among a group's members, so that measuring one
// costs the same however large the group: the closest earlier members by
// fingerprint, and for each sentence the earliest members holding it.
const (
	closestMembers   = 8
	holdersMeasured  = 4
	sharingCandidate = 2 * maxProspects
)

// group is the dependants of one article, earliest ingested first, with
// what finds a member's earlier ones: the first member with each text, and
// the members holding each sentence.
type group struct {
	members []*member
	first   map[[sha256.Size]byte]int
	holding map[uint64][]int
	apart   map[int64]separations
	opts    Options
}

// newGroup indexes members, earliest ingested first; apart are the
// editors' separations of each.
func newGroup(members []*member, apart map[int64]separations, opts Options) *group {
	g := &group{members: members, first: make(map[[sha256.Size]byte]int), holding: make(map[uint64][]int), apart: apart, opts: opts}
	for i, m := range members {
		if _, ok := g.first[m.ContentHash]; !ok {
			g.first[m.ContentHash] = i
		}
		for _, s := range m.fp.Sentences {
			if h := g.holding[s.TextHash]; len(h) == 0 || h[len(h)-1] != i {
				g.holding[s.TextHash] = append(h, i)
			}
		}
	}
	return g
}

// eligible reports whether member j may be what member i links to: it was
// ingested before i, with i's version, and no editor separated them.
func (g *group) eligible(i, j int) bool {
	a, b := g.members[i], g.members[j]
	return j < i && a.fp.Version == b.fp.Version && !g.apart[a.ID].has(b.ID)
}

// within decides member i against the members before it: the first with
// its text, else the closest by fingerprint (decide), else those sharing
// its sentences (linkPartial). best is nil when none is a match.
func (g *group) within(i int) decision {
	d := g.members[i]
	if j, ok := g.first[d.ContentHash]; ok && g.eligible(i, j) {
		return decide(d.fp, []Candidate{g.members[j].candidate()}, nil, g.opts)
	}
	if dec := decide(d.fp, nil, g.closest(i), g.opts); dec.best != nil {
		return dec
	}
	return linkPartial(d, g.sharing(i), g.opts)
}

// closest returns the members before member i within opts' distance and
// window, at most closestMembers of them, the closest first, then the
// earliest.
func (g *group) closest(i int) []Candidate {
	d := g.members[i]
	type near struct{ j, distance int }
	var found []near
	for j := range i {
		m := g.members[j]
		if dist := fingerprint.Distance(d.Simhash, m.Simhash); dist <= g.opts.MaxDistance && g.eligible(i, j) &&
			inWindow(m.PublishedAt, d.PublishedAt, g.opts) {
			found = append(found, near{j, dist})
		}
	}
	slices.SortFunc(found, func(a, b near) int { return cmp.Or(cmp.Compare(a.distance, b.distance), cmp.Compare(a.j, b.j)) })
	out := make([]Candidate, 0, min(len(found), closestMembers))
	for _, f := range found[:min(len(found), closestMembers)] {
		out = append(out, g.members[f.j].candidate())
	}
	return out
}

// sharing returns members before member i that share a sentence with it:
// for each of its sentences the earliest holdersMeasured, at most
// sharingCandidate in all.
func (g *group) sharing(i int) []*member {
	seen := make(map[int]bool)
	var out []*member
	for _, s := range g.members[i].fp.Sentences {
		taken := 0
		for _, j := range g.holding[s.TextHash] {
			if j >= i || taken == holdersMeasured || len(out) == sharingCandidate {
				break
			}
			if !seen[j] && g.eligible(i, j) {
				seen[j] = true
				out = append(out, g.members[j])
				taken++
			}
		}
	}
	return out
}

// sameLink reports whether stored article a already holds link l, as the
// table stores its measures (single precision).
func sameLink(a Article, l Link) bool {
	f := func(x float64) float32 { return float32(x) }
	return a.Status == l.Status && a.DuplicateOf == l.DuplicateOf && a.Distance == l.Distance &&
		f(a.WordRatio) == f(l.WordRatio) && f(a.Overlap) == f(l.Overlap) &&
		f(a.Coverage.This) == f(l.Coverage.This) && f(a.Coverage.That) == f(l.Coverage.That)
}

// memberOf is the stored or new article a with fingerprint fp (its
// sentences included) as a member.
func memberOf(a Article, fp fingerprint.Fingerprint) *member {
	return &member{Article: a, fp: fp, textOf: a.ID}
}

// link is the verdict of article id under decision d: the article it links
// to, its best match, and that article's cluster.
func link(id int64, d decision) Link {
	if d.best == nil {
		return Link{ID: id, Status: StatusUnique}
	}
	return Link{
		ID:          id,
		Status:      d.status,
		DuplicateOf: d.best.ID,
		ClusterID:   d.best.clusterID,
		Similarity:  d.best.Similarity,
	}
}
