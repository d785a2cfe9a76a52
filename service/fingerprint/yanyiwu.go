package fingerprint

import (
	"context"
	"strings"

	"github.com/yanyiwu/gojieba"
)

// DefaultYanyiwuTopN is the number of keywords VersionYanyiwu folds.
const DefaultYanyiwuTopN = 50

// Yanyiwu is bit-for-bit compatible with yanyiwu/simhash, so a newsroom that
// stores its fingerprints can bring them along: cppjieba's keyword extractor
// (single-rune words and jieba's stop words dropped, weight = count × IDF,
// the top N), the lookup3 word hash, the same fold.
//
// It reads the text as that library does, without this package's
// normalisation: the body, after the title and a line break when there is a
// title, as plain text (or the text of the HTML). Only invalid UTF-8 is
// mended first: cppjieba would drop the whole input at one bad byte.
// NUL characters become spaces too: the text crosses into C as a C string.
// Keywords tied at the top-N cut-off are ordered differently by different C++
// libraries; such rare inputs may differ from other builds in their tail.
type Yanyiwu struct {
	dict *Dictionary
	topN int
}

// NewYanyiwu returns the yanyiwu/simhash algorithm folding the topN heaviest
// keywords.
func NewYanyiwu(d *Dictionary, topN int) *Yanyiwu {
	return &Yanyiwu{dict: d, topN: topN}
}

// Version is VersionYanyiwu with DefaultYanyiwuTopN and VersionExperimental
// with any other top N.
func (y *Yanyiwu) Version() Version {
	if y.topN != DefaultYanyiwuTopN {
		return VersionExperimental
	}
	return VersionYanyiwu
}

// Fingerprint returns the fingerprint of doc, or ErrNoWords, ErrTooLong or
// ctx's error. cppjieba extracts keywords from the whole text in one call,
// so the deadline is checked before it.
func (y *Yanyiwu) Fingerprint(ctx context.Context, doc Document) (Fingerprint, error) {
	norm, err := read(doc, false) // for the content hash and the shingles, and to bound the text
	if err != nil {
		return Fingerprint{}, err
	}
	if err := ctx.Err(); err != nil {
		return Fingerprint{}, err
	}
	title, body := doc.Title, doc.Body
	if doc.HTML {
		title, body = HTMLText(title), HTMLText(body)
	}
	title, body = cString(title), cString(body)
	text := body
	if title != "" {
		text = title + "\n" + body
	}
	pieces, err := y.dict.segment(ctx, norm.plainBody, true, false)
	if err != nil {
		return Fingerprint{}, err
	}
	sentences := y.dict.sentencesOf(pieces, doc.SkipSentences)
	extracted := y.dict.jieba.ExtractWithWeight(text, y.topN)
	if !anyIn(extracted, body) {
		return Fingerprint{}, ErrNoWords
	}
	words := make([]weightedWord, len(extracted))
	hashes := make([]uint64, len(extracted))
	keywords := make([]Keyword, len(extracted))
	for i, e := range extracted {
		h := jenkins64([]byte(e.Word))
		words[i] = weightedWord{hash: h, weight: e.Weight}
		hashes[i] = h
		keywords[i] = Keyword{Word: e.Word, Weight: e.Weight}
	}
	sortByWeight(keywords)
	return Fingerprint{
		Simhash:     fold(words), // in the extractor's order, as yanyiwu/simhash folds
		Version:     y.Version(),
		Words:       NewWordSet(hashes),
		Keywords:    keywords,
		ContentHash: norm.contentHash(),
		Shingles:    ShinglesOf(norm.body),
		Sentences:   sentences,
		PlainBody:   norm.plainBody,
	}, nil
}

// cString mends what cannot cross into cppjieba as a C string of UTF-8:
// invalid bytes, and the NUL that would end the string early.
func cString(s string) string {
	return strings.ReplaceAll(strings.ToValidUTF8(s, " "), "\x00", " ")
}

// anyIn reports whether the body holds one of the keywords: an article whose
// keywords all come from its title has no words in its body.
func anyIn(keywords []gojieba.WordWeight, body string) bool {
	for _, k := range keywords {
		if strings.Contains(body, k.Word) {
			return true
		}
	}
	return false
}
