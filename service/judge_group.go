package service

import (
	"context"
	"slices"
	"time"
)

// judgeGroup decides every article of a group, whose ids are reserved:
// against the stored articles, found for the whole group at once, and
// against the articles before it in the group, as judge decides one: a near
// duplicate only boilerplate joins to it is none, and an article left
// without a match may be a partial duplicate. It also returns how many
// candidates the article index gave each.
func (s *Service) judgeGroup(ctx context.Context, r JudgeReader, g []*arrival, ids []int64) ([]decision, []int, error) {
	exactQs := make([]ExactQuery, len(g))
	nearQs := make([]NearQuery, len(g))
	for i, it := range g {
		exactQs[i] = exactQuery(it.fp, scope{})
		nearQs[i] = nearQuery(it.fp, it.in.PublishedAt, scope{}, it.opts)
	}
	exact, err := r.ExactMatches(ctx, exactQs)
	if err != nil {
		return nil, nil, err
	}
	near, err := r.NearCandidates(ctx, nearQs)
	if err != nil {
		return nil, nil, err
	}
	js := make([]*judging, len(g))
	counts := make([]int, len(g))
	var searched []int // the articles whose sentences are looked up: a near match to check, or no match
	earlier := make([]Candidate, 0, len(g))
	for i, it := range g {
		ex, nr := withEarlier(it.fp, it.in.PublishedAt, it.opts, earlier, exact[i], near[i])
		earlier = append(earlier, groupCandidate(it, ids[i]))
		var bound time.Time
		if !it.in.arrived {
			bound = effectivePublished(it.in.PublishedAt, s.now())
		}
		js[i], counts[i] = judgeCandidates(it.fp, bound, ex, nr, it.opts), len(near[i])
		if js[i].wantsSentences() {
			searched = append(searched, i)
		}
	}
	found, err := s.groupSentenceSearch(ctx, r, g, ids, searched)
	if err != nil {
		return nil, nil, err
	}
	var undecided []int
	for _, i := range searched {
		holders := holdersIn(g[i].fp, found[i])
		if err := s.boilerplate.confirm(g[i].fp, holders, g[i].unlocked); err != nil {
			return nil, nil, err
		}
		js[i].withHolders(holders)
		if js[i].undecided() {
			undecided = append(undecided, i)
		}
	}
	if err := judgeGroupPartials(ctx, r, g, ids, undecided, found, js); err != nil {
		return nil, nil, err
	}
	decisions := make([]decision, len(g))
	for i, j := range js {
		decisions[i] = j.decision()
	}
	return decisions, counts, nil
}

// groupSentenceSearch looks up the sentences of the articles searched of a
// group, all in one statement, and returns by article the stored sentences
// and those of the articles before it in the group that match its own. It
// learns the boilerplate the stored ones show (locks_boilerplate.go).
func (s *Service) groupSentenceSearch(ctx context.Context, r JudgeReader, g []*arrival, ids []int64, searched []int) (map[int][]SentenceMatch, error) {
	if len(searched) == 0 {
		return nil, nil
	}
	var all SentenceQuery
	owner := make([]int, 0) // the item of each query sentence
	offset := make(map[int]int, len(searched))
	for _, i := range searched {
		q := sentenceQuery(g[i].fp, 0)
		all.MaxDistance, all.PerSentence = q.MaxDistance, q.PerSentence
		offset[i] = len(all.Sentences)
		all.Sentences = append(all.Sentences, q.Sentences...)
		for range q.Sentences {
			owner = append(owner, i)
		}
	}
	found, err := r.SentenceMatches(ctx, all)
	if err != nil {
		return nil, err
	}
	perItem := make(map[int][]SentenceMatch, len(searched))
	for _, m := range found {
		i := owner[m.Query]
		m.Query -= offset[i]
		perItem[i] = append(perItem[i], m)
	}
	own := indexGroupSentences(g)
	for _, i := range searched {
		s.boilerplate.learn(g[i].fp, holdersIn(g[i].fp, perItem[i]))
		perItem[i] = append(perItem[i], groupSentenceMatches(g, ids, i, own)...)
	}
	return perItem, nil
}

// judgeGroupPartials decides, among the undecided articles of a group,
// those that are partial duplicates: of a stored article or of an article
// before them in the group, by found, their sentences' matches
// (groupSentenceSearch).
func judgeGroupPartials(ctx context.Context, r JudgeReader, g []*arrival, ids []int64, undecided []int, found map[int][]SentenceMatch, js []*judging) error {
	if len(undecided) == 0 {
		return nil
	}
	prospects := make(map[int][]int64, len(undecided))
	var storedIDs []int64
	for _, i := range undecided {
		it := g[i]
		prospects[i] = js[i].prospects(found[i], partialScope(it.fp, it.in.PublishedAt, time.Time{}, it.opts), nil)
		for _, id := range prospects[i] {
			if !isGroupID(id, ids) {
				storedIDs = append(storedIDs, id)
			}
		}
	}
	slices.Sort(storedIDs)
	stored, err := r.Candidates(ctx, slices.Compact(storedIDs))
	if err != nil {
		return err
	}
	byID := make(map[int64]Candidate, len(stored))
	for _, c := range stored {
		byID[c.ID] = c
	}
	for _, i := range undecided {
		var candidates []Candidate
		for _, id := range prospects[i] {
			if j := slices.Index(ids, id); j >= 0 {
				candidates = append(candidates, groupCandidate(g[j], id))
			} else if c, ok := byID[id]; ok {
				candidates = append(candidates, c)
			}
		}
		js[i].withProspects(found[i], candidates)
	}
	return nil
}

// groupCandidate is an article of the group as a candidate of a later one.
// Its cluster is set when the later one links to it, once its own is
// known.
func groupCandidate(it *arrival, id int64) Candidate {
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
