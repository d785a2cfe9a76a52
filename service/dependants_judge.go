package service

import (
	"context"
	"crypto/sha256"
	"slices"
	"time"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// judgeStored judges members rest of group g again against the stored
// articles, as rejudge judges one — against the articles ingested before
// it, exclude left out, with the service's default options, the editors'
// separations kept, boilerplate told by its holders, partial duplicates
// found through the sentence index — but all together, in a bounded number
// of statements however many they are, as a group of new articles is
// judged (judge_group.go): their plain texts, their copies, their near
// candidates, their sentences' matches and the candidates those lead to,
// one statement each (the searches of each fingerprint version apart). The
// searches share the latest member's bound, each member keeping the
// articles ingested before it. It then locks the clusters of the articles
// they link to and checks that those still hold what they were judged
// against, and returns their links.
func (s *Service) judgeStored(ctx context.Context, tx Tx, locks *clusterLocks, g *group, rest []int, exclude int64) ([]Link, error) {
	if len(rest) == 0 {
		return nil, nil
	}
	opts := g.opts
	items := make([]*member, len(rest))
	var texts []int64
	asked := make(map[int64]bool)
	for k, i := range rest {
		items[k] = g.members[i]
		if !asked[items[k].textOf] {
			asked[items[k].textOf] = true
			texts = append(texts, items[k].textOf)
		}
	}
	plain, err := tx.ArticleTexts(ctx, texts, true)
	if err != nil {
		return nil, err
	}
	for k, it := range items {
		c := *it
		c.fp.PlainBody = plain[it.textOf].Plain
		items[k] = &c
	}

	exact, near, err := storedCandidates(ctx, tx, items, exclude, opts)
	if err != nil {
		return nil, err
	}
	js := make([]*judging, len(items))
	var searched []int
	for k, it := range items {
		apart := g.apart[it.ID]
		js[k] = judgeCandidates(it.fp, time.Time{}, apart.drop(exact[k]), apart.drop(near[k]), opts) // no bound: see decidePartial
		if js[k].wantsSentences() {
			searched = append(searched, k)
		}
	}
	found, err := storedSentenceSearch(ctx, tx, items, searched, exclude)
	if err != nil {
		return nil, err
	}
	var undecided []int
	for _, k := range searched {
		js[k].withHolders(holdersIn(items[k].fp, found[k]))
		if js[k].undecided() {
			undecided = append(undecided, k)
		}
	}
	if err := judgeStoredPartials(ctx, tx, g, items, undecided, found, js); err != nil {
		return nil, err
	}
	decisions := make([]decision, len(items))
	for k, j := range js {
		decisions[k] = j.decision()
	}
	if err := lockMatches(ctx, tx, locks, decisions); err != nil {
		return nil, err
	}
	links := make([]Link, len(items))
	for k, it := range items {
		links[k] = link(it.ID, decisions[k])
	}
	return links, nil
}

// storedCandidates returns, for each of items, its stored copies and near
// candidates ingested before it, exclude left out: one search of each kind
// for the items of each fingerprint version, a text or a fingerprint asked
// once, the near search's window stretched over its items' windows.
func storedCandidates(ctx context.Context, r JudgeReader, items []*member, exclude int64, opts Options) (exact, near [][]Candidate, err error) {
	exact, near = make([][]Candidate, len(items)), make([][]Candidate, len(items))
	byVersion := make(map[fingerprint.Version][]int)
	for k, it := range items {
		byVersion[it.fp.Version] = append(byVersion[it.fp.Version], k)
	}
	for version, ks := range byVersion {
		var latest time.Time
		texts, hashes := make(map[[sha256.Size]byte]int), make(map[uint64]int)
		var eqs []ExactQuery
		var nqs []NearQuery
		for _, k := range ks {
			it := items[k]
			if it.IngestedAt.After(latest) {
				latest = it.IngestedAt
			}
			if _, ok := texts[it.ContentHash]; !ok {
				texts[it.ContentHash] = len(eqs)
				eqs = append(eqs, ExactQuery{ContentHash: it.ContentHash, Version: version, ExcludeID: exclude, Limit: CandidateCap})
			}
			from, to := window(it.PublishedAt, opts)
			q, ok := hashes[it.Simhash]
			if !ok {
				hashes[it.Simhash] = len(nqs)
				nqs = append(nqs, NearQuery{Simhash: it.Simhash, Version: version, MaxDistance: opts.MaxDistance,
					From: from, To: to, ExcludeID: exclude, Limit: CandidateCap})
				continue
			}
			if from.Before(nqs[q].From) {
				nqs[q].From = from
			}
			if to.After(nqs[q].To) {
				nqs[q].To = to
			}
		}
		eqs[0].Before, nqs[0].Before = latest, latest
		copies, err := r.ExactMatches(ctx, eqs)
		if err != nil {
			return nil, nil, err
		}
		candidates, err := r.NearCandidates(ctx, nqs)
		if err != nil {
			return nil, nil, err
		}
		for _, k := range ks {
			it := items[k]
			before := func(c Candidate) bool { return c.ID != it.ID && c.IngestedAt.Before(it.IngestedAt) }
			for _, c := range copies[texts[it.ContentHash]] {
				if before(c) {
					exact[k] = append(exact[k], c)
				}
			}
			for _, c := range candidates[hashes[it.Simhash]] {
				if before(c) && inWindow(c.PublishedAt, it.PublishedAt, opts) {
					near[k] = append(near[k], c)
				}
			}
		}
	}
	return exact, near, nil
}

// storedSentenceSearch looks up the sentences of items searched, each
// sentence once, in one statement, and returns by item the stored
// sentences matching its own, its own left out.
func storedSentenceSearch(ctx context.Context, r JudgeReader, items []*member, searched []int, exclude int64) (map[int][]SentenceMatch, error) {
	if len(searched) == 0 {
		return nil, nil
	}
	type sentenceKey struct {
		text, simhash uint64
		hasSimhash    bool
	}
	asked := make(map[sentenceKey]int)
	q := SentenceQuery{MaxDistance: sentenceMaxDistance, ExcludeID: exclude, PerSentence: boilerplateArticles}
	queryOf := make(map[int][]int, len(searched)) // item → the query of each of its sentences
	for _, k := range searched {
		for _, sn := range items[k].fp.Sentences {
			key := sentenceKey{sn.TextHash, sn.Simhash, sn.HasSimhash}
			i, ok := asked[key]
			if !ok {
				i = len(q.Sentences)
				asked[key] = i
				q.Sentences = append(q.Sentences, sn)
			}
			queryOf[k] = append(queryOf[k], i)
		}
	}
	matches, err := r.SentenceMatches(ctx, q)
	if err != nil {
		return nil, err
	}
	byQuery := make(map[int][]SentenceMatch)
	for _, m := range matches {
		byQuery[m.Query] = append(byQuery[m.Query], m)
	}
	found := make(map[int][]SentenceMatch, len(searched))
	for _, k := range searched {
		for j, i := range queryOf[k] {
			for _, m := range byQuery[i] {
				if m.ArticleID != items[k].ID {
					m.Query = j
					found[k] = append(found[k], m)
				}
			}
		}
	}
	return found, nil
}

// judgeStoredPartials decides, among the undecided items, those that are
// partial duplicates of an article ingested before them, from their
// sentences' matches, the candidates they lead to read in one statement.
func judgeStoredPartials(ctx context.Context, r JudgeReader, g *group, items []*member, undecided []int, found map[int][]SentenceMatch, js []*judging) error {
	if len(undecided) == 0 {
		return nil
	}
	prospects := make(map[int][]int64, len(undecided))
	var ids []int64
	for _, k := range undecided {
		it := items[k]
		prospects[k] = js[k].prospects(found[k], partialScope(it.fp, it.PublishedAt, it.IngestedAt, g.opts), g.apart[it.ID])
		ids = append(ids, prospects[k]...)
	}
	slices.Sort(ids)
	stored, err := r.Candidates(ctx, slices.Compact(ids))
	if err != nil {
		return err
	}
	byID := make(map[int64]Candidate, len(stored))
	for _, c := range stored {
		byID[c.ID] = c
	}
	for _, k := range undecided {
		var candidates []Candidate
		for _, id := range prospects[k] {
			if c, ok := byID[id]; ok {
				candidates = append(candidates, c)
			}
		}
		js[k].withProspects(found[k], candidates)
	}
	return nil
}

// lockMatches locks the clusters of the articles decisions link to, each
// once, ascending (a cluster below one held is only tried: clusterLocks),
// and checks in one statement that each article still holds what it was
// judged against and is still in that cluster; ErrConflict if not.
func lockMatches(ctx context.Context, tx Tx, locks *clusterLocks, decisions []decision) error {
	var clusters, ids []int64
	for _, d := range decisions {
		if d.best != nil {
			clusters = append(clusters, d.best.clusterID)
			ids = append(ids, d.best.ID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	slices.Sort(clusters)
	for _, c := range slices.Compact(clusters) {
		if err := locks.lock(ctx, tx, c); err != nil {
			return err
		}
	}
	slices.Sort(ids)
	current, err := tx.Candidates(ctx, slices.Compact(ids))
	if err != nil {
		return err
	}
	now := make(map[int64]Candidate, len(current))
	for _, c := range current {
		now[c.ID] = c
	}
	for _, d := range decisions {
		if d.best == nil {
			continue
		}
		c, ok := now[d.best.ID]
		if !ok || c.Simhash != d.best.simhash || c.ContentHash != d.best.contentHash || c.ClusterID != d.best.clusterID {
			return &Error{Kind: KindConflict, Message: "an article a dependant links to changed meanwhile"}
		}
	}
	return nil
}
