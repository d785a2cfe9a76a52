package main

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Sentences of real news, for the reposts (which drop, add, move and
// replace them) and for the audit of the service's sentence links (which
// counts boilerplate sentences). A body is read as paragraphs — its
// non-blank lines — of sentences. A sentence ends after 。！？!?；; and the
// closing quotes or brackets that follow, and after a '.' that does not
// stand between two digits (3.5 is a number, not two sentences).

// paragraphsOf splits a body into paragraphs of sentences; blank lines and
// white space around sentences are dropped.
func paragraphsOf(body string) [][]string {
	var out [][]string
	for line := range strings.SplitSeq(body, "\n") {
		if s := splitSentences(line); len(s) > 0 {
			out = append(out, s)
		}
	}
	return out
}

// joinParagraphs is the inverse of paragraphsOf: sentences joined as they
// were, paragraphs one a line. Empty paragraphs are left out.
func joinParagraphs(paras [][]string) string {
	lines := make([]string, 0, len(paras))
	for _, p := range paras {
		if len(p) > 0 {
			lines = append(lines, strings.Join(p, ""))
		}
	}
	return strings.Join(lines, "\n")
}

// splitSentences splits one line into sentences.
func splitSentences(line string) []string {
	var out []string
	start := 0
	ending := false // after a terminator, inside the quotes that close it
	var prev rune
	for i, r := range line {
		switch {
		case isSentenceEnd(r) || r == '.' && !(isDigit(prev) && nextIsDigit(line[i+1:])):
			ending = true
		case ending && isCloser(r):
		case ending:
			out = appendTrimmed(out, line[start:i])
			start, ending = i, false
		}
		prev = r
	}
	return appendTrimmed(out, line[start:])
}

func isSentenceEnd(r rune) bool {
	switch r {
	case '。', '！', '？', '!', '?', '；', ';':
		return true
	}
	return false
}

func isCloser(r rune) bool {
	switch r {
	case '”', '’', '」', '』', '）', ')', '"', '\'', '】':
		return true
	}
	return unicode.IsSpace(r)
}

func isDigit(r rune) bool { return r >= '0' && r <= '9' }

func nextIsDigit(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return isDigit(r)
}

func appendTrimmed(out []string, s string) []string {
	if s = strings.TrimSpace(s); s != "" {
		out = append(out, s)
	}
	return out
}

// sentenceCount counts the sentences of paragraphs.
func sentenceCount(paras [][]string) int {
	n := 0
	for _, p := range paras {
		n += len(p)
	}
	return n
}

// boilerplateFrom is how many articles a sentence must appear in to count
// as boilerplate: a portal's disclaimer, an app's promotion, a programme's
// formula. Below it, a shared sentence is evidence the articles share text.
const boilerplateFrom = 20

// minIndexedRunes is the shortest sentence, in compact runes, whose
// recurrence is counted: shorter ones are too common to say anything.
const minIndexedRunes = 10

// sentenceFrequency counts, for every compact sentence of at least
// minIndexedRunes, how many of the bodies hold it.
func sentenceFrequency(bodies []string) map[string]int {
	freq := make(map[string]int)
	for _, body := range bodies {
		seen := make(map[string]bool)
		for _, p := range paragraphsOf(body) {
			for _, s := range p {
				c := compact(s)
				if utf8.RuneCountInString(c) >= minIndexedRunes && !seen[c] {
					seen[c] = true
					freq[c]++
				}
			}
		}
	}
	return freq
}
