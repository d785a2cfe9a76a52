package handlers

import (
	"fmt"
	"math"
	"time"

	"github.com/newsdedup/newsdedup/service"
)

// verdictResponse is a verdict. ID is absent for a check, which stores
// nothing, and ClusterID null for a check that matched nothing or would head
// a cluster of its own; Created is present only in a batch's results.
type verdictResponse struct {
	ID          *int64             `json:"id,omitempty"`
	ExternalID  string             `json:"external_id"`
	Source      string             `json:"source"`
	Status      service.Status     `json:"status"`
	DuplicateOf *referenceResponse `json:"duplicate_of"`
	ClusterID   *int64             `json:"cluster_id"`
	Matches     []matchResponse    `json:"matches"`
	Simhash     string             `json:"simhash"`
	Created     *bool              `json:"created,omitempty"`
	// SharedSentences is present only in a check that asked for it.
	SharedSentences *sharedSentencesResponse `json:"shared_sentences,omitempty"`
	// Incomplete and MissingPartitions are present only in a check that
	// allowed an incomplete answer and was judged without the sentence
	// partitions named.
	Incomplete        bool  `json:"incomplete,omitempty"`
	MissingPartitions []int `json:"missing_partitions,omitempty"`
}

type referenceResponse struct {
	ID         int64             `json:"id"`
	ExternalID string            `json:"external_id"`
	Distance   int               `json:"distance"`
	WordRatio  float64           `json:"word_ratio"`
	Overlap    float64           `json:"overlap"`
	Coverage   *coverageResponse `json:"coverage,omitempty"`
}

// coverageResponse is the coverage of a partial duplicate: the share of
// this article's indexed sentences found in that one, and of that one's
// found in this.
type coverageResponse struct {
	This float64 `json:"this"`
	That float64 `json:"that"`
}

// coverage is c as the API writes it, nil for a link that is not partial.
func coverage(status service.Status, c service.Coverage) *coverageResponse {
	if status != service.StatusPartialDuplicate {
		return nil
	}
	return &coverageResponse{This: ratio(c.This), That: ratio(c.That)}
}

type matchResponse struct {
	ID          int64             `json:"id"`
	ExternalID  string            `json:"external_id"`
	Source      string            `json:"source"`
	Title       string            `json:"title"`
	PublishedAt string            `json:"published_at"`
	Distance    int               `json:"distance"`
	WordRatio   float64           `json:"word_ratio"`
	Overlap     float64           `json:"overlap"`
	Coverage    *coverageResponse `json:"coverage,omitempty"`
}

// verdict shapes v: with its id unless it is a check's, with created when
// it is a batch result.
func verdict(v service.Verdict, withID, withCreated bool) verdictResponse {
	r := verdictResponse{
		ExternalID: v.ExternalID,
		Source:     v.Source,
		Status:     v.Status,
		Matches:    make([]matchResponse, 0, len(v.Matches)),
		Simhash:    simhash(v.Simhash),
	}
	if withID {
		r.ID = &v.ID
	}
	if v.ClusterID != 0 {
		r.ClusterID = &v.ClusterID
	}
	if withCreated {
		r.Created = &v.Created
	}
	if v.SharedSentences != nil {
		r.SharedSentences = sharedSentences(*v.SharedSentences)
	}
	if len(v.MissingPartitions) > 0 {
		r.Incomplete, r.MissingPartitions = true, v.MissingPartitions
	}
	if d := v.DuplicateOf; d != nil {
		r.DuplicateOf = &referenceResponse{ID: d.ID, ExternalID: d.ExternalID, Distance: d.Distance,
			WordRatio: ratio(d.WordRatio), Overlap: ratio(d.Overlap), Coverage: coverage(v.Status, d.Coverage)}
	}
	for _, m := range v.Matches {
		r.Matches = append(r.Matches, matchResponse{
			ID:          m.ID,
			ExternalID:  m.ExternalID,
			Source:      m.Source,
			Title:       m.Title,
			PublishedAt: timestamp(m.PublishedAt),
			Distance:    m.Distance,
			WordRatio:   ratio(m.WordRatio),
			Overlap:     ratio(m.Overlap),
			Coverage:    coverage(v.Status, m.Coverage),
		})
	}
	return r
}

// articleResponse is a stored article. DuplicateOf, Distance and WordRatio
// are null for the head of a cluster.
type articleResponse struct {
	ID          int64             `json:"id"`
	ExternalID  string            `json:"external_id"`
	Source      string            `json:"source"`
	Title       string            `json:"title"`
	URL         string            `json:"url"`
	PublishedAt string            `json:"published_at"`
	IngestedAt  string            `json:"ingested_at"`
	Simhash     string            `json:"simhash"`
	Status      service.Status    `json:"status"`
	DuplicateOf *int64            `json:"duplicate_of"`
	ClusterID   int64             `json:"cluster_id"`
	Distance    *int              `json:"distance"`
	WordRatio   *float64          `json:"word_ratio"`
	Overlap     *float64          `json:"overlap"`
	Coverage    *coverageResponse `json:"coverage,omitempty"`
}

