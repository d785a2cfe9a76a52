package fingerprint

import (
	"context"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// One pass of cppjieba over a body serves the article and its sentences.
// The body's plain text is cut at the sentence delimiters (sentenceSpans)
// into pieces; each piece is normalised on its own, and the pieces go to
// cppjieba's segmenter together, a line break between two, in chunks of
// about segmentChunkBytes (the caller's deadline is checked between
// chunks). cppjieba returns the line breaks as words of their own, so the
// words fall back into their pieces. Normalising the pieces one by one gives
// what normalising the whole body gives: a delimiter is a separator either
// way, and cppjieba cuts at every separator.
//
// Each word's part of speech, which the sentences need, is looked up the
// way cppjieba's tagger looks it up (Dictionary.isContent): the tagger
// costs as much as the segmentation again.
//
// Segmenting a long text in parts on goroutines was measured and not kept:
// docs/design-notes.md, "Segmenting in parts".

// piece is a span of a body's plain text between two sentence delimiters.
type piece struct {
	start, end         int // in bytes of the plain text
	startRune, endRune int // in runes
	normal             string
	words              []taggedWord
	credit             bool // only a credit, indexed as no sentence (credits.go)
}

// within reports whether the piece lies in plain[from:to]. A piece ends
// with the delimiter that closed it, the line break of an unpunctuated
// line included; a span of whole lines ends before its last line break, so
// that break does not count.
func (p piece) within(plain string, from, to int) bool {
	end := p.end
	for end > p.start && (plain[end-1] == '\n' || plain[end-1] == '\r') {
		end--
	}
	return p.start >= from && end <= to
}

// taggedWord is a word cppjieba found, whether its part of speech carries
// content (contentPOS), and its inverse document frequency.
type taggedWord struct {
	word    string
	content bool
	idf     float64
}

// segment cuts plain text into pieces and finds their words; with
// allScripts, runs of letters of other scripts are words of their own
// (words.go), which carry content; with oneScript, each piece is matched in
// one script (scriptfold.go), its offsets still those of the plain text.
func (d *Dictionary) segment(ctx context.Context, plain string, allScripts, oneScript bool) ([]piece, error) {
	pieces, _, _ := cutPieces(plain, oneScript, false)
	return pieces, d.tagAll(ctx, pieces, allScripts)
}

// piecesBytes is about the length of a piece of Chinese news (a sentence
// of 30-odd characters), to size cutPieces' slice once for most bodies.
const piecesBytes = 96

// cutPieces cuts plain text into pieces and normalises each, once. With
// whole, it also returns the whole text normalised as normalize(plain,
// MaxNormalizedBytes) would — the pieces' normal forms before unsplit and
// the fold, joined by single spaces (a piece ends with a delimiter, a
// separator either way) — or ok false, as soon as that would be longer
// than MaxNormalizedBytes. read then need not normalise the body again
// (readSegmented; TestReadSegmentedAgreesWithRead holds the two ways to
// each other).
func cutPieces(plain string, oneScript, whole bool) (pieces []piece, body string, ok bool) {
	var b strings.Builder
	if whole {
		b.Grow(min(len(plain), MaxNormalizedBytes)) // about as long, most often
	}
	pieces = make([]piece, 0, len(plain)/piecesBytes+1)
	runes, lastByte := 0, 0
	for start, end := range sentenceSpans(plain, oneScript) {
		startRune := runes + utf8.RuneCountInString(plain[lastByte:start])
		endRune := startRune + utf8.RuneCountInString(plain[start:end])
		runes, lastByte = endRune, end
		p := piece{start: start, end: end, startRune: startRune, endRune: endRune}
		text := plain[start:end]
		var n0 string // the piece normalised as the whole body is for its content hash
		if whole {
			if n0, ok = normalize(text, MaxNormalizedBytes-b.Len()); !ok {
				return nil, "", false
			}
			if n0 != "" {
				if b.Len() > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(n0)
			}
		}
		switch {
		case oneScript:
			if u := unsplit(text); u != text || !whole {
				p.normal = foldScript(Normalize(u))
			} else {
				p.normal = foldScript(n0)
			}
			p.credit = isCreditLine(text)
		case whole:
			p.normal = n0
		default:
			p.normal = Normalize(text)
		}
		pieces = append(pieces, p)
	}
	if b.Len() > MaxNormalizedBytes {
		return nil, "", false
	}
	return pieces, b.String(), true
}

// tagAll finds the words of every piece, in chunks of about
// segmentChunkBytes, ctx checked between chunks.
func (d *Dictionary) tagAll(ctx context.Context, pieces []piece, allScripts bool) error {
	for from := 0; from < len(pieces); {
		if err := ctx.Err(); err != nil {
			return err
		}
		to, size := from, 0
		for to < len(pieces) && (to == from || size+len(pieces[to].normal) < segmentChunkBytes) {
			size += len(pieces[to].normal) + 1
			to++
		}
		d.tag(pieces[from:to], allScripts)
		from = to
	}
	return nil
}

// tag finds the words of pieces with one call of cppjieba. The words that
// may count are looked up together (wordTable.factsAll), and the pieces'
// words share one array.
func (d *Dictionary) tag(pieces []piece, allScripts bool) {
	var b strings.Builder
	var others [][]string // each piece's words of other scripts, with allScripts
	if allScripts {
		others = make([][]string, len(pieces))
	}
	size := len(pieces)
	for i := range pieces {
		size += len(pieces[i].normal)
	}
	b.Grow(size)
	for i := range pieces {
		if i > 0 {
			b.WriteByte('\n')
		}
		text := pieces[i].normal
		if allScripts {
			text, others[i] = splitScripts(text)
		}
		b.WriteString(text)
	}
	cut := d.jieba.Cut(b.String(), true)
	s := tagScratchPool.Get().(*tagScratch)
	defer s.put()
	i := 0
	for _, word := range cut {
		if word == "\n" {
			i++
			continue
		}
		if i >= len(pieces) || !countable(word) {
			continue
		}
		s.words = append(s.words, word)
		s.pieces = append(s.pieces, int32(i))
	}
	s.facts = slices.Grow(s.facts[:0], len(s.words))[:len(s.words)]
	d.words.factsAll(s.words, s.facts)
	all := make([]taggedWord, 0, len(s.words))
	k := 0
	for i := range pieces {
		start := len(all)
		if others != nil {
			for _, w := range others[i] {
				if d.counts(w) {
					all = append(all, taggedWord{w, true, d.IDF(w)})
				}
			}
		}
		for ; k < len(s.words) && s.pieces[k] == int32(i); k++ {
			if f := s.facts[k]; !f.stop {
				all = append(all, taggedWord{s.words[k], isContent(s.words[k], f), d.idfOf(f)})
			}
		}
		if len(all) > start {
			pieces[i].words = all[start:len(all):len(all)]
		}
	}
}

// tagScratch is tag's working memory, kept between calls: the words that
// may count, their pieces' indexes and their facts.
type tagScratch struct {
	words  []string
	pieces []int32
	facts  []wordFacts
}

var tagScratchPool = sync.Pool{New: func() any { return new(tagScratch) }}

// put empties s, letting go of the words' text, and returns it to the pool.
func (s *tagScratch) put() {
	clear(s.words)
	s.words, s.pieces, s.facts = s.words[:0], s.pieces[:0], s.facts[:0]
	tagScratchPool.Put(s)
}
