package service

import (
	"slices"
	"time"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// The verdict's rules in the order they apply. Three drivers judge: one
// article (judge.go), a group of new ones (judge_group.go), and stored ones
// again (dependants_judge.go). Each reads what the next step asks for, in
// as few statements as it can, and hands the values to a judging, which
// decides from them alone:
//
//  1. from the stored copies and near candidates (the editors' separations
//     left out): decide (rules_near.go);
//  2. if boilerplate may explain a near match, or there is no match, the
//     sentence index's holders of each sentence: redecide without the near
//     candidates only boilerplate joins (rules_boilerplate.go);
//  3. if there is still no match, the articles sharing sentences with it:
//     the best covered are read and measured (decidePartial,
//     rules_partial.go).
//
// The rules read nothing and lock nothing, so a test can hold a group's
// verdicts to one-by-one verdicts without a database (rules_verdict_test.go).
type judging struct {
	fp fingerprint.Fingerprint
	// published is the article's effective publication: no step links it
	// as a partial duplicate to an article published after it, but to one
	// heading its cluster, which it then heads (withoutLaterPartials,
	// decidePartial); zero for no bound.
	published     time.Time
	opts          Options
	exact, near   []Candidate
	d             decision
	links         map[int64]*sharedArticle // step 3's articles sharing sentences
	boilerplate   fingerprint.ShingleSet   // step 2's boilerplate shingles
	boilerplateAt []int                    // and the sentences they come from
}

// judgeCandidates is step 1: fp, published at published (effective; zero
// for no bound on its partial matches), judged against its stored copies
// (exact) and near candidates (near).
func judgeCandidates(fp fingerprint.Fingerprint, published time.Time, exact, near []Candidate, opts Options) *judging {
	return &judging{fp: fp, published: published, opts: opts, exact: exact, near: near,
		d: withoutLaterPartials(decide(fp, exact, near, opts), published)}
}

// checksBoilerplate reports whether step 2 may take the near match away.
func (j *judging) checksBoilerplate() bool {
	return needsBoilerplateCheck(j.fp, j.d)
}

// wantsSentences reports whether step 2 is needed: a near match to check,
// or no match and sentences to look up.
func (j *judging) wantsSentences() bool {
	return j.checksBoilerplate() || (j.d.best == nil && len(j.fp.Sentences) > 0)
}

// withHolders is step 2, from how many stored sentences match each of the
// article's.
func (j *judging) withHolders(holders []Holders) {
	j.boilerplate = boilerplateShingles(j.fp, holders)
	j.boilerplateAt = boilerplateSentences(holders)
	if j.checksBoilerplate() {
		j.d = withoutLaterPartials(redecide(j.fp, j.d, j.exact, j.near, holders, j.opts), j.published)
	}
}

// undecided reports whether step 3 is needed: no match yet.
func (j *judging) undecided() bool {
	return j.d.best == nil
}

// prospects is step 3's question: the articles worth measuring among those
// whose sentences found matches of the article's, within says which count,
// those apart left out (partialProspects), ascending.
func (j *judging) prospects(found []SentenceMatch, within func(SentenceMatch) bool, apart separations) []int64 {
	j.links = linksFrom(j.fp, found, within)
	return slices.DeleteFunc(partialProspects(j.links), apart.has)
}

// withProspects is step 3, from the candidates prospects asked for (those
// still stored) and found, the matches prospects was given. The articles
// steps 1 and 2 left out as later partial matches stay left out (later):
// a group holding one, a bulletin of the next day in the same batch, is
// stored one by one, so that this one heads it, whatever step 3 finds.
func (j *judging) withProspects(found []SentenceMatch, candidates []Candidate) {
	later := j.d.later
	j.d = decidePartial(j.fp, j.published, j.links, candidates, boilerplateShingles(j.fp, holdersIn(j.fp, found)), j.opts)
	for _, id := range later {
		if !slices.Contains(j.d.later, id) {
			j.d.later = append(j.d.later, id)
		}
	}
}

// decision is the verdict's decision so far.
func (j *judging) decision() decision {
	d := j.d
	d.boilerplate, d.boilerplateAt = j.boilerplate, j.boilerplateAt
	return d
}

// separations are the articles an editor separated from the article
// judged: never linked to it again.
type separations map[int64]bool

// has reports whether article id is separated.
func (s separations) has(id int64) bool { return s[id] }

// drop removes the separated articles from candidates.
func (s separations) drop(candidates []Candidate) []Candidate {
	if len(s) == 0 {
		return candidates
	}
	return slices.DeleteFunc(candidates, func(c Candidate) bool { return s[c.ID] })
}
