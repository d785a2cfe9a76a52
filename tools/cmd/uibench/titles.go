package main

import (
	"bufio"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// The fixture's headlines are words drawn from jieba's own dictionary (the
// segmenter's data, no one's news), weighted by its frequencies, so that a
// search meets what it meets in a newsroom: a few words in tens of
// thousands of headlines (中国), most in a handful. Only nouns, verbs,
// place and organisation names of two characters or more are drawn, and a
// headline now and then carries a Latin word or a number, as Chinese
// headlines do.

// vocabulary is a weighted list of words to draw from.
type vocabulary struct {
	words []string
	cum   []float64 // cumulative weights
}

// headlineTags are the parts of speech headlines are made of.
var headlineTags = map[string]bool{"n": true, "ns": true, "nr": true, "nt": true, "nz": true, "v": true, "vn": true, "an": true, "l": true, "i": true}

// latinWords are the Latin words and numbers a headline may carry.
var latinWords = []string{"5G", "NBA", "GDP", "CPI", "AI", "iPhone", "APEC", "WTO", "2026", "COVID-19", "Nature", "Science"}

func loadVocabulary() (*vocabulary, error) {
	f, err := os.Open(filepath.Join(fingerprint.DefaultDictDir(), "jieba.dict.utf8"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	v := &vocabulary{}
	total := 0.0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) != 3 || !headlineTags[fields[2]] || utf8.RuneCountInString(fields[0]) < 2 || !isHan(fields[0]) {
			continue
		}
		n, err := strconv.ParseFloat(fields[1], 64)
		if err != nil || n <= 0 {
			continue
		}
		total += math.Pow(n, 0.9)
		v.words = append(v.words, fields[0])
		v.cum = append(v.cum, total)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(v.words) == 0 {
		return nil, fmt.Errorf("no headline words in %s", f.Name())
	}
	return v, nil
}

func isHan(s string) bool {
	for _, r := range s {
		if r < 0x4e00 || r > 0x9fff {
			return false
		}
	}
	return true
}

func (v *vocabulary) word(rng *rand.Rand) string {
	x := rng.Float64() * v.cum[len(v.cum)-1]
	return v.words[sort.SearchFloat64s(v.cum, x)]
}

// headline draws a headline of four to eight words.
func (v *vocabulary) headline(rng *rand.Rand) string {
	var b strings.Builder
	n := 4 + rng.IntN(5)
	latin := -1
	if rng.IntN(20) == 0 {
		latin = rng.IntN(n)
	}
	for i := range n {
		if i == latin {
			b.WriteString(latinWords[rng.IntN(len(latinWords))])
			continue
		}
		b.WriteString(v.word(rng))
	}
	return b.String()
}
