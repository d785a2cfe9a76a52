package fingerprint

import (
	"hash/maphash"
	"math"
)

// wordTable holds what the tables say of every word they know, laid out
// without pointers: the words' text in one string, and slots holding each
// word's hash, the place of its text and its facts. The garbage collector
// traces none of it. A map[string]wordFacts of the same 369,000 words was
// as many objects, traced at every cycle, and a busy service starts a
// cycle every few hundred fingerprints (each allocates about 116 KB): with
// that map alive a collection took 16–22 ms, with this table 1.4–1.6 ms.
//
// Measured by BenchmarkFingerprintParallel's gc-µs/op (12,000 fingerprints
// on both cores, runs of each in turn): the collector's CPU time a
// fingerprint was 101–120 µs with the map of strings, 35–41 µs with the
// same map keyed by cuts of one string (one object, but 369,000 pointers
// still traced), 6–7 µs with a Go map from hashes to slots, 4.6–5.5 µs with
// this table. A lookup of the words of 围城 took 28–33 ns, as with the map
// of strings (27–40 ns), where the map from hashes took 39–66 ns.
//
// A lookup is exact: the word's hash picks a slot of an open-addressed
// table, probed in order until a slot with the same hash and the same text
// or an empty slot; the hash is computed once, where a Go map of hashes
// would hash the hash again.
type wordTable struct {
	hash  func(string) uint64
	slots []wordSlot // a power of two of them, at most half full
	text  string     // the words, one after another
	empty wordFacts  // the empty word's, which has no slot
}

// wordSlot is a slot of a wordTable: a word's hash, the place of its text
// and its facts; end 0 marks an empty slot (text[0] is no word's).
type wordSlot struct {
	hash       uint64
	start, end uint32 // the word is text[start:end]
	facts      wordFacts
}

// newWordTable lays out words, found by hash (nil: maphash, with a seed of
// this process). It fails only when the words, together, are longer than
// 4 GiB, which no dictionary is.
func newWordTable(words map[string]wordFacts, hash func(string) uint64) (*wordTable, bool) {
	size := 1
	for w := range words {
		size += len(w)
	}
	if size > math.MaxUint32 {
		return nil, false
	}
	if hash == nil {
		seed := maphash.MakeSeed()
		hash = func(s string) uint64 { return maphash.String(seed, s) }
	}
	n := 1
	for n < 2*len(words)+1 {
		n *= 2
	}
	t := &wordTable{hash: hash, slots: make([]wordSlot, n), empty: words[""]}
	text := make([]byte, 1, size) // text[0] is never a word's: end 0 means empty
	for w, f := range words {
		if w == "" {
			continue
		}
		h := hash(w)
		i := h & uint64(n-1)
		for t.slots[i].end != 0 {
			i = (i + 1) & uint64(n-1)
		}
		t.slots[i] = wordSlot{hash: h, start: uint32(len(text)), end: uint32(len(text) + len(w)), facts: f}
		text = append(text, w...)
	}
	t.text = string(text)
	return t, true
}

// facts returns what the tables say of word; the zero wordFacts for a word
// they do not know.
func (t *wordTable) facts(word string) wordFacts {
	if word == "" {
		return t.empty
	}
	h := t.hash(word)
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.end == 0 {
			return wordFacts{}
		}
		if s.hash == h && t.text[s.start:s.end] == word {
			return s.facts
		}
	}
}
