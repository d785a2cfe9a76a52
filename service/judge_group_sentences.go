package service

import (
	"cmp"
	"slices"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// The sentences an article of a group shares with the articles before it.
// The stored ones come from the sentence index; those of the group's own
// articles, not stored yet, from groupSentences, which indexes them the same
// way — by exact hash, and by family-A block, since two simhashes within
// sentenceMaxDistance (3) bits agree on at least one of the four blocks
// that partition them — so that a group of n sentences costs about n
// lookups rather than n²/2 comparisons, made while the group holds its
// locks (BenchmarkGroupSentenceMatches; docs/design-notes.md, "service: a
// group's own sentences").

// groupSentences indexes the sentences of a group's articles: each
// sentence is a ref, numbered in order of item and position; a map gives,
// for a text hash or a family-A block value, its last ref (plus one), and
// each ref the previous one with the same key (plus one), so that building
// the index allocates nothing per sentence.
type groupSentences struct {
	refs     []sentenceRef
	blocks   [][4]uint16 // of each ref with a simhash, its family-A blocks
	hashHead map[uint64]int32
	hashNext []int32
	// blockHead is keyed by j<<16 | A_j, for refs with a simhash.
	blockHead map[uint32]int32
	blockNext [4][]int32
	first     []int32       // each item's first ref
	found     []sentenceRef // matchesBefore's answer, its memory reused by the next call
}

// sentenceRef is sentence position of item item of a group.
type sentenceRef struct{ item, position int }

// indexGroupSentences indexes the sentences of every item of g.
func indexGroupSentences(g []*arrival) *groupSentences {
	n := 0
	for _, it := range g {
		n += len(it.fp.Sentences)
	}
	x := &groupSentences{
		refs: make([]sentenceRef, 0, n), blocks: make([][4]uint16, n),
		hashHead: make(map[uint64]int32, n), hashNext: make([]int32, n),
		blockHead: make(map[uint32]int32, 4*n), first: make([]int32, len(g)),
	}
	for j := range x.blockNext {
		x.blockNext[j] = make([]int32, n)
	}
	for i, it := range g {
		x.first[i] = int32(len(x.refs))
		for p, s := range it.fp.Sentences {
			k := int32(len(x.refs))
			x.refs = append(x.refs, sentenceRef{i, p})
			x.hashNext[k], x.hashHead[s.TextHash] = x.hashHead[s.TextHash], k+1
			if s.HasSimhash {
				x.blocks[k] = fingerprint.BlocksOf(s.Simhash).A
				for j, v := range x.blocks[k] {
					key := uint32(j)<<16 | uint32(v)
					x.blockNext[j][k], x.blockHead[key] = x.blockHead[key], k+1
				}
			}
		}
	}
	return x
}

// matchesBefore returns the sentences of the items before item i that
// match its sentence q — the same text, or both with a simhash within
// sentenceMaxDistance bits — each once, in order of item and position. The
// answer is valid until the next call.
func (x *groupSentences) matchesBefore(g []*arrival, i, q int) []sentenceRef {
	self := x.first[i] + int32(q)
	s := g[i].fp.Sentences[q]
	out := x.found[:0]
	// Each chain runs from the last ref down: the group's later items first.
	for k := x.hashHead[s.TextHash]; k > 0; k = x.hashNext[k-1] {
		if r := x.refs[k-1]; r.item < i {
			out = append(out, r)
		}
	}
	if s.HasSimhash {
		for j, v := range x.blocks[self] {
			for k := x.blockHead[uint32(j)<<16|uint32(v)]; k > 0; k = x.blockNext[j][k-1] {
				r := x.refs[k-1]
				if r.item < i && fingerprint.Distance(s.Simhash, g[r.item].fp.Sentences[r.position].Simhash) <= sentenceMaxDistance {
					out = append(out, r)
				}
			}
		}
	}
	if len(out) > 1 {
		slices.SortFunc(out, func(a, b sentenceRef) int {
			return cmp.Or(cmp.Compare(a.item, b.item), cmp.Compare(a.position, b.position))
		})
		out = slices.Compact(out)
	}
	x.found = out
	return out
}

// groupSentenceMatches are the sentences of the articles before item i of
// a group that match i's: the same text, or a simhash within
// sentenceMaxDistance bits (linksFrom confirms those by their text).
func groupSentenceMatches(g []*arrival, ids []int64, i int, x *groupSentences) []SentenceMatch {
	var out []SentenceMatch
	texts := make(map[int][]string) // of the earlier articles, read when one matches
	for q := range g[i].fp.Sentences {
		for _, r := range x.matchesBefore(g, i, q) {
			other := g[r.item]
			o := other.fp.Sentences[r.position]
			if texts[r.item] == nil {
				texts[r.item] = fingerprint.SentenceTexts(other.fp.PlainBody, other.fp.Sentences)
			}
			out = append(out, SentenceMatch{
				Query: q, ArticleID: ids[r.item], Position: r.position, Runes: o.Runes,
				TextHash: o.TextHash, Simhash: o.Simhash, HasSimhash: o.HasSimhash,
				Text:    texts[r.item][r.position],
				Version: other.fp.Version, PublishedAt: other.in.PublishedAt,
				SentenceRunes: sentenceRunes(other.fp.Sentences),
				ExternalID:    other.in.ExternalID, Source: other.in.Source, Title: other.in.Title,
			})
		}
	}
	return out
}