func article(a service.Article) articleResponse {
	r := articleResponse{
		ID:          a.ID,
		ExternalID:  a.ExternalID,
		Source:      a.Source,
		Title:       a.Title,
		URL:         a.URL,
		PublishedAt: timestamp(a.PublishedAt),
		IngestedAt:  timestamp(a.IngestedAt),
		Simhash:     simhash(a.Simhash),
		Status:      a.Status,
		ClusterID:   a.ClusterID,
	}
	if !a.IsCanonical() {
		dup, dist, wr, ov := a.DuplicateOf, a.Distance, ratio(a.WordRatio), ratio(a.Overlap)
		r.DuplicateOf, r.Distance, r.WordRatio, r.Overlap = &dup, &dist, &wr, &ov
		r.Coverage = coverage(a.Status, a.Coverage)
	}
	return r
}

// duplicatesResponse is the other members of an article's cluster.
type duplicatesResponse struct {
	ID         int64             `json:"id"`
	ClusterID  int64             `json:"cluster_id"`
	Duplicates []articleResponse `json:"duplicates"`
}

// fingerprintResponse explains a fingerprint.
type fingerprintResponse struct {
	Simhash  string            `json:"simhash"`
	Version  int               `json:"version"`
	Blocks   blocksResponse    `json:"blocks"`
	Keywords []keywordResponse `json:"keywords"`
}

type blocksResponse struct {
	A [4]uint16 `json:"a"`
	B [4]uint16 `json:"b"`
}

type keywordResponse struct {
	Word   string  `json:"word"`
	Weight float64 `json:"weight"`
}

func fingerprintOf(f service.FingerprintResult) fingerprintResponse {
	r := fingerprintResponse{
		Simhash:  simhash(f.Simhash),
		Version:  int(f.Version),
		Blocks:   blocksResponse{A: f.Blocks.A, B: f.Blocks.B},
		Keywords: make([]keywordResponse, 0, len(f.Keywords)),
	}
	for _, k := range f.Keywords {
		r.Keywords = append(r.Keywords, keywordResponse{Word: k.Word, Weight: round4(k.Weight)})
	}
	return r
}

// comparisonResponse says how alike two texts are.
type comparisonResponse struct {
	Distance       int      `json:"distance"`
	WordRatio      float64  `json:"word_ratio"`
	Overlap        float64  `json:"overlap"`
	NearDuplicate  bool     `json:"near_duplicate"`
	SharedKeywords []string `json:"shared_keywords"`
}

func comparison(c service.Comparison) comparisonResponse {
	r := comparisonResponse{
		Distance:       c.Distance,
		WordRatio:      ratio(c.WordRatio),
		Overlap:        ratio(c.Overlap),
		NearDuplicate:  c.NearDuplicate,
		SharedKeywords: c.SharedKeywords,
	}
	if r.SharedKeywords == nil {
		r.SharedKeywords = []string{}
	}
	return r
}

// batchResponse holds one result per article of a batch, in order: a
// verdictResponse or an errorResponse.
type batchResponse struct {
	Results []any `json:"results"`
}

// simhash is a fingerprint as the API writes it: 16 lower-case hex digits.
func simhash(h uint64) string { return fmt.Sprintf("%016x", h) }

// timestamp is a time as the API writes it: RFC 3339 in UTC.
func timestamp(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// ratio is a shared-word ratio as the API writes it: 4 decimals.
func ratio(r float64) float64 { return round4(r) }

func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }

// sharedSentencesResponse is what an article's sentences have in common
// with stored articles.
type sharedSentencesResponse struct {
	ID        *int64                  `json:"id,omitempty"`
	Sentences int                     `json:"sentences"`
	Articles  []sharedArticleResponse `json:"articles"`
}

type sharedArticleResponse struct {
	ID          int64                  `json:"id"`
	ExternalID  string                 `json:"external_id"`
	Source      string                 `json:"source"`
	Title       string                 `json:"title"`
	PublishedAt string                 `json:"published_at"`
	Status      service.Status         `json:"status"`
	ClusterID   int64                  `json:"cluster_id"`
	Shared      int                    `json:"shared"`
	Coverage    coverageResponse       `json:"coverage"`
	Sentences   []sentencePairResponse `json:"sentences"`
}

type sentencePairResponse struct {
	Position      int    `json:"position"`
	Text          string `json:"text"`
	OtherPosition int    `json:"other_position"`
	OtherText     string `json:"other_text"`
	Distance      int    `json:"distance"`
}

func sharedSentences(s service.SharedSentences) *sharedSentencesResponse {
	r := &sharedSentencesResponse{Sentences: s.Sentences, Articles: make([]sharedArticleResponse, 0, len(s.Articles))}
	if s.ArticleID != 0 {
		r.ID = &s.ArticleID
	}
	for _, a := range s.Articles {
		ar := sharedArticleResponse{
			ID: a.ID, ExternalID: a.ExternalID, Source: a.Source, Title: a.Title,
			PublishedAt: timestamp(a.PublishedAt), Status: a.Status, ClusterID: a.ClusterID,
			Coverage:  coverageResponse{This: ratio(a.Coverage.This), That: ratio(a.Coverage.That)},
			Sentences: make([]sentencePairResponse, 0, len(a.Pairs)),
		}
		shared := map[int]bool{}
		for _, p := range a.Pairs {
			shared[p.Position] = true
			ar.Sentences = append(ar.Sentences, sentencePairResponse{
				Position: p.Position, Text: p.Text, OtherPosition: p.OtherPosition, OtherText: p.OtherText, Distance: p.Distance,
			})
		}
		ar.Shared = len(shared)
		r.Articles = append(r.Articles, ar)
	}
	return r
}
