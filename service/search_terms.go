package service

import (
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The bounds of a search.
const (
	MaxSearchLength    = 200 // characters of a query
	DefaultSearchLimit = 50
	MaxSearchLimit     = 200
)

// SearchMatch says how an article matched a query.
type SearchMatch string

// The ways an article matches a query.
const (
	MatchID         SearchMatch = "id"          // the query is its id
	MatchKey        SearchMatch = "key"         // the query is its source and external id
	MatchExternalID SearchMatch = "external_id" // the query is its external id
	MatchURL        SearchMatch = "url"         // the query is its URL
	MatchWords      SearchMatch = "words"       // its headline holds the query's words
)

// SearchTerms is what a query may be, each to look up.
type SearchTerms struct {
	Text       string      // the query without the blanks around it
	ID         int64       // an article id: the query is a whole number; 0 otherwise
	Key        *ArticleKey // source and external id: the query is two parts; nil otherwise
	ExternalID string      // the query as an external id: it holds no blank; "" otherwise
	URL        string      // the query as a URL: it has a scheme or a host and a path; "" otherwise
	// Words says whether to look for the query in headlines: it holds two
	// neighbouring CJK characters, or a letter or digit.
	Words bool
}

// ParseSearch reads a query. KindInvalid (field "q") for one that is
// empty, longer than MaxSearchLength characters, not UTF-8, or holds a
// control character.
func ParseSearch(text string) (SearchTerms, error) {
	text = strings.TrimSpace(text)
	switch {
	case text == "":
		return SearchTerms{}, Invalid("q", "is required: words of a headline, a CMS id, a URL or an article id")
	case !utf8.ValidString(text):
		return SearchTerms{}, Invalid("q", "is not valid UTF-8")
	case strings.IndexFunc(text, unicode.IsControl) >= 0:
		return SearchTerms{}, Invalid("q", "must not contain control characters")
	}
	if n := utf8.RuneCountInString(text); n > MaxSearchLength {
		return SearchTerms{}, Invalid("q", "must be at most %d characters, not %d", MaxSearchLength, n)
	}
	t := SearchTerms{Text: text, Words: searchable(text)}
	if n, err := strconv.ParseInt(text, 10, 64); err == nil && n > 0 && text[0] != '+' {
		t.ID = n
	}
	fields := strings.Fields(text)
	switch len(fields) {
	case 1:
		if utf8.RuneCountInString(text) <= MaxExternalIDLength {
			t.ExternalID = text
		}
		if looksLikeURL(text) {
			t.URL = text
		}
	case 2:
		if utf8.RuneCountInString(fields[0]) <= MaxSourceLength && utf8.RuneCountInString(fields[1]) <= MaxExternalIDLength {
			t.Key = &ArticleKey{Source: fields[0], ExternalID: fields[1]}
		}
	}
	return t, nil
}

// searchable reports whether a query has something headlines are indexed
// by: a letter or digit, or two neighbouring CJK characters.
func searchable(text string) bool {
	prevCJK := false
	for _, r := range text {
		cjk := isCJK(r)
		switch {
		case cjk && prevCJK:
			return true
		case !cjk && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			return true
		}
		prevCJK = cjk
	}
	return false
}

// isCJK reports a character that headlines are indexed by in pairs, as
// search_keys (migration 00021) reads them.
func isCJK(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

// looksLikeURL reports a query that is a URL: an http(s) one, or a host
// name with a dot followed by a path.
func looksLikeURL(text string) bool {
	lower := strings.ToLower(text)
	if strings.HasPrefix(lower, "http://") || strings.HasPrefix(lower, "https://") {
		return true
	}
	host, path, ok := strings.Cut(text, "/")
	if !ok || path == "" || !strings.Contains(host, ".") {
		return false
	}
	u, err := url.Parse("http://" + text)
	return err == nil && u.Host == host
}

// SearchHit is an article a search found.
type SearchHit struct {
	Article
	Match       SearchMatch
	ClusterSize int // members of its cluster, itself included
}

// SearchResult is what a search found: the articles its id, key or URL
// name first, then those whose headline holds its words, newest first.
type SearchResult struct {
	Terms SearchTerms
	Hits  []SearchHit
	// More says that more headlines hold the words than Hits lists.
	More bool
}

// Exact reports the article the query names by id, key or URL, when it
// names exactly one.
func (r SearchResult) Exact() (SearchHit, bool) {
	var found []SearchHit
	for _, h := range r.Hits {
		if h.Match != MatchWords {
			found = append(found, h)
		}
	}
	if len(found) == 1 {
		return found[0], true
	}
	return SearchHit{}, false
}

// SearchGroup is the articles a search found in one cluster.
type SearchGroup struct {
	ClusterID   int64
	ClusterSize int
	Hits        []SearchHit // in the result's order
}

// ByCluster groups the hits by cluster (one pass, a map): the clusters in
// the order of their first hit — what the query names exactly, then the
// newest headline — each with its hits in the result's order. A story
// copied nine times is one group of nine, not nine rows among others.
func (r SearchResult) ByCluster() []SearchGroup {
	var out []SearchGroup
	at := make(map[int64]int, len(r.Hits))
	for _, h := range r.Hits {
		i, ok := at[h.ClusterID]
		if !ok {
			i = len(out)
			at[h.ClusterID] = i
			out = append(out, SearchGroup{ClusterID: h.ClusterID, ClusterSize: h.ClusterSize})
		}
		out[i].Hits = append(out[i].Hits, h)
	}
	return out
}

// MaxSources is the most sources Sources returns.
const MaxSources = 1000
