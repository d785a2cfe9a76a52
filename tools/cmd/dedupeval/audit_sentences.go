package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
)

// The sentence audit (issue 10) asks the service, for a sample of stored
// articles, which sentences they share with others
// (GET /v1/articles/{id}/shared-sentences), samples the sentence links it
// answers, and counts those a reader would reject: two sentences that are
// not the same sentence (their 5-gram Jaccard under 0.5), or a sentence
// that is boilerplate (found in boilerplateFrom or more articles of the
// corpora), which says nothing about what two articles share.

// sentenceJaccardFrom is the 5-gram Jaccard index from which two sentences
// count as the same sentence.
const sentenceJaccardFrom = 0.5

// Sentence audit sizes.
const (
	sentenceRouteLimit = 20    // articles per shared-sentences answer
	maxAuditRequests   = 4_000 // articles asked at most
)

// sentenceAudit is the audit's outcome.
type sentenceAudit struct {
	// Skipped says why there is no audit ("" when there is one).
	Skipped string `json:"skipped,omitempty"`
	// Target is how many links the audit meant to sample.
	Target int `json:"target"`
	// Asked is how many articles were asked; Links how many distinct
	// sentence links they answered with; Sampled how many were classified.
	Asked   int `json:"articles_asked"`
	Links   int `json:"links"`
	Sampled int `json:"sampled"`
	// Rejected counts the sampled links a reader would reject, Different
	// and Boilerplate why (a link can be both; it counts once in
	// Rejected, as Different).
	Rejected    int             `json:"rejected"`
	Different   int             `json:"different_sentences"`
	Boilerplate int             `json:"boilerplate"`
	ByCorpus    map[string]rate `json:"rejected_by_corpus"`
	Examples    []sentenceExample
}

// sentenceExample names a rejected link by its articles' headlines.
type sentenceExample struct {
	Title      string  `json:"title"`
	OtherTitle string  `json:"other_title"`
	Reason     string  `json:"reason"`
	Jaccard    float64 `json:"jaccard"`
	// Articles is how many articles of the corpora hold the sentence.
	Articles int `json:"articles"`
}

// Why a reader rejects a sentence link.
const (
	reasonDifferent   = "different sentences"
	reasonBoilerplate = "boilerplate"
)

// sentenceLink is one link the route answered.
type sentenceLink struct {
	a, b        int // article indexes
	text, other string
}

// auditSentences runs the audit over the stored articles, sampling target
// links. It asks the articles in a fixed random order until it has seen
// three times target links (or asked maxAuditRequests).
func auditSentences(ctx context.Context, c *client, s *newsSet, st *stored, target int) (sentenceAudit, error) {
	res := sentenceAudit{Target: target}
	rng := rand.New(rand.NewPCG(repostSeed, 3))
	order := rng.Perm(len(st.Articles))
	seen := make(map[[4]int]bool)
	var links []sentenceLink
	for _, i := range order {
		if res.Asked >= maxAuditRequests || len(links) >= 3*target {
			break
		}
		id := st.Articles[i].ID
		if id == 0 {
			continue
		}
		ans, err := c.sharedSentences(ctx, id, sentenceRouteLimit)
		if errors.Is(err, errRouteAbsent) {
			return sentenceAudit{Target: target, Skipped: "the server does not serve GET /v1/articles/{id}/shared-sentences yet (it answered 404 for a stored article)"}, nil
		}
		if err != nil {
			return res, err
		}
		res.Asked++
		for _, other := range ans.Articles {
			j, ok := st.indexOf(other.ID)
			if !ok {
				continue
			}
			for _, l := range other.Sentences {
				key := [4]int{i, j, l.Position, l.OtherPosition}
				if j < i {
					key = [4]int{j, i, l.OtherPosition, l.Position}
				}
				if !seen[key] {
					seen[key] = true
					links = append(links, sentenceLink{a: i, b: j, text: l.Text, other: l.OtherText})
				}
			}
		}
	}
	res.Links = len(links)
	if len(links) == 0 {
		res.Skipped = fmt.Sprintf("the service answered no shared sentence for the %d articles asked", res.Asked)
		return res, nil
	}
	rng.Shuffle(len(links), func(x, y int) { links[x], links[y] = links[y], links[x] })
	links = links[:min(len(links), target)]
	classifySentenceLinks(&res, s, links, sentenceFrequency(bodiesOf(s.Articles)))
	return res, nil
}

// classifySentenceLinks counts the links a reader would reject.
func classifySentenceLinks(res *sentenceAudit, s *newsSet, links []sentenceLink, freq map[string]int) {
	res.ByCorpus = make(map[string]rate)
	res.Sampled = len(links)
	type rejected struct {
		l       sentenceLink
		reason  string
		jaccard float64
		n       int
	}
	var bad []rejected
	for _, l := range links {
		a, b := compact(l.text), compact(l.other)
		j := likenessOf(gramsOf(a), gramsOf(b)).Jaccard
		n := max(freq[a], freq[b])
		reason := ""
		switch {
		case j < sentenceJaccardFrom:
			reason = reasonDifferent
			res.Different++
		case n >= boilerplateFrom:
			reason = reasonBoilerplate
			res.Boilerplate++
		}
		corpus := s.Articles[l.a].Corpus
		r := res.ByCorpus[corpus]
		r.add(reason != "")
		res.ByCorpus[corpus] = r
		if reason != "" {
			res.Rejected++
			bad = append(bad, rejected{l, reason, j, n})
		}
	}
	// Different sentences first: the worse kind.
	slices.SortStableFunc(bad, func(x, y rejected) int {
		switch {
		case x.reason == y.reason:
			return 0
		case x.reason == reasonDifferent:
			return -1
		}
		return 1
	})
	for _, r := range bad[:min(len(bad), maxExamples)] {
		res.Examples = append(res.Examples, sentenceExample{
			Title: shortTitle(s.Articles[r.l.a].Title), OtherTitle: shortTitle(s.Articles[r.l.b].Title),
			Reason: r.reason, Jaccard: r.jaccard, Articles: r.n,
		})
	}
}

func bodiesOf(articles []newsArticle) []string {
	out := make([]string, len(articles))
	for i := range articles {
		out[i] = articles[i].Body
	}
	return out
}

// rejectedRate is the share of sampled links a reader would reject.
func (a sentenceAudit) rejectedRate() rate { return rate{Hit: a.Rejected, Of: a.Sampled} }
