package ui

import (
	"strings"
	"unicode/utf8"

	"github.com/newsdedup/newsdedup/service"
)

// The diff of two members as the page shows it: insertions in <ins>,
// deletions in <del> (each with words a screen reader says), long runs the
// two share folded in a <details>.

// diffView is the diff of two members: From's headline and text turned
// into To's.
type diffView struct {
	From, To   service.Article
	Title      []diffPiece
	Body       []diffPiece
	Difference string // in the editors' language
	Same       bool
	// Against is the earlier version of From that To copied and the diff
	// is of, with what was corrected since that To still carries.
	Against *service.CopiedVersion
}

// diffPiece is a run of a diff: Kind is "eq", "ins" or "del". A long run
// both share is shown as Text (its start), Folded (hidden until opened,
// FoldedCount characters) and Tail.
type diffPiece struct {
	Kind        string
	Text        string
	Folded      string
	FoldedCount int
	Tail        string
}

// Folding of the runs the two texts share, in characters: a run longer
// than foldAbove shows foldContext characters at each end.
const (
	foldAbove   = 240
	foldContext = 80
)

// diffPieces turns runs into the pieces the page shows.
func diffPieces(runs []service.DiffRun, folding bool) []diffPiece {
	out := make([]diffPiece, 0, len(runs))
	for _, r := range runs {
		p := diffPiece{Kind: "eq", Text: r.Text}
		switch r.Kind {
		case service.DiffInsert:
			p.Kind = "ins"
		case service.DiffDelete:
			p.Kind = "del"
		default:
			if folding && utf8.RuneCountInString(r.Text) > foldAbove {
				rs := []rune(r.Text)
				p.Text, p.Folded, p.Tail = string(rs[:foldContext]), string(rs[foldContext:len(rs)-foldContext]), string(rs[len(rs)-foldContext:])
				p.FoldedCount = len(rs) - 2*foldContext
			}
		}
		out = append(out, p)
	}
	return out
}

// newDiffView shows d in l's language.
func newDiffView(l *locale, d service.MemberDiff) (*diffView, error) {
	summary, err := l.difference(d.Difference)
	if err != nil {
		return nil, err
	}
	return &diffView{From: d.From, To: d.To, Title: diffPieces(d.Title, false), Body: diffPieces(d.Body, true),
		Difference: summary, Same: d.Difference.Same, Against: d.Against}, nil
}

// difference says in a line how a copy differs from its original.
func (l *locale) difference(d service.Difference) (string, error) {
	var parts []string
	add := func(id string, args ...any) error {
		s, err := l.t(id, args...)
		parts = append(parts, s)
		return err
	}
	var err error
	if d.AgainstVersion > 0 { // measured against the version it copied, before a correction
		err = add("diff.against", "Version", d.AgainstVersion)
	}
	if d.Same && err == nil {
		err = add("diff.same")
	}
	if d.BylineAdded && err == nil {
		err = add("diff.byline")
	}
	if d.BylineRemoved && err == nil {
		err = add("diff.byline_removed")
	}
	if d.HeadlineChanged && err == nil {
		err = add("diff.headline")
	}
	if d.FirstPercent > 0 && err == nil {
		err = add("diff.first", "Percent", d.FirstPercent)
	}
	if d.ParagraphsDropped > 0 && err == nil {
		err = add("diff.dropped", "Count", d.ParagraphsDropped)
	}
	if d.ParagraphsAdded > 0 && err == nil {
		err = add("diff.added", "Count", d.ParagraphsAdded)
	}
	if d.BoilerplateAdded > 0 && err == nil {
		err = add("diff.boilerplate", "Count", d.BoilerplateAdded)
	}
	if d.OtherEdits > 0 && err == nil {
		err = add("diff.other", "Count", d.OtherEdits)
	}
	if d.Truncated && err == nil {
		err = add("diff.truncated", "Chars", service.MaxDiffRunes)
	}
	if err != nil {
		return "", err
	}
	return strings.Join(parts, l.must("list.sep")), nil
}
