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
	// Truncated says that the texts were compared in their first
	// MaxDiffRunes characters past the start they share (TextDiff's): the
	// rest is not counted above.
	Truncated bool
	// AgainstVersion is the original's earlier version the copy was
	// measured against, the one it copied (Corrections); 0 for the
	// original's current content.
	AgainstVersion int
}

// Limits of Difference's categories, in characters.
const (
	maxBylineRunes    = 60 // the longest line added at an edge that counts as a byline or editor's line
	minParagraphRunes = 20 // the shortest run across a line break that counts as a paragraph
	minTailPercent    = 10 // the least share of the original cut from its end for "the first N %"
)

// headlineChanged reports whether two headlines differ other than in the
// blanks around them.
func headlineChanged(a, b string) bool { return strings.TrimSpace(a) != strings.TrimSpace(b) }

// summarize reads a Difference off the diff that turns an original's body
// into a copy's.
func summarize(headlineChanged bool, diff TextDiff) Difference {
	runs := diff.Runs
	d := Difference{HeadlineChanged: headlineChanged, Truncated: diff.Truncated}
	// A truncated diff's ends can be judged when one text was compared
	// whole and the two share no more of their ends than a closing line
	// or a full stop: the rest of the other is deleted (a copy that stops
	// early) or inserted (a copy with much added) at its end.
	endKnown := !diff.Truncated || (diff.SharedEnd <= maxBylineRunes && (diff.FromRest == 0 || diff.ToRest == 0))
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
	fromRest := 0 // the original's characters deleted past the runs
	if endKnown {
		fromRest = diff.FromRest
		fromRunes += fromRest
	}
	for i, r := range runs {
		n := visible(r.Text)
		if n == 0 || r.Kind == DiffEqual {
			continue
		}
		atStart, atEnd := first < 0 || i < first, i > last
		switch {
		case r.Kind == DiffInsert && (atStart || (atEnd && endKnown)):
			if n <= maxBylineRunes && !strings.Contains(strings.TrimSpace(r.Text), "\n") {
				d.BylineAdded = true
			} else {
				d.BoilerplateAdded += n
			}
		case r.Kind == DiffDelete && (atStart || atEnd) && n <= maxBylineRunes && isCreditLine(r.Text):
			d.BylineRemoved = true
		case atEnd && !endKnown && first >= 0:
			// At the edge of a truncated diff: the texts go on past it, so
			// a change here may be where one window stops before the
			// other (a byline added makes the copy's window end earlier
			// in the text); not counted, as the rest is not.
		case r.Kind == DiffDelete && atEnd && endKnown && first >= 0 && 100*(utf8.RuneCountInString(r.Text)+fromRest) >= minTailPercent*fromRunes:
			kept := fromRunes - utf8.RuneCountInString(r.Text) - fromRest
			d.FirstPercent = min(max((100*kept+fromRunes/2)/max(fromRunes, 1), 1), 99)
			fromRest = 0
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
	if endKnown && diff.ToRest > 0 { // inserted at the end, past the runs
		d.BoilerplateAdded += diff.ToRest
	}
	if fromRest > 0 { // deleted at the end, past the runs
		if first >= 0 && 100*fromRest >= minTailPercent*fromRunes {
			d.FirstPercent = min(max((100*(fromRunes-fromRest)+fromRunes/2)/max(fromRunes, 1), 1), 99)
		} else {
			d.OtherEdits += fromRest
		}
	}
	d.Same = !d.Truncated && !d.HeadlineChanged && !d.BylineAdded && !d.BylineRemoved && d.BoilerplateAdded == 0 && d.FirstPercent == 0 &&
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

// DiffKind says whether a run of a diff is in both texts, only in the
// second (inserted) or only in the first (deleted).
type DiffKind int8

// The kinds of run of a diff.
const (
	DiffEqual DiffKind = iota
	DiffInsert
	DiffDelete
)

// DiffRun is a run of text of a diff.
type DiffRun struct {
	Kind DiffKind
	Text string
}

// TextDiff is the diff of two texts.
type TextDiff struct {
	// Runs turn the first text into the second: those not DiffInsert spell
	// the first, those not DiffDelete the second — when Truncated, each
	// text's start only.
	Runs []DiffRun
	// Truncated says that a text ran past MaxDiffRunes beyond the start
	// the two share: the runs stop there.
	Truncated bool
	// FromRest and ToRest are, when Truncated, how many characters of
	// each text the runs leave out before the end the two share (SharedEnd
	// characters, left out too): what summarize needs to judge the ends.
	FromRest, ToRest, SharedEnd int
}
