package fingerprint

import (
	"context"
	"math"
	"sync"

	"github.com/cespare/xxhash/v2"
)

// WeightedParams are the choices of the default algorithm. The evaluation
// (docs/evaluation.md) measured them; DefaultWeightedParams are its result.
type WeightedParams struct {
	// Exponent raises each word's TF-IDF weight before folding. At 1 this is
	// classic simhash; above 1 the article's key words outweigh the words a
	// repost adds (a byline, an editor's line), so reposts move fewer bits,
	// at the cost of stories that share key words moving closer together.
	Exponent float64
	// TitleWeight is what one occurrence of a word in the title counts for,
	// in occurrences in the body; 0 leaves the title out of the fingerprint.
	TitleWeight float64
	// TopN keeps only the N heaviest words; 0 keeps them all.
	TopN int
	// WeightCap, when above 0, clips every folded weight (after the
	// exponent) to this share of their sum, so that no single word decides
	// the fingerprint by itself.
	WeightCap float64
	// DropNumbers leaves words made only of digits out: a repost changes
	// dates and figures, and a story's figures change from day to day.
	DropNumbers bool
	// StripEdges leaves out up to three short lines (under 40 characters)
	// at each end of the body: the bylines, credits and editor's lines
	// portals add to what they copy (see edges.go).
	StripEdges bool
	// AllScripts makes words of every script's letters (see words.go);
	// without it, letters of scripts other than Han and ASCII fall apart into
	// single characters, which do not count.
	AllScripts bool
	// OneScript matches in one script: Traditional folded to Simplified,
	// invisible and spacing characters dropped (scriptfold.go).
	OneScript bool
}

// The parameters of each stored version of Weighted.
var (
	// WeightedParamsV2 are VersionWeighted's, chosen on the novel 围城:
	// weights cubed and a title that counts twice. On real news they turned
	// the fingerprint into a topic hash and kept retitled copies apart.
	WeightedParamsV2 = WeightedParams{Exponent: 3, TitleWeight: 2, TopN: 64}
	// WeightedParamsV3 are VersionNews's, chosen by the rule of the
	// evaluation on real news (docs/evaluation.md): the body alone, so that
	// a new headline moves nothing; weights to the sixth, capped at 30 % of
	// their sum, so that the key words outvote what a repost adds while no
	// single one of them makes two stories of a topic one; figures left out;
	// and the short lines at the body's ends, where portals put their
	// credits, left out too. The 64 heaviest words do as well as all of them.
	WeightedParamsV3 = WeightedParams{Exponent: 6, TitleWeight: 0, TopN: 64, WeightCap: 0.3,
		DropNumbers: true, StripEdges: true, AllScripts: true}
	// DefaultWeightedParams are VersionOneScript's: WeightedParamsV3
	// matching one script, so that Traditional-script copies, and copies
	// strewn with invisible characters or spaces, are found.
	DefaultWeightedParams = WeightedParams{Exponent: 6, TitleWeight: 0, TopN: 64, WeightCap: 0.3,
		DropNumbers: true, StripEdges: true, AllScripts: true, OneScript: true}
)

// weightedVersions maps the parameters of every stored version to it.
var weightedVersions = map[WeightedParams]Version{
	WeightedParamsV2:      VersionWeighted,
	WeightedParamsV3:      VersionNews,
	DefaultWeightedParams: VersionOneScript,
}

// Weighted is the project's algorithm: our normalisation, every counted word
// weighted by (TF × IDF)^Exponent, xxhash64 word hashes.
type Weighted struct {
	dict   *Dictionary
	params WeightedParams
}

// NewWeighted returns the algorithm with the given parameters.
func NewWeighted(d *Dictionary, p WeightedParams) *Weighted {
	return &Weighted{dict: d, params: p}
}

// Version is the stored version of the parameters (VersionOneScript for
// DefaultWeightedParams), or VersionExperimental for any others.
func (w *Weighted) Version() Version {
	if v, ok := weightedVersions[w.params]; ok {
		return v
	}
	return VersionExperimental
}

