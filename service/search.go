package service

import (
	"context"
)

// Search: one box that takes what an editor knows of a story — words of
// its headline, its CMS key (source and external id, or the external id
// alone), its URL or its article id — and finds the articles it names. A
// query is read as every one of these it may be (ParseSearch); the store
// looks each up by an index (migration 00021): an id, a key or a URL names
// an article exactly, and words find the headlines that hold them all,
// newest first. How headlines are indexed, and why so: docs/search.md.

// Search finds the articles a query names. KindInvalid for a query
// ParseSearch refuses and for a limit out of 1 to MaxSearchLimit. A query
// without Terms.Words (a lone CJK character) is looked up as a key alone.
func (s *Service) Search(ctx context.Context, query string, limit int) (SearchResult, error) {
	if limit < 1 || limit > MaxSearchLimit {
		return SearchResult{}, Invalid("limit", "must be from 1 to %d, not %d", MaxSearchLimit, limit)
	}
	terms, err := ParseSearch(query)
	if err != nil {
		return SearchResult{}, err
	}
	hits, err := s.store.SearchArticles(ctx, terms, limit+1)
	if err != nil {
		return SearchResult{}, err
	}
	r := SearchResult{Terms: terms, Hits: hits}
	words := 0
	for i, h := range hits {
		if h.Match != MatchWords {
			continue
		}
		if words++; words > limit {
			r.Hits, r.More = hits[:i], true
			break
		}
	}
	return r, nil
}

// Sources returns the known sources that begin with prefix (compared
// without case), sorted, at most MaxSources. KindInvalid for a prefix that
// is not a valid source.
func (s *Service) Sources(ctx context.Context, prefix string) ([]string, error) {
	if err := checkStrings("", field{"prefix", prefix}); err != nil {
		return nil, err
	}
	if err := checkLength("prefix", prefix, MaxSourceLength); err != nil {
		return nil, err
	}
	return s.store.Sources(ctx, prefix, MaxSources)
}
