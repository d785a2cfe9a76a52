package service

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"
)

// Corrections are what a cluster's original corrected and which members
// still carry the text it corrected (issue 47): a copy made before the
// correction keeps the old fact, and an editor wants to know which. Such a
// copy is measured against the version it copied, so that the old fact
// is not shown as the copy's own edit.
type Corrections struct {
	// CorrectedAt is when the original's latest earlier content was
	// superseded; zero when it was never corrected.
	CorrectedAt time.Time
	// Passages are the passages the latest correction changed, each as it
	// read before and after, with a few characters of context.
	Passages []CorrectedPassage
	// Carriers are the members (of those Differences reads) that still
	// hold a superseded passage and not its correction.
	Carriers map[int64]bool
	// Copied is, for each carrier, the original's version it copied.
	Copied map[int64]CopiedVersion
}

// CopiedVersion is the earlier content of an original that a copy copied:
// the earliest of those read whose correction the copy still carries.
type CopiedVersion struct {
	Version      int
	Title        string
	SupersededAt time.Time
	// Passages are the passages of the corrections since that the copy
	// still carries, superseded and corrected side by side.
	Passages []CorrectedPassage
	text     string // as a reader sees it
}

// CorrectedPassage is one change of a correction, side by side.
type CorrectedPassage struct {
	Superseded, Corrected string
	// the context before the change, what it deleted and inserted, the
	// context after: Superseded is before+old+after
	before, old, new, after string
}

// carriedBy reports whether text carries p's superseded passage and not
// its correction: with the context on both sides, or failing that on one
// (a copy's own edit next to the fact leaves the other side).
func (p CorrectedPassage) carriedBy(text string) bool {
	for _, side := range [][2]string{{p.before, p.after}, {p.before, ""}, {"", p.after}} {
		if side[0] == "" && side[1] == "" {
			continue
		}
		if strings.Contains(text, side[0]+p.old+side[1]) {
			return !strings.Contains(text, side[0]+p.new+side[1])
		}
	}
	return false
}

// The bounds of a correction's passages: the characters of context on each
// side, the most passages one correction lists, and the most earlier
// contents of an article a copy is matched with (the latest ones).
const (
	correctionContext  = 8
	maxCorrectedShown  = 10
	maxVersionsMatched = 5
)

// Corrections reads the original of cluster view v's earlier contents, if
// it has any, and finds the members that still carry what a correction
// changed, and the version each copied. Two reads, however large the
// cluster: the latest versions and the bodies of at most MaxDifferences
// members.
func (s *Service) Corrections(ctx context.Context, v ClusterView) (Corrections, error) {
	c := Corrections{Carriers: map[int64]bool{}, Copied: map[int64]CopiedVersion{}}
	versions, err := s.store.ArticleVersions(ctx, v.Original.ID, maxVersionsMatched)
	if err != nil || len(versions) == 0 {
		return c, err
	}
	ids := []int64{v.Original.ID}
	for _, m := range v.Members {
		if m.ID != v.Original.ID && len(ids) <= MaxDifferences {
			ids = append(ids, m.ID)
		}
	}
	// The starts a page reads (MaxReadRunes): a passage past them in a
	// long member is not looked for (issue 44).
	bodies, err := s.store.BodyHeads(ctx, ids, MaxReadRunes)
	if err != nil {
		return c, err
	}
	orig, ok := v.Member(v.Original.ID)
	if !ok {
		if orig, err = s.store.Member(ctx, v.Original.ID); err != nil {
			return c, err
		}
	}
	h := newHistory(versions, readable(Text{Body: bodies[orig.ID].Body, ContentType: orig.ContentType}))
	c.CorrectedAt = versions[len(versions)-1].SupersededAt
	c.Passages = h.changes[len(h.changes)-1]
	for _, m := range v.Members {
		body, ok := bodies[m.ID]
		if m.ID == orig.ID || !ok {
			continue
		}
		if cv, ok := h.copied(readable(Text{Body: body.Body, ContentType: m.ContentType})); ok {
			c.Carriers[m.ID], c.Copied[m.ID] = true, cv
		}
	}
	return c, nil
}

// history is an article's latest earlier contents and what each
// correction changed: changes[i] turns versions[i] into the next one (the
// current content after the last).
type history struct {
	versions []StoredVersion
	texts    []string
	changes  [][]CorrectedPassage
}

func newHistory(versions []StoredVersion, current string) history {
	h := history{versions: versions, texts: make([]string, len(versions)+1), changes: make([][]CorrectedPassage, len(versions))}
	for i, v := range versions {
		h.texts[i] = readable(v.Text)
	}
	h.texts[len(versions)] = current
	for i := range versions {
		h.changes[i] = correctedPassages(h.texts[i], h.texts[i+1])
	}
	return h
}

// copied is the version a copy reading text copied: the earliest whose
// correction it carries — a superseded passage without its correction —
// and the passages it carries; false when it carries none.
func (h history) copied(text string) (CopiedVersion, bool) {
	var (
		cv  CopiedVersion
		got bool
	)
	for i := len(h.changes) - 1; i >= 0; i-- {
		var carried []CorrectedPassage
		for _, p := range h.changes[i] {
			if p.carriedBy(text) {
				carried = append(carried, p)
			}
		}
		if len(carried) == 0 {
			continue
		}
		v := h.versions[i]
		cv = CopiedVersion{Version: v.Version, Title: v.Title, SupersededAt: v.SupersededAt,
			Passages: append(carried, cv.Passages...), text: h.texts[i]}
		got = true
	}
	return cv, got
}

// correctedPassages are the passages that turn old into new, each with
// correctionContext characters of the text around it on both sides: what
// a copy of old still holds, and what the correction reads. Only changes
// within the text count, an insertion too (a copy lacks it); one at its
// start or end (an added correction note) carries no old fact.
func correctedPassages(old, new string) []CorrectedPassage {
	runs := Diff(old, new)
	var out []CorrectedPassage
	for i := 0; i < len(runs) && len(out) < maxCorrectedShown; i++ {
		if runs[i].Kind == DiffEqual {
			continue
		}
		j := i // runs[i:j] is one change: deletions and insertions between two equal runs
		var del, ins strings.Builder
		for ; j < len(runs) && runs[j].Kind != DiffEqual; j++ {
			if runs[j].Kind == DiffDelete {
				del.WriteString(runs[j].Text)
			} else {
				ins.WriteString(runs[j].Text)
			}
		}
		if i == 0 || j == len(runs) { // at an edge: a note added, a line dropped
			i = j
			continue
		}
		before := lastRunes(runs[i-1].Text, correctionContext)
		after, _ := firstRunes(runs[j].Text, correctionContext) // diff.go
		out = append(out, CorrectedPassage{Superseded: before + del.String() + after, Corrected: before + ins.String() + after,
			before: before, old: del.String(), new: ins.String(), after: after})
		i = j
	}
	return out
}

// lastRunes is the last n characters of s.
func lastRunes(s string, n int) string {
	for i := len(s); i > 0; {
		_, size := utf8.DecodeLastRuneInString(s[:i])
		i -= size
		if n--; n == 0 {
			return s[i:]
		}
	}
	return s
}
