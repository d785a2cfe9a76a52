package service

import (
	"context"
	"math"
	"slices"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// Links made on a sentence before it was boilerplate (rules_boilerplate.go,
// boilerplateWindow) are measured again once it is: after an article is
// written, each of its boilerplate sentences that has just become one is
// looked up, and each duplicate holding it whose link rested on it
// (restsOnBoilerplate) is judged again as if it arrived now, by
// publication. A sentence seen past the window is remembered
// (Service.settled) and costs no statement again; below it, the statements
// are one count for the written articles' boilerplate sentences, one search
// for those in the window, and a read and a judgement for each link that
// rested on one — at most boilerplateWindow articles a sentence.

// boilerplateHolder is an article just written, with the indexes of its
// boilerplate sentences and their shingles (decision.boilerplateAt,
// decision.boilerplate).
type boilerplateHolder struct {
	id          int64
	fp          fingerprint.Fingerprint
	at          []int
	boilerplate fingerprint.ShingleSet
}

// relinkBoilerplateLinks judges again the duplicates whose link rested on
// sentences of the articles just written (ids, with their fingerprints
// fps, judged as ds) that have just become boilerplate; nothing is
// read unless one of ds counted a boilerplate sentence. locks are the
// cluster locks the transaction holds; nil for a group's, which took its
// clusters' locks itself (checkGroupMatches): then every further one is
// only tried, so that it never waits in a circle with another writer.
func (s *Service) relinkBoilerplateLinks(ctx context.Context, tx Tx, locks *clusterLocks, ids []int64, fps []fingerprint.Fingerprint, ds []decision) error {
	var ws []boilerplateHolder
	for i, d := range ds {
		if len(d.boilerplateAt) > 0 {
			ws = append(ws, boilerplateHolder{id: ids[i], fp: fps[i], at: d.boilerplateAt, boilerplate: d.boilerplate})
		}
	}
	if len(ws) == 0 {
		return nil
	}
	if locks == nil {
		locks = &clusterLocks{highest: math.MaxInt64}
	}
	var (
		qs    []fingerprint.Sentence
		owner []int // the holder in ws of each of qs
		seen  = make(map[uint64]bool)
	)
	for k, w := range ws {
		for _, i := range w.at {
			sn := w.fp.Sentences[i]
			if !seen[sn.TextHash] && !s.settled.has(sn.TextHash) {
				seen[sn.TextHash] = true
				qs, owner = append(qs, sn), append(owner, k)
			}
		}
	}
	if len(qs) == 0 {
		return nil
	}
	q := SentenceQuery{Sentences: qs, MaxDistance: sentenceMaxDistance, PerSentence: boilerplateWindow}
	counted, err := tx.SentenceHolders(ctx, q)
	if err != nil {
		return err
	}
	var recent []fingerprint.Sentence
	var recentOwner []int
	for i, h := range counted {
		if justBoilerplate(h.All) {
			recent, recentOwner = append(recent, qs[i]), append(recentOwner, owner[i])
		} else if h.All >= boilerplateWindow {
			s.settled.remember(qs[i].TextHash)
		}
	}
	if len(recent) == 0 {
		return nil
	}
	q.Sentences = recent
	found, err := tx.SentenceMatches(ctx, q)
	if err != nil {
		return err
	}
	written := make(map[int64]bool, len(ws))
	for _, w := range ws {
		written[w.id] = true
	}
	shinglesOf := make(map[int64]fingerprint.ShingleSet) // a holder → the boilerplate it is measured without
	var linked []int64
	for _, m := range found {
		if _, ok := shinglesOf[m.ArticleID]; !ok && !written[m.ArticleID] && m.Status != StatusUnique && m.Status != StatusExactDuplicate {
			linked = append(linked, m.ArticleID)
		}
		shinglesOf[m.ArticleID] = ws[recentOwner[m.Query]].boilerplate
	}
	slices.Sort(linked)
	return s.relinkUnless(ctx, tx, locks, linked, shinglesOf)
}

// relinkUnless judges again each of the holders ids of a sentence that
// has just become boilerplate whose link rested on it (restsOnBoilerplate),
// given the boilerplate shingles each is measured without, for every
// holder of the sentence.
func (s *Service) relinkUnless(ctx context.Context, tx Tx, locks *clusterLocks, ids []int64, boilerplate map[int64]fingerprint.ShingleSet) error {
	var dups []Article
	var targets []int64
	for _, id := range ids {
		a, err := tx.Article(ctx, id)
		if err != nil {
			return err
		}
		if a.DuplicateOf != 0 && a.Status != StatusExactDuplicate {
			dups, targets = append(dups, a), append(targets, a.DuplicateOf)
		}
	}
	if len(dups) == 0 {
		return nil
	}
	slices.Sort(targets)
	cs, err := tx.Candidates(ctx, slices.Compact(targets))
	if err != nil {
		return err
	}
	theirs := make(map[int64]fingerprint.ShingleSet, len(cs))
	for _, c := range cs {
		theirs[c.ID] = c.Shingles
	}
	for _, a := range dups {
		_, holds := boilerplate[a.DuplicateOf]
		if !restsOnBoilerplate(a, theirs[a.DuplicateOf], holds, boilerplate[a.ID], s.defaults) {
			continue
		}
		a, err := lockCluster(ctx, tx, locks, a.ID, a.ClusterID)
		if err != nil {
			return err
		}
		// Against every article stored, as it would be arriving now, but
		// by publication: none that appeared after it (those are judged
		// again themselves when they link on the sentence).
		sc := scope{exclude: a.ID, self: a.ID, notAfter: appeared(a.PublishedAt, a.IngestedAt)}
		if err := s.relinkWithin(ctx, tx, locks, a, sc); err != nil {
			return err
		}
	}
	return nil
}