// Fingerprint returns the fingerprint of doc, or ErrNoWords, ErrTooLong or
// ctx's error.
func (w *Weighted) Fingerprint(ctx context.Context, doc Document) (Fingerprint, error) {
	text, pieces, err := w.dict.readSegmented(ctx, doc, w.params.AllScripts, w.params.OneScript)
	if err != nil {
		return Fingerprint{}, err
	}
	from, to := 0, len(text.plainBody)
	if w.params.StripEdges {
		from, to = coreSpan(text.plainBody, w.params.OneScript)
	}
	t := tallyPool.Get().(*tally)
	defer t.put()
	n := 0
	for _, p := range pieces {
		if !p.within(text.plainBody, from, to) {
			continue
		}
		for _, tw := range p.words { // every one counts
			if !(w.params.DropNumbers && isNumber(tw.word)) {
				t.add(tw.word, tw.idf)
				n++
			}
		}
	}
	if n == 0 {
		return Fingerprint{}, ErrNoWords
	}
	var keywords []Keyword
	if w.params.TitleWeight > 0 {
		if keywords, err = w.withTitle(ctx, t, text.title); err != nil {
			return Fingerprint{}, err
		}
	} else {
		keywords = make([]Keyword, len(t.words))
		for i, c := range t.words {
			keywords[i] = Keyword{Word: c.word, Weight: c.tf * c.idf}
		}
	}
	keywords = heaviest(keywords, w.params.TopN)

	words := make([]weightedWord, len(keywords))
	hashes := make([]uint64, len(keywords))
	total := 0.0
	for i, k := range keywords {
		h := xxhash.Sum64String(k.Word)
		words[i] = weightedWord{hash: h, weight: w.foldWeight(k.Weight)}
		hashes[i] = h
		total += words[i].weight
	}
	if w.params.WeightCap > 0 {
		limit := w.params.WeightCap * total
		for i := range words {
			words[i].weight = min(words[i].weight, limit)
		}
	}
	return Fingerprint{
		Simhash:     fold(words),
		Version:     w.Version(),
		Words:       NewWordSet(hashes),
		Keywords:    keywords,
		ContentHash: text.contentHash(),
		Shingles:    ShinglesOf(text.matched),
		Sentences:   w.dict.sentencesOf(pieces, doc.SkipSentences),
		PlainBody:   text.plainBody,
	}, nil
}

// withTitle returns the keywords of the body's tallied words and of the
// title's, each occurrence in the title counting TitleWeight.
func (w *Weighted) withTitle(ctx context.Context, t *tally, title string) ([]Keyword, error) {
	counts := make(map[string]float64, len(t.words))
	for _, c := range t.words {
		counts[c.word] = c.tf
	}
	rules := wordRules{dropNumbers: w.params.DropNumbers, allScripts: w.params.AllScripts}
	if _, err := w.dict.countWords(ctx, title, w.params.TitleWeight, rules, counts); err != nil {
		return nil, err
	}
	keywords := make([]Keyword, 0, len(counts))
	for word, tf := range counts {
		v := w.dict.IDF(word) // a word of the title alone
		if i, ok := t.index[word]; ok {
			v = t.words[i].idf
		}
		keywords = append(keywords, Keyword{Word: word, Weight: tf * v})
	}
	return keywords, nil
}

// tally counts an article's words in the order first met, each with its
// IDF, where two maps from words were made for every fingerprint; it is
// kept between fingerprints (tallyPool).
type tally struct {
	index map[string]int32 // the place of each word in words
	words []wordCount
}

type wordCount struct {
	word    string
	tf, idf float64
}

const maxPooledWords = 4096

var tallyPool = sync.Pool{New: func() any { return &tally{index: make(map[string]int32, 256)} }}

// add counts one occurrence of word, whose IDF is idf.
func (t *tally) add(word string, idf float64) {
	if i, ok := t.index[word]; ok {
		t.words[i].tf++
		t.words[i].idf = idf
		return
	}
	t.index[word] = int32(len(t.words))
	t.words = append(t.words, wordCount{word: word, tf: 1, idf: idf})
}

// put empties t, letting go of the words' text, and returns it to the
// pool; not a tally grown past maxPooledWords, whose map would cost every
// later article its clearing.
func (t *tally) put() {
	if len(t.words) > maxPooledWords {
		return
	}
	clear(t.index)
	clear(t.words)
	t.words = t.words[:0]
	tallyPool.Put(t)
}

func (w *Weighted) foldWeight(tfidf float64) float64 {
	switch w.params.Exponent {
	case 1:
		return tfidf
	case 2:
		return tfidf * tfidf
	case 3:
		return tfidf * tfidf * tfidf
	case 5:
		sq := tfidf * tfidf
		return sq * sq * tfidf
	case 6:
		cube := tfidf * tfidf * tfidf
		return cube * cube
	}
	return math.Pow(tfidf, w.params.Exponent)
}
