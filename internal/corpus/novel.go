// Package corpus builds labelled, news-like Chinese articles for the tests,
// the benchmarks and the evaluation of near-duplicate detection.
//
// Real news is copyrighted and cannot ship with the code, so the articles are
// cut from a text that is already on every machine that builds the service:
// the novel 围城 (Fortress Besieged, 734 KB of UTF-8), which gojieba's module
// carries among cppjieba's test data. A cut is an original; Apply makes from
// it the kinds of copies a newsroom sees (a repost with a byline and
// half-width punctuation, a dropped or added sentence, a rewrite, boilerplate
// around the text, a new headline), so every pair comes labelled with what
// was done to it.
//
// Everything is deterministic for a given random source: the same seed gives
// the same articles and the same edits on every machine.
package corpus

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/yanyiwu/gojieba"
)

// NovelPath returns the path of weicheng.utf8, the novel inside gojieba's
// module, found from gojieba.DICT_DIR (the novel sits in cppjieba's test
// data, next to the dictionary folder).
func NovelPath() string {
	return filepath.Join(gojieba.DICT_DIR, "..", "test", "testdata", "weicheng.utf8")
}

// Novel is the novel split into paragraphs (its lines) and sentences. A
// sentence ends at a run of 。！？… and the closing quotes after it; a
// paragraph's unfinished last sentence is closed with 。, so that every
// sentence ends with a terminator and SplitSentences, run on any
// concatenation of sentences, gives them back.
type Novel struct {
	sentences []string
	dropped   int   // sentences of the repeated tail left out (see repeatStart)
	runes     []int // rune count of each sentence
	paragraph []int // index of the paragraph each sentence belongs to
	index     map[string]int
	total     int // runes in all sentences
}

// LoadNovel reads and splits the novel at NovelPath.
func LoadNovel() (*Novel, error) {
	data, err := os.ReadFile(NovelPath())
	if err != nil {
		return nil, fmt.Errorf("load novel: %w", err)
	}
	if !utf8.Valid(data) {
		return nil, fmt.Errorf("load novel: %s is not valid UTF-8", NovelPath())
	}
	n := newNovel(string(data))
	if len(n.sentences) == 0 {
		return nil, fmt.Errorf("load novel: %s holds no sentences", NovelPath())
	}
	return n, nil
}

func newNovel(text string) *Novel {
	n := &Novel{index: make(map[string]int)}
	var lines []string
	for line := range strings.SplitSeq(text, "\n") {
		lines = append(lines, line)
	}
	lines, n.dropped = dropRepeat(lines)
	p := 0
	for _, line := range lines {
		line = strings.TrimFunc(line, unicode.IsSpace) // '\r' and '\u3000' included
		// A line may open with the end of a quotation; a sentence never does.
		line = strings.TrimLeftFunc(line, func(r rune) bool {
			return isTerminator(r) || isClosingQuote(r) || unicode.IsSpace(r)
		})
		if line == "" {
			continue
		}
		if last, _ := utf8.DecodeLastRuneInString(line); !isTerminator(last) && !isClosingQuote(last) {
			line += "。"
		}
		for _, s := range SplitSentences(line) {
			r := utf8.RuneCountInString(s)
			n.sentences = append(n.sentences, s)
			n.runes = append(n.runes, r)
			n.paragraph = append(n.paragraph, p)
			n.total += r
			n.index[s]++
		}
		p++
	}
	return n
}

// DroppedSentences returns how many sentences of the file LoadNovel left
// out because they repeat the text before them.
func (n *Novel) DroppedSentences() int { return n.dropped }

// Sentences returns a copy of the novel's sentences in their order.
func (n *Novel) Sentences() []string { return append([]string(nil), n.sentences...) }

// Runes returns how many runes the novel's sentences hold together.
func (n *Novel) Runes() int { return n.total }

// Paragraphs returns how many paragraphs the novel has.
func (n *Novel) Paragraphs() int {
	if len(n.paragraph) == 0 {
		return 0
	}
	return n.paragraph[len(n.paragraph)-1] + 1
}

// Contains reports whether s is one of the novel's sentences.
func (n *Novel) Contains(s string) bool { return n.index[s] > 0 }

// SplitSentences splits text into sentences the way the novel is split: a
// sentence ends after a run of 。！？… together with the closing quotes (and
// white space) that follow it, and at the end of every line. White space around a sentence is
// dropped; sentences are never empty.
func SplitSentences(text string) []string {
	var out []string
	for line := range strings.SplitSeq(text, "\n") {
		start := 0
		ending := false // inside the run of terminators and closing quotes
		for i, r := range line {
			switch {
			case isTerminator(r):
				ending = true
			case ending && (isClosingQuote(r) || unicode.IsSpace(r)):
			case ending:
				out = appendSentence(out, line[start:i])
				start, ending = i, false
			}
		}
		out = appendSentence(out, line[start:])
	}
	return out
}

func appendSentence(out []string, s string) []string {
	if s = strings.TrimFunc(s, unicode.IsSpace); s != "" {
		out = append(out, s)
	}
	return out
}

func isTerminator(r rune) bool {
	switch r {
	case '。', '！', '？', '…':
		return true
	}
	return false
}

func isClosingQuote(r rune) bool {
	switch r {
	case '”', '’', '」', '』':
		return true
	}
	return false
}

// repeatRun is how many sentences in a row must repeat earlier ones for
// dropRepeat to call it a repeat rather than a common phrase.
const repeatRun = 10

// dropRepeat returns the lines of the novel up to the sentence where it
// starts repeating itself, and how many sentences it left out. The copy of
// 围城 in gojieba's module ends by repeating about 31,000 characters of the
// text before it (from the middle of its chapter 9, one long line), with
// ASCII quotes instead of “”: two articles cut from the two copies would be
// taken for unrelated while being near duplicates. A repeat is a run of
// repeatRun sentences that all appeared earlier, compared by their letters
// and digits only; the text is cut where the run starts.
func dropRepeat(lines []string) ([]string, int) {
	type at struct{ line, sentence int }
	var all []at
	split := make([][]string, len(lines))
	seen := make(map[string]bool)
	run := 0
	for i, line := range lines {
		split[i] = SplitSentences(line)
		for j, s := range split[i] {
			key := strings.Map(func(r rune) rune {
				if unicode.IsLetter(r) || unicode.IsDigit(r) {
					return r
				}
				return -1
			}, s)
			if key == "" {
				continue
			}
			all = append(all, at{i, j})
			if !seen[key] {
				seen[key] = true
				run = 0
				continue
			}
			if run++; run < repeatRun {
				continue
			}
			from := all[len(all)-repeatRun]
			kept := append(lines[:from.line:from.line], strings.Join(split[from.line][:from.sentence], ""))
			dropped := len(split[from.line]) - from.sentence
			for _, l := range lines[from.line+1:] {
				dropped += len(SplitSentences(l))
			}
			return kept, dropped
		}
	}
	return lines, 0
}
