package fingerprint

import (
	"context"
	"crypto/sha256"
	"errors"
	"slices"
	"strings"
)

// ErrNoWords is returned when an article's body holds no word that counts
// once normalised: it is empty, blank, punctuation, or only stop words. Such
// a fingerprint would say nothing about the article.
var ErrNoWords = errors.New("the body has no words after normalisation")

// Version identifies the algorithm, and the parameters, that made a
// fingerprint. It is stored with every fingerprint; fingerprints of different
// versions are never compared. Change the version whenever a change to an
// algorithm could change the bits it produces.
type Version int16

const (
	// VersionExperimental marks a fingerprint made with parameters other than
	// an algorithm's defaults, as the evaluation does. It is never stored.
	VersionExperimental Version = 0
	// VersionYanyiwu is Yanyiwu: bit-for-bit yanyiwu/simhash.
	VersionYanyiwu Version = 1
	// VersionWeighted is Weighted with WeightedParamsV2, the default until
	// real news showed its faults. Stored rows of it are re-fingerprinted by
	// dedupd refingerprint.
	VersionWeighted Version = 2
	// VersionNews is Weighted with WeightedParamsV3, the default until
	// Traditional-script copies, invisible characters and spaced-out
	// Chinese were found to dodge it. Stored rows of it are re-fingerprinted
	// by dedupd refingerprint.
	VersionNews Version = 3
	// VersionOneScript is Weighted with DefaultWeightedParams, the default:
	// VersionNews matching one script (scriptfold.go).
	VersionOneScript Version = 4
)

// Document is the text of an article as a fingerprint reads it.
type Document struct {
	Title string
	Body  string
	HTML  bool // the title and body are HTML: only the text a reader sees counts
	// SkipSentences leaves Fingerprint.Sentences empty, for a caller that
	// keeps no sentence index: they cost a quarter of a fingerprint.
	SkipSentences bool
}

// Keyword is one counted word and its weight in the fingerprint.
type Keyword struct {
	Word   string
	Weight float64
}

// Fingerprint is what an algorithm makes of a Document.
type Fingerprint struct {
	Simhash uint64
	Version Version
	// Words is the set of the counted words, for the shared-word ratio.
	Words WordSet
	// Keywords are the counted words, heaviest first (ties by word), to
	// explain a fingerprint and the words two articles share.
	Keywords []Keyword
	// ContentHash is the SHA-256 of the normalised title and body, whatever
	// the algorithm: two documents with equal hashes read the same.
	ContentHash [sha256.Size]byte
	// Shingles sample the character 5-grams of the normalised body, whatever
	// the algorithm: how much of its text two documents share (shingles.go).
	Shingles ShingleSet
	// Sentences are the body's indexed sentences, whatever the algorithm
	// (sentences.go), and PlainBody the text their offsets point into.
	Sentences []Sentence
	PlainBody string
}

// Algorithm makes fingerprints. Implementations are safe for concurrent use.
type Algorithm interface {
	// Version identifies the algorithm and its parameters.
	Version() Version
	// Fingerprint returns the fingerprint of doc; ErrNoWords when its body
	// holds no word that counts, ErrTooLong when its title or body is longer
	// than MaxNormalizedBytes once normalised, and ctx's error when ctx is
	// done before it is finished.
	Fingerprint(ctx context.Context, doc Document) (Fingerprint, error)
}

// text is a document as the algorithms read it: its body as plain text
// (the HTML's visible text), with its lines, and its title and body
// normalised.
type text struct {
	plainBody   string
	title, body string // normalised
	matched     string // body as matched: normalised, folded to one script for VersionOneScript
	hash        [sha256.Size]byte
}

