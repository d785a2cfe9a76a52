package service

import (
	"cmp"
	"context"
	"slices"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// Other coverage: the articles that are not in a cluster but share
// sentences with it — other outlets quoting the same press release, the
// multi-viewpoint case of the design — found by the sentence index from
// the cluster's original and its kept member (the other members are
// copies of them).

// MaxOtherCoverage is the most articles OtherCoverage lists.
const MaxOtherCoverage = 50

// OtherCoverage returns the articles outside the cluster that share
// sentences with its original or its kept member: one entry an article,
// newest first (then the highest id), each with the sentences it shares.
func (s *Service) OtherCoverage(ctx context.Context, v ClusterView) ([]SharedArticle, error) {
	byID := map[int64]SharedArticle{}
	for _, id := range slices.Compact([]int64{v.Original.ID, v.Kept.ID}) {
		if id == 0 {
			continue
		}
		shared, err := s.pageSharedSentences(ctx, id)
		if err != nil {
			return nil, err
		}
		for _, a := range shared.Articles {
			if a.ClusterID == v.ID {
				continue
			}
			if old, ok := byID[a.ID]; !ok || len(a.Pairs) > len(old.Pairs) {
				byID[a.ID] = a
			}
		}
	}
	out := make([]SharedArticle, 0, len(byID))
	for _, a := range byID {
		out = append(out, a)
	}
	slices.SortFunc(out, func(a, b SharedArticle) int {
		return cmp.Or(b.PublishedAt.Compare(a.PublishedAt), cmp.Compare(b.ID, a.ID))
	})
	if len(out) > MaxOtherCoverage {
		out = out[:MaxOtherCoverage]
	}
	return out, nil
}

// maxPageSentences bounds the sentences of an article a cluster's page
// looks up for its other coverage, beyond MaxReadRunes: a news article
// has some thirty; a 2 MB compilation tens of thousands, each a lookup.
const maxPageSentences = 256

// pageSharedSentences is SharedSentences of article id as a cluster's page
// asks for it: its shingles cut when long (Member), and of its text the
// start the page reads (MaxReadRunes) with at most maxPageSentences
// sentences — never the whole of a long article (issue 44).
func (s *Service) pageSharedSentences(ctx context.Context, id int64) (SharedSentences, error) {
	a, err := s.store.Member(ctx, id)
	if err != nil {
		return SharedSentences{}, err
	}
	fp := a.fingerprint()
	sentences, plain, _, err := s.store.ArticleTextHead(ctx, id, MaxReadRunes)
	if err != nil {
		return SharedSentences{}, err
	}
	fp.Sentences, fp.PlainBody = sentences[:min(len(sentences), maxPageSentences)], plain
	shared, err := s.sharedSentences(ctx, s.store, fp, a.ID, a.PublishedAt, SharedOptions{Limit: MaxOtherCoverage})
	shared.ArticleID = a.ID
	return shared, err
}

// MaxOtherCoverageCounted is where the list of clusters stops counting a
// cluster's other coverage: it says "20+" past it.
const MaxOtherCoverageCounted = 20

// OtherCoverageCount is how many articles a cluster's other coverage
// lists, as the list of clusters shows it.
type OtherCoverageCount struct {
	Articles int  // at most MaxOtherCoverageCounted
	More     bool // more than MaxOtherCoverageCounted
}

// What the list reads to count other coverage, whatever the members'
// lengths (issue 44: fifty clusters of a 2 MB compilation made the list
// read their texts and look up their tens of thousands of sentences on
// every load): each article's first countedSentences sentences, and the
// texts that confirm sentences that differ slightly only from articles of
// at most countedTextBytes — a long article's near sentences are not
// counted, its identical ones are. A news article has some thirty
// sentences in 3 KB: the count of every such article is the panel's.
const (
	countedSentences = 64
	countedTextBytes = 64 << 10
)

// otherCoverageCounts counts, for each of a page's clusters (cluster →
// its original and kept member), the articles outside it that share
// sentences with them, as OtherCoverage finds them (the same search and
// rules, linksFrom) within the bounds above, but for all the clusters in
// three statements: the texts, then every sentence's matches at once.
func (s *Service) otherCoverageCounts(ctx context.Context, clusters map[int64][]KeepCandidate) (map[int64]OtherCoverageCount, error) {
	var ids []int64
	for _, cs := range clusters {
		for _, c := range cs {
			ids = append(ids, c.ID)
		}
	}
	out := make(map[int64]OtherCoverageCount, len(clusters))
	if len(ids) == 0 {
		return out, nil
	}
	texts, err := s.store.CountedTexts(ctx, ids, countedSentences, countedTextBytes)
	if err != nil {
		return nil, err
	}
	type asked struct {
		cluster int64
		fp      fingerprint.Fingerprint
	}
	var qs []SentenceQuery
	var whose []asked
	for cluster, cs := range clusters {
		for _, c := range cs {
			t := texts[c.ID]
			if len(t.Sentences) == 0 {
				continue
			}
			fp := fingerprint.Fingerprint{Version: c.Version, Sentences: t.Sentences, PlainBody: t.Plain}
			qs = append(qs, sentenceQuery(fp, c.ID))
			whose = append(whose, asked{cluster, fp})
		}
	}
	if len(qs) == 0 {
		return out, nil
	}
	found, err := s.store.SentenceMatchesOf(ctx, qs, countedTextBytes)
	if err != nil {
		return nil, err
	}
	others := make(map[int64]map[int64]bool, len(clusters))
	for n, w := range whose {
		links := linksFrom(w.fp, found[n], func(m SentenceMatch) bool {
			return m.Version == w.fp.Version && m.ClusterID != w.cluster
		})
		if others[w.cluster] == nil {
			others[w.cluster] = make(map[int64]bool)
		}
		for id := range links {
			others[w.cluster][id] = true
		}
	}
	for cluster, set := range others {
		n := len(set)
		out[cluster] = OtherCoverageCount{Articles: min(n, MaxOtherCoverageCounted), More: n > MaxOtherCoverageCounted}
	}
	return out, nil
}
