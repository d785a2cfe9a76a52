package fingerprint

import (
	"strconv"
	"testing"
)

// TestWordTable: every word is found with its own facts, and a word the
// table does not hold gets none, whether words' hashes are all different
// or collide (hashed by their length, a few hashes for many words).
func TestWordTable(t *testing.T) {
	words := map[string]wordFacts{"": {stop: true}}
	for i := range 2_000 {
		w := "词" + strconv.Itoa(i)
		words[w] = wordFacts{idf: float64(i) + 0.5, hasIDF: i%3 != 0, stop: i%7 == 0, pos: int8(i % 3)}
	}
	absent := []string{"词", "词2000", "词-1", "詞1", "word"}
	for name, hash := range map[string]func(string) uint64{
		"maphash":   nil,
		"colliding": func(s string) uint64 { return uint64(len(s)) },
	} {
		t.Run(name, func(t *testing.T) {
			table, ok := newWordTable(words, hash)
			if !ok {
				t.Fatal("newWordTable refused 2,001 words")
			}
			for w, want := range words {
				if got := table.facts(w); got != want {
					t.Errorf("facts(%q) = %+v, want %+v", w, got, want)
				}
			}
			for _, w := range absent {
				if got := table.facts(w); got != (wordFacts{}) {
					t.Errorf("facts(%q) = %+v for a word the table does not hold", w, got)
				}
			}
		})
	}
}
