package service

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// Which member of a cluster to keep, in order (docs/reporting.md tells
// why each step, issue 36):
//
//  1. the member an editor kept (the latest decision);
//  2. among the members from the best-ranked preferred source
//     (KeepPolicy.Sources; every member when none is from one), the most
//     complete: holding the most of the story (the 5-grams found in half
//     the members or more, two at least), within
//     KeepLengthTolerancePercent points of the best; a member holding its
//     link plus much more (holdsMore) counts only when all do, and a
//     compilation never does (when every one is, all count);
//  3. of those, the earliest published, then the lowest id.
//
// The view cluster_kept (migrations 00009, 00017, 00022, 00023) applies the
// same rule in SQL; a test in repo holds the two to each other.

// KeepLengthTolerancePercent is how much shorter than the longest text of
// its cluster, in percent of the longest, a text may be and still count as
// complete.
const KeepLengthTolerancePercent = 5

// KeepPolicy is the configurable part of the keep rule.
type KeepPolicy struct {
	// Sources are the preferred sources, best first (DEDUP_KEEP_SOURCES).
	Sources []string
}

// Validate refuses an empty, overlong or repeated source.
func (p KeepPolicy) Validate() error {
	seen := map[string]bool{}
	for i, s := range p.Sources {
		switch {
		case strings.TrimSpace(s) == "":
			return Invalid("sources", "source %d of %d is blank", i+1, len(p.Sources))
		case seen[s]:
			return Invalid("sources", "%q is listed twice", s)
		}
		if err := checkLength("sources", s, MaxSourceLength); err != nil {
			return err
		}
		if err := checkStrings("", field{"sources", s}); err != nil {
			return err
		}
		seen[s] = true
	}
	return nil
}

// rank is the place of source among the preferred sources, from 1; every
// other source ranks after them, len(Sources)+1.
func (p KeepPolicy) rank(source string) int {
	if i := slices.Index(p.Sources, source); i >= 0 {
		return i + 1
	}
	return len(p.Sources) + 1
}

// Describe says the rule in a sentence, for the page and the API.
func (p KeepPolicy) Describe() string {
	var b strings.Builder
	b.WriteString("An editor's choice first. ")
	if len(p.Sources) > 0 {
		fmt.Fprintf(&b, "Otherwise the members from the best-ranked of the preferred sources (%s) count", strings.Join(p.Sources, ", "))
		b.WriteString(", or all of them when none is from one; ")
	} else {
		b.WriteString("Otherwise (no preferred sources are configured) ")
	}
	fmt.Fprintf(&b, "of those, the most complete text is kept (the one holding the most of the story, the text found in half the members or more, two at least; one holding at most %d%% less counts as complete too; "+
		"a partial duplicate that holds the article it copies plus much more, such as a digest, does not count), "+
		"and of several complete texts the earliest published.", KeepLengthTolerancePercent)
	return b.String()
}

// KeepRule names the step of the rule that chose a cluster's kept member.
type KeepRule string

// The steps of the keep rule.
const (
	KeepByEditor   KeepRule = "editor"   // an editor kept it
	KeepBySource   KeepRule = "source"   // the only member from the best-ranked preferred source
	KeepByLength   KeepRule = "length"   // the only complete text
	KeepEarliest   KeepRule = "earliest" // the earliest published of the complete texts
	KeepOnlyMember KeepRule = "only"     // the cluster has no other member
)

// Kept is the member of a cluster to keep, and why.
type Kept struct {
	ID     int64
	Rule   KeepRule
	Reason string    // the rule's step in a sentence, with the figures that decided
	By     *Decision // the editor's decision, when Rule is KeepByEditor
	Facts  KeepFacts // the figures of Reason, for a page to say it in its language
}

// KeepFacts are the figures a Kept's reason states.
type KeepFacts struct {
	// Source is the preferred source the kept member was chosen from, Rank
	// its place among the Ranked preferred sources, AtSource how many
	// members are from it; "" when no member is from a preferred one.
	Source       string
	Rank, Ranked int
	AtSource     int
	// Held is the percent of the story's text the most complete text
	// holds, NextHeld that of the next (KeepByLength).
	Held, NextHeld   int
	Complete         int       // how many texts count as complete (KeepEarliest)
	Published        time.Time // the kept member's publication (KeepEarliest)
	TolerancePercent int
	SetAside         int // members not counted: they hold the article they copy plus much more
}

