package service

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"
)

// Corrections are what a cluster's original corrected and which members
// still carry the text it corrected (issue 47): a copy made before the
// correction keeps the old fact, and an editor wants to know which.
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
}

// CorrectedPassage is one change of a correction, side by side.
type CorrectedPassage struct {
	Superseded, Corrected string
}

// The bounds of a correction's passages: the characters of context on each
// side, and the most passages one correction lists.
const (
	correctionContext = 8
	maxCorrectedShown = 10
)

// Corrections reads the original of cluster view v's earlier content, if
// it has one, and finds the members that still carry what the latest
// correction changed. Two reads, however large the cluster: the latest
// version and the bodies of at most MaxDifferences members.
func (s *Service) Corrections(ctx context.Context, v ClusterView) (Corrections, error) {
	c := Corrections{Carriers: map[int64]bool{}}
	versions, err := s.store.ArticleVersions(ctx, v.Original.ID, 1)
	if err != nil || len(versions) == 0 {
		return c, err
	}
	prev := versions[len(versions)-1]
	c.CorrectedAt = prev.SupersededAt
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
	c.Passages = correctedPassages(readable(prev.Text), readable(Text{Body: bodies[orig.ID].Body, ContentType: orig.ContentType}))
	for _, m := range v.Members {
		body, ok := bodies[m.ID]
		if m.ID == orig.ID || !ok {
			continue
		}
		text := readable(Text{Body: body.Body, ContentType: m.ContentType})
		for _, p := range c.Passages {
			if strings.Contains(text, p.Superseded) && !strings.Contains(text, p.Corrected) {
				c.Carriers[m.ID] = true
				break
			}
		}
	}
	return c, nil
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
		out = append(out, CorrectedPassage{Superseded: before + del.String() + after, Corrected: before + ins.String() + after})
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