// read reads a document, or returns a *TooLongError.
// With oneScript, invisible and spacing characters are dropped first
// (unsplit) and the matched body is folded to one script (foldScript); the
// content hash is still of the text as sent, whatever the algorithm.
func read(doc Document, oneScript bool) (text, error) {
	title, body := doc.Title, doc.Body
	if doc.HTML {
		title, body = HTMLText(title), HTMLText(body)
	}
	t := text{plainBody: body}
	var ok bool
	if t.title, ok = normalize(title, MaxNormalizedBytes); !ok {
		return text{}, &TooLongError{Part: "title"}
	}
	if t.body, ok = normalize(body, MaxNormalizedBytes); !ok {
		return text{}, &TooLongError{Part: "body"}
	}
	t.hash = sha256.Sum256([]byte(t.title + "\n" + t.body))
	t.matched = t.body
	if !oneScript {
		return t, nil
	}
	if u := unsplit(title); u != title {
		t.title, _ = normalize(u, MaxNormalizedBytes) // no longer than before
	}
	if u := unsplit(body); u != body {
		t.matched, _ = normalize(u, MaxNormalizedBytes)
	}
	t.title, t.matched = foldScript(t.title), foldScript(t.matched)
	return t, nil
}

// readSegmented is read followed by Dictionary.segment of the plain body,
// with the body normalised once: the whole body's normal form (its content
// hash) and the matched body (its shingles) are the pieces' normal forms
// joined (cutPieces), where read normalises the whole body and segment
// each piece again. It returns what read and segment return, the same
// errors first.
func (d *Dictionary) readSegmented(ctx context.Context, doc Document, allScripts, oneScript bool) (text, []piece, error) {
	title, body := doc.Title, doc.Body
	if doc.HTML {
		title, body = HTMLText(title), HTMLText(body)
	}
	t := text{plainBody: body}
	var ok bool
	if t.title, ok = normalize(title, MaxNormalizedBytes); !ok {
		return text{}, nil, &TooLongError{Part: "title"}
	}
	pieces, normal, ok := cutPieces(body, oneScript, true)
	if !ok {
		return text{}, nil, &TooLongError{Part: "body"}
	}
	t.body = normal
	t.hash = sha256.Sum256([]byte(t.title + "\n" + t.body))
	t.matched = t.body
	if oneScript {
		if u := unsplit(title); u != title {
			t.title, _ = normalize(u, MaxNormalizedBytes) // no longer than before
		}
		t.title = foldScript(t.title)
		var m strings.Builder
		m.Grow(len(normal))
		for _, p := range pieces {
			if p.normal == "" {
				continue
			}
			if m.Len() > 0 {
				m.WriteByte(' ')
			}
			m.WriteString(p.normal)
		}
		t.matched = m.String()
	}
	if err := d.tagAll(ctx, pieces, allScripts); err != nil {
		return text{}, nil, err
	}
	return t, pieces, nil
}

func (t text) contentHash() [sha256.Size]byte { return t.hash }

// weightedWord is a counted word's hash and the weight it is folded with.
type weightedWord struct {
	hash   uint64
	weight float64
}

// fold makes the simhash of weighted words: per bit, +weight where the word's
// hash has the bit set and −weight where it has not; the result's bit is 1
// where the sum is positive. Words are folded in the order given, so callers
// pass a deterministic order: float addition is not associative.
func fold(words []weightedWord) uint64 {
	var sums [64]float64
	for _, w := range words {
		// Indexed by the bit: no branch to mispredict, and x + (−w) is the
		// same float as x − w, so the sums are yanyiwu/simhash's exactly.
		signed := [2]float64{-w.weight, w.weight}
		for i := range sums {
			sums[i] += signed[w.hash>>i&1]
		}
	}
	var h uint64
	for i, s := range sums {
		if s > 0 {
			h |= 1 << i
		}
	}
	return h
}

// sortByWeight orders keywords heaviest first, ties by word, so that every
// run folds them in the same order.
func sortByWeight(keywords []Keyword) {
	slices.SortFunc(keywords, func(a, b Keyword) int {
		switch {
		case a.Weight > b.Weight:
			return -1
		case a.Weight < b.Weight:
			return 1
		}
		return strings.Compare(a.Word, b.Word)
	})
}
