package fingerprint

import (
	"context"
	"math"

	"github.com/cespare/xxhash/v2"
)

// WeightedParams are the choices of the default algorithm. The evaluation
// (docs/evaluation.md) measured them; DefaultWeightedParams are its result.
type WeightedParams struct {
	// Exponent raises each word's TF-IDF weight before folding. At 1 this is
	// classic simhash; above 1 the article's key words outweigh the words a
	// repost adds (a byline, an editor's line), so reposts move fewer bits,
	// at the cost of passages that share key words moving closer together.
	Exponent float64
	// TitleWeight is what one occurrence of a word in the title counts for,
	// in occurrences in the body.
	TitleWeight float64
	// TopN keeps only the N heaviest words; 0 keeps them all.
	TopN int
}

// DefaultWeightedParams are the parameters stored as VersionWeighted. The
// evaluation (docs/evaluation.md) chose them: exponent 3 with a title that
// counts twice is the only setting that catches light reposts of 500 runes
// or more with recall and precision ≥ 0.99. Exponent 3 makes an article's
// key words outweigh what a repost adds; a title that counts twice adds
// weight a repost keeps. The price is more candidates for the index to fetch
// among articles that share key words. The 64 heaviest words do as well as
// all of them and keep the stored word set, read for every candidate, small.
var DefaultWeightedParams = WeightedParams{Exponent: 3, TitleWeight: 2, TopN: 64}

// Weighted is the project's default algorithm: our normalisation, every
// counted word weighted by (TF × IDF)^Exponent, xxhash64 word hashes.
type Weighted struct {
	dict   *Dictionary
	params WeightedParams
}

// NewWeighted returns the default algorithm with the given parameters.
func NewWeighted(d *Dictionary, p WeightedParams) *Weighted {
	return &Weighted{dict: d, params: p}
}

// Version is VersionWeighted with the default parameters and
// VersionExperimental with any others.
func (w *Weighted) Version() Version {
	if w.params != DefaultWeightedParams {
		return VersionExperimental
	}
	return VersionWeighted
}

// Fingerprint returns the fingerprint of doc, or ErrNoWords, ErrTooLong or
// ctx's error.
func (w *Weighted) Fingerprint(ctx context.Context, doc Document) (Fingerprint, error) {
	text, err := normalise(doc)
	if err != nil {
		return Fingerprint{}, err
	}
	counts := make(map[string]float64, 256)
	n, err := w.dict.countWords(ctx, text.body, 1, counts)
	switch {
	case err != nil:
		return Fingerprint{}, err
	case n == 0:
		return Fingerprint{}, ErrNoWords
	}
	if _, err := w.dict.countWords(ctx, text.title, w.params.TitleWeight, counts); err != nil {
		return Fingerprint{}, err
	}

	keywords := make([]Keyword, 0, len(counts))
	for word, tf := range counts {
		keywords = append(keywords, Keyword{Word: word, Weight: tf * w.dict.IDF(word)})
	}
	sortByWeight(keywords)
	if n := w.params.TopN; n > 0 && len(keywords) > n {
		keywords = keywords[:n]
	}

	words := make([]weightedWord, len(keywords))
	hashes := make([]uint64, len(keywords))
	for i, k := range keywords {
		h := xxhash.Sum64String(k.Word)
		words[i] = weightedWord{hash: h, weight: w.foldWeight(k.Weight)}
		hashes[i] = h
	}
	return Fingerprint{
		Simhash:     fold(words),
		Version:     w.Version(),
		Words:       NewWordSet(hashes),
		Keywords:    keywords,
		ContentHash: text.contentHash(),
	}, nil
}

func (w *Weighted) foldWeight(tfidf float64) float64 {
	switch w.params.Exponent {
	case 1:
		return tfidf
	case 2:
		return tfidf * tfidf
	case 3:
		return tfidf * tfidf * tfidf
	}
	return math.Pow(tfidf, w.params.Exponent)
}