// KeepCandidate is a member of a cluster as the keep rule reads it.
type KeepCandidate struct {
	ID          int64
	ClusterID   int64
	Source      string
	ExternalID  string
	Title       string
	PublishedAt time.Time
	Kept        *Decision // the editor's choice in force on it, if any
	// Shingles are its sampled 5-grams: how much of the story it holds.
	Shingles fingerprint.ShingleSet
	// ShinglesCut says that Shingles are the first (smallest) of a longer
	// set, each of those up to its last (migration 00025): the story is
	// then counted below the cut, where every member's are whole.
	ShinglesCut bool
	// Status and Coverage are its verdict's, for holdsMore.
	Status   Status
	Coverage Coverage
	// Version is its fingerprint's version: other coverage compares
	// sentences of one version only.
	Version fingerprint.Version
	// Compilation is whether it holds, besides the article it links to
	// plus much more (holdsMore), half or more of an article of another
	// cluster: the text of two stories or more (isCompilation).
	Compilation bool
}

// isCompilation reports a compilation: a member holding most of the text
// of two or more different stories — the article it links to (holdsMore)
// and, read from the sentence index (article_holds_other_story, migration
// 00023), half or more of an article of another cluster. It is never kept
// by completeness (docs/reporting.md, "Compilations").
func isCompilation(c KeepCandidate) bool {
	return holdsMore(c) && c.Compilation
}

// holdsMore reports whether c holds the article it links to plus much more
// (holdsPlusMore, rules_near.go): a partial duplicate, at least HoldShare of that
// article found in it, less than HoldShare of it found there — a digest, a
// compilation, an expansion. No near duplicate is one. It compares in
// float32, as the view cluster_kept compares the stored coverages.
func holdsMore(c KeepCandidate) bool {
	return c.Status == StatusPartialDuplicate &&
		float32(c.Coverage.That) >= float32(HoldShare) && float32(c.Coverage.This) < float32(HoldShare)
}

// keep applies the rule to the members of one cluster (at least one).
func keep(members []KeepCandidate, p KeepPolicy) Kept {
	var chosen *KeepCandidate
	for i, m := range members {
		if m.Kept != nil && (chosen == nil || m.Kept.ID > chosen.Kept.ID) {
			chosen = &members[i]
		}
	}
	if chosen != nil {
		d := chosen.Kept
		return Kept{ID: chosen.ID, Rule: KeepByEditor, By: d,
			Reason: fmt.Sprintf("kept by an editor, %s, on %s", d.Editor, d.DecidedAt.UTC().Format("2006-01-02 15:04 UTC"))}
	}
	if len(members) == 1 {
		return Kept{ID: members[0].ID, Rule: KeepOnlyMember, Reason: "the only member of its cluster"}
	}

	best := len(p.Sources) + 1
	for _, m := range members {
		best = min(best, p.rank(m.Source))
	}
	var atBest []KeepCandidate
	for _, m := range members {
		if p.rank(m.Source) == best {
			atBest = append(atBest, m)
		}
	}
	preferred := best <= len(p.Sources)
	facts := KeepFacts{Ranked: len(p.Sources), TolerancePercent: KeepLengthTolerancePercent}
	if preferred {
		facts.Source, facts.Rank, facts.AtSource = atBest[0].Source, best, len(atBest)
	}
	if preferred && len(atBest) == 1 {
		return Kept{ID: atBest[0].ID, Rule: KeepBySource, Facts: facts,
			Reason: fmt.Sprintf("preferred source %s (%s of %d in DEDUP_KEEP_SOURCES)", atBest[0].Source, ordinal(best), len(p.Sources))}
	}
	prefix := ""
	if preferred {
		prefix = fmt.Sprintf("of the %d members from preferred source %s, ", len(atBest), atBest[0].Source)
	}

	contenders := slices.DeleteFunc(slices.Clone(atBest), holdsMore)
	if len(contenders) == 0 {
		contenders = slices.DeleteFunc(slices.Clone(atBest), isCompilation)
	}
	// Compilations alone: none is kept by completeness, all count as
	// complete, and the earliest is kept.
	byCompleteness := len(contenders) > 0
	if !byCompleteness {
		contenders = atBest
	}
	held, story := storyHeld(members)
	most := 0
	for _, m := range contenders {
		most = max(most, held[m.ID])
	}
	var complete []KeepCandidate
	next := 0 // the most held by a text that is not complete
	for _, m := range contenders {
		if !byCompleteness || isComplete(held[m.ID], most) {
			complete = append(complete, m)
		} else {
			next = max(next, held[m.ID])
		}
	}
	aside := ""
	if n := len(atBest) - len(contenders); n > 0 {
		aside = fmt.Sprintf("; not counted: %d that hold the article they copy plus much more (a digest, an expansion)", n)
	}
	facts.Held, facts.NextHeld = percentOf(most, story), percentOf(next, story)
	facts.Complete, facts.SetAside = len(complete), len(atBest)-len(contenders)
	if len(complete) == 1 && byCompleteness {
		return Kept{ID: complete[0].ID, Rule: KeepByLength, Facts: facts,
			Reason: prefix + fmt.Sprintf("the most complete text: it holds %d%% of the story's text, the next %d%%", facts.Held, facts.NextHeld) + aside}
	}
	first := slices.MinFunc(complete, func(a, b KeepCandidate) int {
		return cmp.Or(a.PublishedAt.Compare(b.PublishedAt), cmp.Compare(a.ID, b.ID))
	})
	facts.Published = first.PublishedAt
	return Kept{ID: first.ID, Rule: KeepEarliest, Facts: facts,
		Reason: prefix + fmt.Sprintf("the earliest published (%s) of %d complete texts (within %d%% of the most of the story's text held, %d%%)",
			first.PublishedAt.UTC().Format("2006-01-02 15:04 UTC"), len(complete), KeepLengthTolerancePercent, facts.Held) + aside}
}

