package service

import (
	"strings"
	"time"
	"unicode"
)

// Action is what an editor decided.
type Action string

// The editors' actions.
const (
	ActionKeep  Action = "keep"  // keep an article in its cluster, whatever the rule says
	ActionReset Action = "reset" // the cluster returns to the keep rule
	ActionSplit Action = "split" // an article and its subtree are not duplicates of the rest
)

// Decision is one decision of an editor.
type Decision struct {
	ID        int64
	Action    Action
	ClusterID int64 // the cluster the decision was made in, as it was then
	// ArticleID is the article kept or split out: 0 for ActionReset, and
	// once the article is deleted. Its key stays.
	ArticleID         int64
	ArticleSource     string
	ArticleExternalID string
	Editor            string
	Note              string
	DecidedAt         time.Time
	// Undoable: a split that can still be undone (it has separations left;
	// undoing removes them). Set by the cluster's view alone.
	Undoable bool
}

// DecisionInput says who decides, and why.
type DecisionInput struct {
	// Editor is the editor's name: 1 to MaxEditorLength characters, no
	// control or format characters (CheckEditor). It is their word, not an
	// identity the service checks.
	Editor string
	// Note is at most MaxNoteLength characters, its lines broken by LF or
	// CRLF, with no other control character, and none of the format
	// characters and separators a name refuses (CheckEditor).
	Note string
}

// The longest editor's name and note, in characters.
const (
	MaxEditorLength = 100
	MaxNoteLength   = 1000
)

// MaxClusterMembers is the most members a cluster's view lists.
const MaxClusterMembers = 500

// MaxSplitPairs bounds the pairs one split may separate (the size of the
// subtree times the size of the rest of the cluster).
const MaxSplitPairs = 100_000

// maxDecisionsShown is the most decisions a cluster's view lists.
const maxDecisionsShown = 50

func (in *DecisionInput) validate() error {
	editor, err := CheckEditor(in.Editor)
	if err != nil {
		return err
	}
	in.Editor = editor
	if err := checkStrings("", field{"note", in.Note}); err != nil {
		return err
	}
	if err := checkNote(in.Note); err != nil {
		return err
	}
	return checkLength("note", in.Note, MaxNoteLength)
}

// checkNote refuses a note with a control character other than a line
// break (LF, or CR before LF): a tab, a bell, a lone CR; and, as a name
// does, a format character or a line or paragraph separator (hiddenRune).
func checkNote(note string) error {
	for i, r := range note {
		if r == '\n' || (r == '\r' && strings.HasPrefix(note[i+1:], "\n")) {
			continue
		}
		if unicode.IsControl(r) {
			return Invalid("note", "must not contain control characters other than line breaks (LF, CRLF), not %U", r)
		}
		if hiddenRune(r) {
			return Invalid("note", "must not contain format characters (bidirectional controls, zero-width characters) or line separators, not %U", r)
		}
	}
	return nil
}

// CheckEditor returns an editor's name without the blanks around it, or
// KindInvalid (field "editor") for a name that is empty, longer than
// MaxEditorLength characters, not UTF-8, or holds a control character, a
// line or paragraph separator, or a format character (Unicode Cf: the
// bidirectional controls such as U+202E, which would show the name, and
// the text after it, reversed; zero-width characters such as U+200B, which
// would make two names look alike).
func CheckEditor(name string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return "", Invalid("editor", "is required: the name of the editor who decides")
	}
	if err := checkStrings("", field{"editor", name}); err != nil {
		return "", err
	}
	if i := strings.IndexFunc(name, unicode.IsControl); i >= 0 {
		return "", Invalid("editor", "must not contain control characters (line breaks, tabs), not %U", []rune(name[i:])[0])
	}
	if i := strings.IndexFunc(name, hiddenRune); i >= 0 {
		return "", Invalid("editor", "must not contain format characters (bidirectional controls, zero-width characters) or line separators, not %U", []rune(name[i:])[0])
	}
	return name, checkLength("editor", name, MaxEditorLength)
}

// hiddenRune reports the characters a name or note refuses beyond control
// characters: format characters (Unicode Cf: bidirectional controls such as
// U+202E, zero-width characters such as U+200B) and the line and paragraph
// separators, which change how the text around them shows.
func hiddenRune(r rune) bool {
	return unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp)
}
