package main

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"unicode/utf8"
)

// Reposts made from real articles: what a site does to an article it
// copies. Each edit names one change; an edit that cannot apply to an
// article (too few sentences or paragraphs) makes no repost of it.
const (
	editLight      = "light"            // byline on top, editor's line below, half-width punctuation
	editRetitled   = "retitled"         // another article's headline, the body unchanged
	editFirst60    = "first_60"         // the leading sentences holding about 60 % of the text
	editFirst80    = "first_80"         // … about 80 %
	editChrome     = "chrome_swapped"   // first and last sentence replaced by another site's header and footer
	editDropped    = "sentence_dropped" // one sentence removed
	editAdded      = "sentence_added"   // one sentence of another article inserted
	editMoved      = "paragraph_moved"  // one paragraph moved elsewhere
	editBoiler     = "boilerplate"      // header and footer lines of 100–300 characters added
	editRewritten  = "rewritten_20"     // a fifth of the sentences replaced by other articles' sentences
	rewrittenShare = 0.2
)

// repostEdits are the edits, in the order the report lists them.
var repostEdits = []string{editLight, editRetitled, editFirst60, editFirst80, editChrome, editDropped,
	editAdded, editMoved, editBoiler, editRewritten}

var editDescriptions = map[string]string{
	editLight:     "a byline line on top, an editor's line at the bottom, full-width punctuation made half-width",
	editRetitled:  "another article's headline; the body unchanged",
	editFirst60:   "only the leading sentences, holding about 60 % of the body's characters",
	editFirst80:   "only the leading sentences, holding about 80 % of the body's characters",
	editChrome:    "the first and the last sentence replaced by another site's header (1–2 lines) and footer (1–2 lines)",
	editDropped:   "one sentence removed",
	editAdded:     "one sentence (10–80 characters) of another article of the corpus inserted",
	editMoved:     "one paragraph moved to another position",
	editBoiler:    "site header and footer lines of 100–300 characters added",
	editRewritten: "a fifth of the sentences (at least one) replaced by sentences of similar length from other articles",
}

// halfWidth is what a site that converts punctuation does to a text.
var halfWidth = strings.NewReplacer(
	"，", ",", "。", ".", "！", "!", "？", "?", "：", ":", "；", ";",
	"“", `"`, "”", `"`, "（", "(", "）", ")", "、", ",",
)

// donor supplies other articles' text to the edits that bring some in.
type donor interface {
	// sentence returns a sentence of another article than from, of about
	// runes runes (0: any of 10–80).
	sentence(rng *rand.Rand, from, runes int) string
	// title returns the headline of another article than from, different
	// from title.
	title(rng *rand.Rand, from int, title string) string
}

// applyEdit returns the repost of article from (title, body) made by edit,
// or ok false when the edit cannot apply.
func applyEdit(rng *rand.Rand, d donor, from int, title, body, edit string) (string, string, bool) {
	paras := paragraphsOf(body)
	n := sentenceCount(paras)
	switch edit {
	case editLight:
		return title, halfWidth.Replace(bylineLine(rng) + "\n" + body + "\n" + editorLine(rng)), true
	case editRetitled:
		return d.title(rng, from, title), body, true
	case editFirst60, editFirst80:
		share := 0.6
		if edit == editFirst80 {
			share = 0.8
		}
		cut, ok := leading(paras, share)
		return title, joinParagraphs(cut), ok
	case editChrome:
		if n < 3 {
			return "", "", false
		}
		ps := removeSentence(paras, n-1)
		ps = removeSentence(ps, 0)
		header, footer := chrome(rng)
		return title, strings.Join(header, "\n") + "\n" + joinParagraphs(ps) + "\n" + strings.Join(footer, "\n"), true
	case editDropped:
		if n < 2 {
			return "", "", false
		}
		return title, joinParagraphs(removeSentence(paras, rng.IntN(n))), true
	case editAdded:
		ps := clone(paras)
		p := rng.IntN(len(ps))
		ps[p] = slices.Insert(ps[p], rng.IntN(len(ps[p])+1), d.sentence(rng, from, 0))
		return title, joinParagraphs(ps), true
	case editMoved:
		if len(paras) < 2 {
			return "", "", false
		}
		ps := clone(paras)
		i := rng.IntN(len(ps))
		j := rng.IntN(len(ps) - 1)
		if j >= i {
			j++
		}
		p := ps[i]
		ps = slices.Delete(ps, i, i+1)
		return title, joinParagraphs(slices.Insert(ps, j, p)), true
	case editBoiler:
		header, footer := boilerplate(rng)
		return title, strings.Join(header, "\n") + "\n" + body + "\n" + strings.Join(footer, "\n"), true
	case editRewritten:
		if n < 2 {
			return "", "", false
		}
		k := min(max(1, int(math.Round(rewrittenShare*float64(n)))), n-1)
		ps := clone(paras)
		for _, s := range rng.Perm(n)[:k] {
			p, q := locateSentence(ps, s)
			ps[p][q] = d.sentence(rng, from, utf8.RuneCountInString(ps[p][q]))
		}
		return title, joinParagraphs(ps), true
	}
	panic("dedupeval: unknown edit " + edit)
}

// leading returns the leading sentences whose characters come closest to
// share of the body's, at least one; ok is false when that is every
// sentence.
func leading(paras [][]string, share float64) ([][]string, bool) {
	total := 0
	for _, p := range paras {
		for _, s := range p {
			total += utf8.RuneCountInString(s)
		}
	}
	target := share * float64(total)
	out := make([][]string, 0, len(paras))
	got, kept, all := 0, 0, sentenceCount(paras)
	for _, p := range paras {
		var keep []string
		for _, s := range p {
			r := utf8.RuneCountInString(s)
			if kept > 0 && math.Abs(float64(got+r)-target) > math.Abs(float64(got)-target) {
				return append(out, keep), kept < all
			}
			keep = append(keep, s)
			got += r
			kept++
		}
		out = append(out, keep)
	}
	return out, kept < all
}

// locateSentence returns the paragraph and position of sentence s (counted
// across paragraphs).
func locateSentence(paras [][]string, s int) (int, int) {
	for p, ss := range paras {
		if s < len(ss) {
			return p, s
		}
		s -= len(ss)
	}
	panic("dedupeval: sentence out of range")
}

// removeSentence returns a copy of paras without sentence s.
func removeSentence(paras [][]string, s int) [][]string {
	ps := clone(paras)
	p, q := locateSentence(ps, s)
	ps[p] = slices.Delete(ps[p], q, q+1)
	return ps
}

func clone(paras [][]string) [][]string {
	out := make([][]string, len(paras))
	for i, p := range paras {
		out[i] = slices.Clone(p)
	}
	return out
}
