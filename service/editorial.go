package service

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode"
)

// The editors' decisions: which member of a cluster to keep (rules_keep.go), and
// which articles are not duplicates of each other. Every decision is
// recorded with who made it, when, and what it was.
//
// A split of article X out of its cluster makes X, with the articles whose
// links lead to it (its subtree), a cluster of its own, headed by X, and
// separates every article of the subtree from every other member of the
// cluster: the judging never links one of a separated pair to the other
// again (judge), so re-ingesting X, or any article of its subtree, with the
// same or an edited text keeps it apart. Splitting out the head of a
// cluster leaves it alone: it is separated from every other member, and the
// articles that linked to it are judged again, as when an article leaves.

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

// hiddenRune reports the characters a name or note refuses beyond control
// characters: format characters (Unicode Cf: bidirectional controls such as
// U+202E, zero-width characters such as U+200B) and the line and paragraph
// separators, which change how the text around them shows.
func hiddenRune(r rune) bool {
	return unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp)
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

// editorial is the service's part of the editors' decisions: the keep
// policy, and whether it is recorded in the database.
type editorial struct {
	policy    KeepPolicy
	recorded  atomic.Bool
	cursorKey atomic.Pointer[[]byte] // see CursorKey
	signinKey atomic.Pointer[[]byte] // see SigninToken
}

// SetKeepPolicy sets the preferred sources of the keep rule. Call it before
// the service is used. KindInvalid for a blank, repeated or overlong source.
func (s *Service) SetKeepPolicy(p KeepPolicy) error {
	if err := p.Validate(); err != nil {
		return err
	}
	s.editorial.policy = KeepPolicy{Sources: slices.Clone(p.Sources)}
	return nil
}

// KeepPolicy returns the keep rule's preferred sources.
func (s *Service) KeepPolicy() KeepPolicy { return s.editorial.policy }

// RecordKeepPolicy records the keep rule in the database, for the
// reporting views (keep_policy, cluster_kept). The service records it
// itself before its first editorial read or write; dedupd serve records it
// at start.
func (s *Service) RecordKeepPolicy(ctx context.Context) error {
	err := s.store.InTx(ctx, func(tx Tx) error {
		return tx.RecordKeepPolicy(ctx, s.editorial.policy.Sources, KeepLengthTolerancePercent)
	})
	if err == nil {
		s.editorial.recorded.Store(true)
	}
	return err
}

// editorsDecide is the way of every editor's decision: it checks who
// decides and why (in, KindInvalid), records the keep rule if not yet, and
// runs decide in a transaction of its own, again after a conflict between
// concurrent writers.
func editorsDecide[T any](ctx context.Context, s *Service, in *DecisionInput, decide func(Tx) (T, error)) (T, error) {
	var out T
	if err := in.validate(); err != nil {
		return out, err
	}
	if err := s.ensureKeepPolicy(ctx); err != nil {
		return out, err
	}
	err := s.withRetry(ctx, func(tx Tx) error {
		var err error
		out, err = decide(tx)
		return err
	})
	return out, err
}

// ensureKeepPolicy records the keep rule unless this process did already.
func (s *Service) ensureKeepPolicy(ctx context.Context) error {
	if s.editorial.recorded.Load() {
		return nil
	}
	return s.RecordKeepPolicy(ctx)
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
