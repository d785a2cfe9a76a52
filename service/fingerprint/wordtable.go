package fingerprint

import (
	"hash/maphash"
	"math"
)

// wordTable holds what the tables say of every word they know, laid out
// without pointers: the words' text in one string, and a map from a hash of
// each word to the place of its text and its facts. The garbage collector
// traces none of it. A map[string]wordFacts of the same 369,000 words was
// as many objects, traced at every cycle, and a busy service starts a
// cycle every few hundred fingerprints (each allocates about 116 KB): with
// that map alive a collection took 16–22 ms, with this table about 1 ms.
//
// Measured by BenchmarkFingerprintParallel's gc-µs/op (12,000 fingerprints
// on both cores, three runs of each in turn): the collector's CPU time a
// fingerprint was 101–120 µs with the map of strings, 35–41 µs with the
// same map keyed by cuts of one string (one object, but 369,000 pointers
// still traced), 5.8–6.2 µs with this table. A lookup costs about 20 ns
// more than the map's (57–66 ns against 32–65, the same words from 围城),
// some 12 µs a fingerprint.
//
// A lookup is exact: the hash finds the entry, whose text is then compared
// with the word. A word whose hash another word's entry already has goes
// to a small map of its own (with 64-bit hashes of 369,000 words, about a
// chance in 270 million that there is one).
type wordTable struct {
	hash     func(string) uint64
	entries  map[uint64]wordEntry // by the hash of the word
	text     string               // the words, one after another
	collided map[string]wordFacts
}

// wordEntry is one word of a wordTable: its facts held in the map's own
// memory, beside the place of its text, so that a lookup reads two places.
type wordEntry struct {
	start, end uint32 // the word is text[start:end]
	facts      wordFacts
}

// newWordTable lays out words, found by hash (nil: maphash, with a seed of
// this process). It fails only when the words, together, are longer than 4
// GiB, which no dictionary is.
func newWordTable(words map[string]wordFacts, hash func(string) uint64) (*wordTable, bool) {
	size := 0
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
	t := &wordTable{hash: hash, entries: make(map[uint64]wordEntry, len(words))}
	text := make([]byte, 0, size)
	for w, f := range words {
		h := hash(w)
		if _, taken := t.entries[h]; taken {
			if t.collided == nil {
				t.collided = make(map[string]wordFacts)
			}
			t.collided[w] = f
			continue
		}
		t.entries[h] = wordEntry{start: uint32(len(text)), end: uint32(len(text) + len(w)), facts: f}
		text = append(text, w...)
	}
	t.text = string(text)
	return t, true
}

// facts returns what the tables say of word; the zero wordFacts for a word
// they do not know.
func (t *wordTable) facts(word string) wordFacts {
	if e, ok := t.entries[t.hash(word)]; ok && t.text[e.start:e.end] == word {
		return e.facts
	}
	if t.collided != nil {
		return t.collided[word]
	}
	return wordFacts{}
}