// storyHeld returns how many of the story's 5-grams each member holds, and
// how many the story has: the story is the 5-grams found in half the
// members or more, and at least two — not a footer two reposts of one
// portal share in a cluster of ten (docs/evaluation.md, 3c). The view
// cluster_kept counts the same.
func storyHeld(members []KeepCandidate) (map[int64]int, int) {
	quorum := max(2, (len(members)+1)/2)
	// Below the least last 5-gram of the members read cut, every member's
	// 5-grams are whole: the story is counted there, a sample of it as
	// consistent as the sampling of the 5-grams themselves. A list of fifty
	// clusters of 2 MB members reads 4,096 of each, not 175,000 (issue 44).
	below := uint32(math.MaxUint32)
	for _, m := range members {
		if m.ShinglesCut && len(m.Shingles) > 0 {
			below = min(below, m.Shingles[len(m.Shingles)-1])
		}
	}
	// Counted by sorting every member's 5-grams together (a radix sort,
	// linear), not in a map: a page of fifty clusters of a hundred members
	// spent most of its time growing maps (docs/ui.md, "The list's keep
	// rule", 2026-11-27).
	total := 0
	for _, m := range members {
		total += len(m.Shingles)
	}
	all := make([]uint32, 0, total)
	for _, m := range members {
		for i, s := range m.Shingles {
			if s > below {
				break
			}
			if i == 0 || m.Shingles[i-1] != s {
				all = append(all, s)
			}
		}
	}
	all = radixSort(all)
	var story []uint32 // sorted
	for i := 0; i < len(all); {
		j := i + 1
		for j < len(all) && all[j] == all[i] {
			j++
		}
		if j-i >= quorum {
			story = append(story, all[i])
		}
		i = j
	}
	held := make(map[int64]int, len(members))
	for _, m := range members {
		n, k := 0, 0
		for i, s := range m.Shingles {
			if s > below {
				break
			}
			if i > 0 && m.Shingles[i-1] == s {
				continue
			}
			for k < len(story) && story[k] < s {
				k++
			}
			if k < len(story) && story[k] == s {
				n++
			}
		}
		held[m.ID] = n
	}
	return held, len(story)
}

// radixSort sorts a ascending, a byte a pass (least significant first),
// into a or a buffer of its length; it returns the sorted slice.
func radixSort(a []uint32) []uint32 {
	buf := make([]uint32, len(a))
	for shift := uint(0); shift < 32; shift += 8 {
		var count [257]int
		for _, v := range a {
			count[(v>>shift)&0xff+1]++
		}
		if count[1] == len(a) { // every element has a 0 byte here
			continue
		}
		for i := 1; i < 257; i++ {
			count[i] += count[i-1]
		}
		for _, v := range a {
			b := (v >> shift) & 0xff
			buf[count[b]] = v
			count[b]++
		}
		a, buf = buf, a
	}
	return a
}

// percentOf is n in percent of of, rounded down; 0 when of is.
func percentOf(n, of int) int {
	if of == 0 {
		return 0
	}
	return 100 * n / of
}

// isComplete reports whether a text holding n of the story's 5-grams
// counts as complete next to the one holding most, in integers as the view
// computes it.
func isComplete(n, most int) bool {
	return 100*n >= (100-KeepLengthTolerancePercent)*most
}

func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return fmt.Sprintf("%d%s", n, suffix)
}
