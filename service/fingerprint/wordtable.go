package fingerprint

import (
	"hash/maphash"
	"math"
)

// wordTable holds what the tables say of every word they know, laid out
// without pointers: the words' text in one string, their facts in one
// slice, and an index from a hash of the word to its entry. The garbage
// collector traces none of it. A map[string]wordFacts of the same 369,000
// words was as many objects, traced at every cycle, and a busy service
// starts a cycle every few hundred fingerprints (each allocates about
// 116 KB): with that map alive a collection took 16–22 ms, with this table
// about 1 ms. BenchmarkFingerprintParallel, 20,000 fingerprints on both
// cores, in turn three times: 301–329 µs a fingerprint against 360–384,
// the process's CPU time 13.4–14.2 s against 15.5–16.3 s. One goroutine
// alone (BenchmarkFingerprint), which leaves the collector an idle core,
// ran as fast either way: the lookups cost what the map's did.
//
// A lookup is exact: the hash only finds the entry, whose text is then
// compared with the word, and words whose hashes collide are chained.
type wordTable struct {
	hash    func(string) uint64
	first   map[uint64]int32 // a word's hash → its first entry
	entries []wordEntry
	text    string // the words, one after another
}

type wordEntry struct {
	start, end uint32 // the word is text[start:end]
	next       int32  // the next entry whose word has the same hash; -1 for none
	facts      wordFacts
}

// newWordTable lays out words, found by hash (nil: maphash, with a seed of
// this process). It fails only when the words, together, are longer than 4
// GiB or more than 2³¹ of them, which no dictionary is.
func newWordTable(words map[string]wordFacts, hash func(string) uint64) (*wordTable, bool) {
	size := 0
	for w := range words {
		size += len(w)
	}
	if size > math.MaxUint32 || len(words) > math.MaxInt32 {
		return nil, false
	}
	if hash == nil {
		seed := maphash.MakeSeed()
		hash = func(s string) uint64 { return maphash.String(seed, s) }
	}
	t := &wordTable{
		hash:    hash,
		first:   make(map[uint64]int32, len(words)),
		entries: make([]wordEntry, 0, len(words)),
	}
	text := make([]byte, 0, size)
	for w, f := range words {
		h := hash(w)
		next, ok := t.first[h]
		if !ok {
			next = -1
		}
		t.first[h] = int32(len(t.entries))
		t.entries = append(t.entries, wordEntry{start: uint32(len(text)), end: uint32(len(text) + len(w)), next: next, facts: f})
		text = append(text, w...)
	}
	t.text = string(text)
	return t, true
}

// facts returns what the tables say of word; the zero wordFacts for a word
// they do not know.
func (t *wordTable) facts(word string) wordFacts {
	i, ok := t.first[t.hash(word)]
	if !ok {
		return wordFacts{}
	}
	for i >= 0 {
		e := &t.entries[i]
		if t.text[e.start:e.end] == word {
			return e.facts
		}
		i = e.next
	}
	return wordFacts{}
}
