package service

import (
	"cmp"
	"context"
	"slices"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// KeywordsShown is how many keywords a fingerprint or a comparison lists.
const KeywordsShown = 20

// FingerprintResult explains the fingerprint of a text.
type FingerprintResult struct {
	Simhash  uint64
	Version  fingerprint.Version
	Blocks   fingerprint.Blocks
	Keywords []fingerprint.Keyword // the heaviest words, at most KeywordsShown
}

// Fingerprint returns the fingerprint of a text, its block values and its
// heaviest words. It stores nothing. Errors: KindInvalid, KindTooLarge,
// KindUnavailable when ctx ends first.
func (s *Service) Fingerprint(ctx context.Context, t Text) (FingerprintResult, error) {
	if err := t.validate(""); err != nil {
		return FingerprintResult{}, err
	}
	fp, err := s.fingerprint(ctx, &t, "")
	if err != nil {
		return FingerprintResult{}, err
	}
	return FingerprintResult{
		Simhash:  fp.Simhash,
		Version:  fp.Version,
		Blocks:   fingerprint.BlocksOf(fp.Simhash),
		Keywords: fp.Keywords[:min(len(fp.Keywords), KeywordsShown)],
	}, nil
}

// Comparison says how alike two texts are, and why.
type Comparison struct {
	Similarity
	// NearDuplicate applies the service's default options, as an ingest
	// without options would: the same text, or within MaxDistance bits,
	// sharing MinOverlap of both texts and MinWordRatio of the words, neither
	// holding the other plus much more (rules_near.go).
	NearDuplicate bool
	// SharedKeywords are the words both texts count, the heaviest (by the sum
	// of their weights in the two texts) first, at most KeywordsShown.
	SharedKeywords []string
}

// Compare fingerprints two texts and compares them. It stores nothing.
// Errors: KindInvalid, naming the field as a.body, b.content_type, …,
// KindTooLarge, KindUnavailable when ctx ends first.
func (s *Service) Compare(ctx context.Context, a, b Text) (Comparison, error) {
	if err := a.validate("a."); err != nil {
		return Comparison{}, err
	}
	if err := b.validate("b."); err != nil {
		return Comparison{}, err
	}
	fa, err := s.fingerprint(ctx, &a, "a.")
	if err != nil {
		return Comparison{}, err
	}
	fb, err := s.fingerprint(ctx, &b, "b.")
	if err != nil {
		return Comparison{}, err
	}
	c := Comparison{
		Similarity:     similarity(fa, fb.Simhash, fb.Words, fb.Shingles),
		SharedKeywords: sharedKeywords(fa.Keywords, fb.Keywords, KeywordsShown),
	}
	d := s.defaults
	c.NearDuplicate = fa.ContentHash == fb.ContentHash || nearEnough(c.Similarity, d)
	return c, nil
}

// sharedKeywords returns up to n words in both lists, heaviest first by the
// sum of their two weights, ties by word.
func sharedKeywords(a, b []fingerprint.Keyword, n int) []string {
	weightInB := make(map[string]float64, len(b))
	for _, k := range b {
		weightInB[k.Word] = k.Weight
	}
	var shared []fingerprint.Keyword
	for _, k := range a {
		if w, ok := weightInB[k.Word]; ok {
			shared = append(shared, fingerprint.Keyword{Word: k.Word, Weight: k.Weight + w})
		}
	}
	slices.SortFunc(shared, func(x, y fingerprint.Keyword) int {
		return cmp.Or(-cmp.Compare(x.Weight, y.Weight), cmp.Compare(x.Word, y.Word))
	})
	words := make([]string, 0, min(len(shared), n))
	for _, k := range shared[:min(len(shared), n)] {
		words = append(words, k.Word)
	}
	return words
}
