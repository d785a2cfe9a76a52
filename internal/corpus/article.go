package corpus

import (
	"math/rand/v2"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Article is a news-like text: a title and a body of paragraphs joined by
// "\n". The paragraphs of an article cut from the novel hold 2–6 sentences
// each (a body of a single sentence has one paragraph of one).
type Article struct {
	Title, Body string
}

// Title lengths, in runes.
const (
	minTitleRunes = 8
	maxTitleRunes = 24
)

// Originals cuts count articles whose bodies hold minRunes to maxRunes runes
// (newlines included), at sentence boundaries, in the order they appear in
// the novel. No two of them share a sentence. They are spread over the whole
// novel, with random gaps between them when it has room to spare; when it
// has not, Originals returns fewer than count articles (the novel holds about
// 215,000 runes once its repeated tail is left out: some 120 articles of 500–3000 runes). Sentences too long to
// fit the bounds are skipped. Each article's title is a clause of 8–24 runes
// from its first sentence.
func (n *Novel) Originals(rng *rand.Rand, count, minRunes, maxRunes int) []Article {
	if count <= 0 || minRunes > maxRunes || maxRunes <= 0 {
		return nil
	}
	out := make([]Article, 0, count)
	left := n.total // runes from sentence i on
	i := 0
	for len(out) < count && i < len(n.sentences) {
		// Skip a random gap of up to the room the articles still to cut
		// leave, shared among them: the gaps spread the articles over the
		// whole novel and never use the room the last ones need.
		if slack := left - (count-len(out))*(minRunes+maxRunes)/2; slack > 0 {
			gap := rng.IntN(slack/(count-len(out)) + 1)
			for skipped := 0; skipped < gap && i < len(n.sentences); i++ {
				skipped += n.runes[i]
				left -= n.runes[i]
			}
		}
		if i >= len(n.sentences) {
			break
		}
		target := minRunes + rng.IntN(maxRunes-minRunes+1)
		end, ok := n.extent(i, target, minRunes, maxRunes)
		if !ok {
			left -= n.runes[i]
			i++
			continue
		}
		out = append(out, n.article(rng, i, end))
		for ; i < end; i++ {
			left -= n.runes[i]
		}
	}
	return out
}

// Overlapping cuts count articles of minRunes to maxRunes runes at random
// sentences of the novel. They may overlap each other, so there is no limit
// to how many there can be (large fixtures take 20,000 and more). It returns
// fewer only when the bounds can hardly be met (no run of sentences of that
// length starts at most places in the novel).
func (n *Novel) Overlapping(rng *rand.Rand, count, minRunes, maxRunes int) []Article {
	if count <= 0 || minRunes > maxRunes || maxRunes <= 0 {
		return nil
	}
	out := make([]Article, 0, count)
	for tries := 0; len(out) < count && tries < 100*count+1000; tries++ {
		i := rng.IntN(len(n.sentences))
		target := minRunes + rng.IntN(maxRunes-minRunes+1)
		if end, ok := n.extent(i, target, minRunes, maxRunes); ok {
			out = append(out, n.article(rng, i, end))
		}
	}
	return out
}

// extent returns the end of the run of sentences from i that reaches target
// runes without exceeding maxRunes, and whether the run holds at least
// minRunes. The body's length is the sentences' runes plus one newline
// between paragraphs; counting a newline between every two sentences when
// checking maxRunes, and none when checking minRunes, keeps the body within
// bounds however the sentences are grouped into paragraphs.
func (n *Novel) extent(i, target, minRunes, maxRunes int) (int, bool) {
	sum, j := 0, i
	for j < len(n.sentences) && sum < target {
		next := sum + n.runes[j]
		if next+(j-i) > maxRunes {
			break
		}
		sum = next
		j++
	}
	return j, j > i && sum >= minRunes
}

// article makes the article of sentences [i, end).
func (n *Novel) article(rng *rand.Rand, i, end int) Article {
	sentences := n.sentences[i:end]
	return Article{
		Title: n.title(rng, sentences, ""),
		Body:  joinParagraphs(paragraphs(rng, sentences)),
	}
}

// paragraphs groups sentences into paragraphs of 2–6 sentences.
func paragraphs(rng *rand.Rand, sentences []string) [][]string {
	var out [][]string
	for rest := sentences; len(rest) > 0; {
		k := min(2+rng.IntN(5), len(rest))
		if len(rest)-k == 1 { // never leave one sentence alone at the end
			if k < 6 {
				k++
			} else {
				k--
			}
		}
		out = append(out, rest[:k:k])
		rest = rest[k:]
	}
	return out
}

func joinParagraphs(paras [][]string) string {
	lines := make([]string, len(paras))
	for i, p := range paras {
		lines[i] = strings.Join(p, "")
	}
	return strings.Join(lines, "\n")
}

// title returns a clause of 8–24 runes for an article of these sentences,
// other than not: one of the first sentence's clauses if it has one of that
// length, else one from the next sentences that has, else one from anywhere
// in the novel. The clauses of a sentence are its runs of letters and digits
// between punctuation and white space.
func (n *Novel) title(rng *rand.Rand, sentences []string, not string) string {
	for _, s := range sentences {
		if c := pickClause(rng, s, not); c != "" {
			return c
		}
	}
	for range 10_000 {
		if c := pickClause(rng, n.sentences[rng.IntN(len(n.sentences))], not); c != "" {
			return c
		}
	}
	return "无题" // not reached with 围城, whose sentences hold thousands of such clauses
}

// pickClause returns a random clause of s of title length other than not, or
// "" when s has none.
func pickClause(rng *rand.Rand, s, not string) string {
	var fit []string
	for _, c := range clauses(s) {
		if r := utf8.RuneCountInString(c); r >= minTitleRunes && r <= maxTitleRunes && c != not {
			fit = append(fit, c)
		}
	}
	if len(fit) == 0 {
		return ""
	}
	return fit[rng.IntN(len(fit))]
}

// clauses splits s at every rune that is not a letter or a digit.
func clauses(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// sentencesOf splits a body into paragraphs of sentences.
func sentencesOf(body string) [][]string {
	var out [][]string
	for line := range strings.SplitSeq(body, "\n") {
		if s := SplitSentences(line); len(s) > 0 {
			out = append(out, s)
		}
	}
	return out
}

// foreign returns a random sentence of the novel that the article does not
// hold, of roughly want runes (the closest of a few tries) when want > 0,
// else of 8–80 runes.
func (n *Novel) foreign(rng *rand.Rand, have [][]string, want int) string {
	inArticle := func(s string) bool {
		for _, p := range have {
			if slices.Contains(p, s) {
				return true
			}
		}
		return false
	}
	best, bestDiff := "", -1
	for tries := 0; tries < 1000 && (best == "" || tries < 16); tries++ {
		k := rng.IntN(len(n.sentences))
		s, r := n.sentences[k], n.runes[k]
		if inArticle(s) {
			continue
		}
		diff := 0
		if want > 0 {
			diff = abs(r - want)
		} else if r < 8 || r > 80 {
			continue
		}
		if bestDiff < 0 || diff < bestDiff {
			best, bestDiff = s, diff
		}
		if want <= 0 {
			break
		}
	}
	return best
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
