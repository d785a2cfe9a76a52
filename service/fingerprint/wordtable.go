package fingerprint

import (
	"encoding/binary"
	"hash/maphash"
	"math"
)

// wordTable holds what the tables say of every word they know, laid out
// without pointers so that the garbage collector traces none of it: a map
// of the 369,000 words made each collection 10–15 times longer.
//
// A lookup is exact: the word's hash, computed once, picks a slot of an
// open-addressed table, probed until a slot with the same high half of the
// hash whose record holds the same text, or an empty slot. A slot is 8
// bytes and a record holds the word's facts, text and IDF side by side, so
// a lookup reads two cache lines and the table stays in cache more often.
// Alternatives and their figures: docs/ingest-profile.md (2026-11-29).
type wordTable struct {
	hash    func(string) uint64
	slots   []uint64  // a power of two of them, at most half full; 0 is empty
	records string    // the words' records (record), from byte 1 on
	empty   wordFacts // the empty word's, which has no record
}

// A record is a flags byte (recordHasIDF, recordStop, recordIDF, the pos
// in the bits above), the word's length in bytes as a uvarint, the word,
// and, with recordIDF (an idf other than +0), its 8 bytes, little-endian.
const (
	recordHasIDF = 1 << 0
	recordStop   = 1 << 1
	recordIDF    = 1 << 2
	recordPOS    = 3 // pos is flags >> recordPOS
)

// newWordTable lays out words, found by hash (nil: maphash, with a seed of
// this process). It fails only when the records, together, are longer than
// 4 GiB, which no dictionary's are.
func newWordTable(words map[string]wordFacts, hash func(string) uint64) (*wordTable, bool) {
	size := 1
	for w := range words {
		size += 1 + binary.MaxVarintLen64 + len(w) + 8
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
	t := &wordTable{hash: hash, slots: make([]uint64, n), empty: words[""]}
	records := make([]byte, 1, size) // a record never starts at 0: slot 0 means empty
	for w, f := range words {
		if w == "" {
			continue
		}
		h := hash(w)
		i := h & uint64(n-1)
		for t.slots[i] != 0 {
			i = (i + 1) & uint64(n-1)
		}
		t.slots[i] = h&^math.MaxUint32 | uint64(len(records))
		flags := byte(f.pos) << recordPOS
		if f.hasIDF {
			flags |= recordHasIDF
		}
		if f.idf != 0 || math.Signbit(f.idf) {
			flags |= recordIDF
		}
		if f.stop {
			flags |= recordStop
		}
		records = append(records, flags)
		records = binary.AppendUvarint(records, uint64(len(w)))
		records = append(records, w...)
		if flags&recordIDF != 0 {
			records = binary.LittleEndian.AppendUint64(records, math.Float64bits(f.idf))
		}
	}
	t.records = string(records)
	return t, true
}

// facts returns what the tables say of word; the zero wordFacts for a word
// they do not know.
func (t *wordTable) facts(word string) wordFacts {
	if word == "" {
		return t.empty
	}
	return t.factsHashed(word, t.hash(word))
}

// factsHashed is facts of a word whose hash is h.
func (t *wordTable) factsHashed(word string, h uint64) wordFacts {
	if word == "" {
		return t.empty
	}
	tag := h &^ math.MaxUint32
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := t.slots[i]
		if s == 0 {
			return wordFacts{}
		}
		if s&^math.MaxUint32 != tag {
			continue
		}
		r := t.records[uint32(s):]
		n, k := uvarint(r[1:])
		if n != uint64(len(word)) || r[1+k:1+k+len(word)] != word {
			continue
		}
		flags := r[0]
		f := wordFacts{stop: flags&recordStop != 0, pos: int8(flags >> recordPOS), hasIDF: flags&recordHasIDF != 0}
		if flags&recordIDF != 0 {
			at := 1 + k + len(word)
			f.idf = math.Float64frombits(binary.LittleEndian.Uint64([]byte(r[at : at+8])))
		}
		return f
	}
}

// uvarint is binary.Uvarint of a string: a record's length, whose first
// byte alone says it for every word under 128 bytes.
func uvarint(s string) (uint64, int) {
	if s[0] < 0x80 {
		return uint64(s[0]), 1
	}
	var x uint64
	for i := 0; i < len(s) && i < binary.MaxVarintLen64; i++ {
		x |= uint64(s[i]&0x7f) << (7 * i)
		if s[i] < 0x80 {
			return x, i + 1
		}
	}
	return 0, 0 // never: the records were written by AppendUvarint
}

// factsAll sets facts[i] to facts(words[i]) for every word. It reads the
// words' first slots in a pass of independent loads before the lookups
// proper: the processor then waits for many cache misses at once rather
// than for each in turn, which is where a lookup's time goes.
func (t *wordTable) factsAll(words []string, facts []wordFacts) {
	const batch = 32
	var hashes, first [batch]uint64
	mask := uint64(len(t.slots) - 1)
	for from := 0; from < len(words); from += batch {
		part := words[from:min(from+batch, len(words))]
		for i, w := range part {
			hashes[i] = t.hash(w)
			first[i] = t.slots[hashes[i]&mask]
		}
		for i, w := range part {
			if first[i] == 0 && w != "" {
				facts[from+i] = wordFacts{}
				continue
			}
			facts[from+i] = t.factsHashed(w, hashes[i])
		}
	}
}
