package main

import (
	"slices"
	"strings"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// The labels of the evaluation come from a measure independent of every
// fingerprint: the character 5-grams of the normalised body, all of them
// (the service samples one in four and estimates; the labels count
// exactly). Two bodies' Jaccard index |A∩B| / |A∪B| says how alike they
// are; their containment |A∩B| / min(|A|, |B|) how much of the shorter one
// the longer holds.

// gramRunes is the length of a character n-gram.
const gramRunes = 5

// compact returns text normalised as the service normalises it (NFKC,
// lower case, punctuation and symbols to spaces), with the spaces removed.
func compact(text string) string {
	return strings.ReplaceAll(fingerprint.Normalize(text), " ", "")
}

// gramSet is the sorted, distinct 64-bit FNV-1a hashes of the 5-grams of a
// compact text; a text shorter than a 5-gram is one gram of its own.
type gramSet []uint64

// gramsOf returns the 5-grams of a compact text.
func gramsOf(c string) gramSet {
	if c == "" {
		return nil
	}
	starts := make([]int, 0, len(c)/3+1)
	for i := range c {
		starts = append(starts, i)
	}
	starts = append(starts, len(c))
	runes := len(starts) - 1
	if runes < gramRunes {
		return gramSet{hashString(c)}
	}
	out := make(gramSet, 0, runes-gramRunes+1)
	for i := 0; i+gramRunes <= runes; i++ {
		out = append(out, hashString(c[starts[i]:starts[i+gramRunes]]))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// hashString is 64-bit FNV-1a, written out: hash/fnv would allocate per gram.
func hashString(s string) uint64 {
	h := uint64(fnvOffset)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= fnvPrime
	}
	return h
}

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// shared counts the grams a and b have in common.
func (a gramSet) shared(b gramSet) int {
	n, i, j := 0, 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			n++
			i++
			j++
		}
	}
	return n
}

// likeness is how alike two texts are by their 5-grams.
type likeness struct {
	Jaccard     float64 `json:"jaccard"`
	Containment float64 `json:"containment"`
}

// likenessOf measures two gram sets; two empty sets are not alike.
func likenessOf(a, b gramSet) likeness {
	if len(a) == 0 || len(b) == 0 {
		return likeness{}
	}
	s := float64(a.shared(b))
	return likeness{
		Jaccard:     s / float64(len(a)+len(b)-int(s)),
		Containment: s / float64(min(len(a), len(b))),
	}
}
