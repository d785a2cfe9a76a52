package service

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Difference says in a line how a copy differs from its original, read off
// the diff of the two (Diff): what an editor asks first of a repost.
type Difference struct {
	Same            bool // the same headline and text
	HeadlineChanged bool
	// BylineAdded: a short line (at most maxBylineRunes characters) added
	// before the text or after it: a byline such as 【搜狐体育】, an
	// editor's line such as （责任编辑：…）.
	BylineAdded bool
	// BylineRemoved: a short line of the original (a byline such as
	// 本报记者 李立, a credit line) deleted before the text or after it.
	BylineRemoved bool
	// BoilerplateAdded is how many characters of longer text were added
	// before or after the text: promotion, a disclaimer, links.
	BoilerplateAdded int
	// FirstPercent is, for a copy that stops early, how much of the
	// original it holds from its start (1 to 99); 0 otherwise.
	FirstPercent int
	// ParagraphsDropped and ParagraphsAdded count the paragraphs (runs of
	// at least minParagraphRunes characters across a line break) deleted
	// from the original or inserted into it within the text.
	ParagraphsDropped, ParagraphsAdded int
	// OtherEdits is how many characters were changed otherwise: words
	// replaced, sentences rewritten.
	OtherEdits int
}

// Limits of Difference's categories, in characters.
const (
	maxBylineRunes    = 60 // the longest line added at an edge that counts as a byline or editor's line
	minParagraphRunes = 20 // the shortest run across a line break that counts as a paragraph
	minTailPercent    = 10 // the least share of the original cut from its end for "the first N %"
)

// Differ compares a copy (toTitle, toBody) with its original (fromTitle,
// fromBody), texts as a reader sees them.
func Differ(fromTitle, fromBody, toTitle, toBody string) Difference {
	return summarize(headlineChanged(fromTitle, toTitle), Diff(fromBody, toBody))
}

// headlineChanged reports whether two headlines differ other than in the
// blanks around them.
func headlineChanged(a, b string) bool { return strings.TrimSpace(a) != strings.TrimSpace(b) }

// summarize reads a Difference off the runs that turn an original's body
// into a copy's.
func summarize(headlineChanged bool, runs []DiffRun) Difference {
	d := Difference{HeadlineChanged: headlineChanged}
	first, last := -1, -1 // the first and last runs the two texts share
	fromRunes := 0
	for i, r := range runs {
		if r.Kind == DiffEqual && visible(r.Text) > 0 {
			if first < 0 {
				first = i
			}
			last = i
		}
		if r.Kind != DiffInsert {
			fromRunes += utf8.RuneCountInString(r.Text)
		}
	}
	for i, r := range runs {
		n := visible(r.Text)
		if n == 0 || r.Kind == DiffEqual {
			continue
		}
		atStart, atEnd := first < 0 || i < first, i > last
		switch {
		case r.Kind == DiffInsert && (atStart || atEnd):
			if n <= maxBylineRunes && !strings.Contains(strings.TrimSpace(r.Text), "\n") {
				d.BylineAdded = true
			} else {
				d.BoilerplateAdded += n
			}
		case r.Kind == DiffDelete && (atStart || atEnd) && n <= maxBylineRunes && isCreditLine(r.Text):
			d.BylineRemoved = true
		case r.Kind == DiffDelete && atEnd && first >= 0 && 100*utf8.RuneCountInString(r.Text) >= minTailPercent*fromRunes:
			kept := fromRunes - utf8.RuneCountInString(r.Text)
			d.FirstPercent = min(max((100*kept+fromRunes/2)/max(fromRunes, 1), 1), 99)
		case n >= minParagraphRunes && strings.Contains(r.Text, "\n"):
			paragraphs := strings.Count(r.Text, "\n")
			if r.Kind == DiffInsert {
				d.ParagraphsAdded += paragraphs
			} else {
				d.ParagraphsDropped += paragraphs
			}
		default:
			d.OtherEdits += n
		}
	}
	d.Same = !d.HeadlineChanged && !d.BylineAdded && !d.BylineRemoved && d.BoilerplateAdded == 0 && d.FirstPercent == 0 &&
		d.ParagraphsDropped == 0 && d.ParagraphsAdded == 0 && d.OtherEdits == 0
	return d
}

// visible counts the characters of s that are not white space.
func visible(s string) int {
	n := 0
	for _, r := range s {
		if !unicode.IsSpace(r) {
			n++
		}
	}
	return n
}

// isCreditLine reports whether text is one line that credits a source or
// names an author (rules_credit.go's lines, 责任编辑 among them).
func isCreditLine(text string) bool {
	text = strings.TrimSpace(text)
	return !strings.Contains(text, "\n") && (len(sourceCredits(text)) > 0 || bylineRe.MatchString(text) || strings.Contains(text, "编辑"))
}
