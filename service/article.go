package service

import (
	"crypto/sha256"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// Status is the verdict on an article.
type Status string

// The verdicts.
const (
	StatusUnique           Status = "unique"
	StatusNearDuplicate    Status = "near_duplicate"
	StatusExactDuplicate   Status = "exact_duplicate"
	StatusPartialDuplicate Status = "partial_duplicate"
)

// ContentType says how to read an article's title and body.
type ContentType string

// The content types an article may have.
const (
	ContentText ContentType = "text"
	ContentHTML ContentType = "html"
)

// The longest text fields, in characters. Each is checked before anything
// reaches the database (a long source would overflow the key's B-tree
// entry); a body is bounded by the request's size and, once normalised, by
// fingerprint.MaxNormalizedBytes.
const (
	MaxExternalIDLength = 256
	MaxSourceLength     = 256
	MaxTitleLength      = 1000
	MaxURLLength        = 4096
)

// Text is what a fingerprint is made of: a title and a body, as plain text
// or as HTML.
type Text struct {
	Title       string
	Body        string
	ContentType ContentType // "" means ContentText
}

// validate checks the text and fills in its default content type. prefix is
// put before field names in errors ("a." for the first text of a compare).
func (t *Text) validate(prefix string) error {
	if strings.TrimSpace(t.Body) == "" {
		return Invalid(prefix+"body", "is required and must not be blank")
	}
	switch t.ContentType {
	case "":
		t.ContentType = ContentText
	case ContentText, ContentHTML:
	default:
		return Invalid(prefix+"content_type", "must be %q or %q, not %q", ContentText, ContentHTML, t.ContentType)
	}
	if err := checkLength(prefix+"title", t.Title, MaxTitleLength); err != nil {
		return err
	}
	return checkStrings(prefix, field{"title", t.Title}, field{"body", t.Body})
}

// document is the text as a fingerprint reads it.
func (t *Text) document() fingerprint.Document {
	return fingerprint.Document{Title: t.Title, Body: t.Body, HTML: t.ContentType == ContentHTML}
}

// ArticleInput is an article as a client sends it.
type ArticleInput struct {
	Text
	ExternalID  string
	Source      string
	URL         string
	PublishedAt time.Time // the zero time means now

	arrived bool // PublishedAt was zero and is the arrival time (rules_lineage.go)
}

// validate checks every field; requireID says whether external_id is
// required (it is to store an article, not to check one).
func (in *ArticleInput) validate(requireID bool) error {
	if requireID && in.ExternalID == "" {
		return Invalid("external_id", "is required")
	}
	for _, f := range []struct {
		name, value string
		max         int
	}{
		{"external_id", in.ExternalID, MaxExternalIDLength},
		{"source", in.Source, MaxSourceLength},
		{"url", in.URL, MaxURLLength},
	} {
		if err := checkLength(f.name, f.value, f.max); err != nil {
			return err
		}
	}
	// In UTC, as it is stored and returned: 9999-12-31T23:59:59-14:00 is in
	// the year 10000 there, which RFC 3339 cannot write.
	if y := in.PublishedAt.UTC().Year(); !in.PublishedAt.IsZero() && (y < 1 || y > 9999) {
		return Invalid("published_at", "must be within the years 1 to 9999 in UTC, not in %d", y)
	}
	if err := checkStrings("", field{"external_id", in.ExternalID}, field{"source", in.Source}, field{"url", in.URL}); err != nil {
		return err
	}
	return in.Text.validate("")
}

// checkLength refuses a value longer than max characters.
func checkLength(name, value string, max int) error {
	if len(value) <= max { // fewer bytes than max: fewer characters too
		return nil
	}
	if n := utf8.RuneCountInString(value); n > max {
		return Invalid(name, "must be at most %d characters, not %d", max, n)
	}
	return nil
}

type field struct{ name, value string }

// checkStrings refuses invalid UTF-8 and the NUL character, which
// PostgreSQL's text cannot hold.
func checkStrings(prefix string, fields ...field) error {
	for _, f := range fields {
		if !utf8.ValidString(f.value) {
			return Invalid(prefix+f.name, "is not valid UTF-8")
		}
		if strings.IndexByte(f.value, 0) >= 0 {
			return Invalid(prefix+f.name, "must not contain the NUL character")
		}
	}
	return nil
}

// Article is a stored article. Its body is stored but never read back: the
// API does not return it and the dedup decision needs only the fingerprint.
type Article struct {
	ID          int64
	ExternalID  string
	Source      string
	Title       string
	URL         string
	ContentType ContentType
	PublishedAt time.Time
	IngestedAt  time.Time

	Simhash            uint64
	FingerprintVersion fingerprint.Version
	Words              fingerprint.WordSet
	ContentHash        [sha256.Size]byte
	Shingles           fingerprint.ShingleSet
	// Sentences are its indexed sentences, and PlainBody the text they
	// point into: written with the article, read only when asked for.
	Sentences []fingerprint.Sentence
	PlainBody string

	Status Status
	// DuplicateOf is the article this one links to: an article ingested
	// before it that it was compared with and matched. 0 when the article
	// heads its cluster.
	DuplicateOf int64
	// ClusterID is the id of the cluster's head, the earliest ingested
	// member, which every link of the cluster leads to; the article's own id
	// when it heads its cluster.
	ClusterID int64
	// Similarity is to DuplicateOf, when the article links to one.
	Similarity
	// Credit is how it credits DuplicateOf (rules_credit.go); "" when it
	// links to none, or was stored before credit was kept.
	Credit Credit
}

// IsCanonical reports whether the article heads its cluster.
func (a *Article) IsCanonical() bool { return a.DuplicateOf == 0 || a.IsDriftHead() }

// fingerprint is the stored fingerprint of the article.
func (a *Article) fingerprint() fingerprint.Fingerprint {
	return fingerprint.Fingerprint{
		Simhash:     a.Simhash,
		Version:     a.FingerprintVersion,
		Words:       a.Words,
		ContentHash: a.ContentHash,
		Shingles:    a.Shingles,
		Sentences:   a.Sentences,
		PlainBody:   a.PlainBody,
	}
}

// Candidate is a stored article as the dedup decision sees it: its identity
// and fingerprint, without its text.
type Candidate struct {
	ID          int64
	ExternalID  string
	Source      string
	Title       string
	PublishedAt time.Time
	Simhash     uint64
	Words       fingerprint.WordSet
	ContentHash [sha256.Size]byte
	Shingles    fingerprint.ShingleSet
	ClusterID   int64
	IngestedAt  time.Time // zero for an article of the group being stored
}
