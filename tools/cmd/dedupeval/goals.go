package main

import (
	"fmt"
	"math"
	"strings"
)

// The goals of issue 9 (articles) and issue 10 (sentences), as the figures
// measure them. Where a goal holds "in every band from 300 characters up",
// its figure is the worst of those bands.

// goal is one target a figure must reach (or, AtMost, stay under).
type goal struct {
	Issue  int
	What   string
	AtMost bool
	Limit  float64
	// Recall marks the goals of issue 9 that count a share of copies
	// found: the ones the choice of parameters ranks by after precision
	// and load.
	Recall bool
	// Edit is the edit of the reposts a goal counts, if it counts some.
	Edit string
	// Figure returns the figure and how it reads; NaN when nothing was
	// measured.
	Figure func(f *figures) (float64, string)
}

// met tells whether value reaches the goal; false for NaN.
func (g goal) met(value float64) bool {
	if math.IsNaN(value) {
		return false
	}
	if g.AtMost {
		return value <= g.Limit+1e-12
	}
	return value >= g.Limit-1e-12
}

// target reads "≥ 99 %", "≤ 0.5 %" or "100 %".
func (g goal) target() string {
	if g.Limit == 1 && !g.AtMost {
		return "100 %"
	}
	op := "≥"
	if g.AtMost {
		op = "≤"
	}
	return op + " " + percent(g.Limit)
}

// percent writes a share as a percentage with as few decimals as it needs.
func percent(x float64) string {
	s := fmt.Sprintf("%.3f", 100*x)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s + " %"
}

// The goals the choice of parameters meets first (choose.go).
var (
	precisionGoal = goal{Issue: 9, What: "flagged pairs whose bodies share < 30 % of 5-grams, share of flags (bodies ≥ 80 characters)", AtMost: true, Limit: 0.005,
		Figure: func(f *figures) (float64, string) {
			return f.FalseFlags.Value(), fmt.Sprintf("%s (%d of %d)", pct(f.FalseFlags.Value()), f.FalseFlags.Hit, f.FalseFlags.Of)
		}}
	loadGoal = goal{Issue: 9, What: "candidate load: unrelated pairs within 3 bits", AtMost: true, Limit: 0.0005,
		Figure: func(f *figures) (float64, string) {
			return f.Load.Value(), fmt.Sprintf("%s (%d of %d pairs)", pctFine(f.Load.Value()), f.Load.Hit, f.Load.Of)
		}}
)

// figureGoals are the goals the figures of one setting decide.
var figureGoals = []goal{
	{Issue: 9, What: "identical bodies under different headlines linked", Limit: 1, Recall: true,
		Figure: func(f *figures) (float64, string) { return rated(f.IdenticalOtherTitle) }},
	{Issue: 9, What: "near-identical pairs (Jaccard ≥ 0.8) linked", Limit: 0.99, Recall: true,
		Figure: func(f *figures) (float64, string) { return rated(f.NearIdentical) }},
	precisionGoal,
	{Issue: 9, What: "light reposts detected, every band from 300 up", Limit: 0.99, Recall: true, Edit: editLight, Figure: worstFrom(editLight, 1)},
	{Issue: 9, What: "retitled reposts detected, every band", Limit: 0.99, Recall: true, Edit: editRetitled, Figure: worstFrom(editRetitled, 0)},
	{Issue: 9, What: "light reposts of 80–300 characters detected", Limit: 0.95, Recall: true, Edit: editLight, Figure: worstFrom(editLight, 0, 0)},
	{Issue: 9, What: "chrome swapped detected, every band from 300 up", Limit: 0.97, Recall: true, Edit: editChrome, Figure: worstFrom(editChrome, 1)},
	{Issue: 9, What: "sentence dropped detected, every band from 300 up", Limit: 0.97, Recall: true, Edit: editDropped, Figure: worstFrom(editDropped, 1)},
	{Issue: 9, What: "sentence added detected, every band from 300 up", Limit: 0.97, Recall: true, Edit: editAdded, Figure: worstFrom(editAdded, 1)},
	{Issue: 9, What: "paragraph moved detected, every band from 300 up", Limit: 0.97, Recall: true, Edit: editMoved, Figure: worstFrom(editMoved, 1)},
	{Issue: 9, What: "boilerplate added detected, every band from 300 up", Limit: 0.97, Recall: true, Edit: editBoiler, Figure: worstFrom(editBoiler, 1)},
	loadGoal,
	{Issue: 10, What: "first 60 % judged partial or near, every band from 300 up", Limit: 0.95, Edit: editFirst60, Figure: worstFrom(editFirst60, 1)},
	{Issue: 10, What: "first 80 % judged partial or near, every band from 300 up", Limit: 0.95, Edit: editFirst80, Figure: worstFrom(editFirst80, 1)},
	{Issue: 10, What: "chrome swapped detected, every band from 300 up", Limit: 0.97, Edit: editChrome, Figure: worstFrom(editChrome, 1)},
	{Issue: 10, What: "natural partial copies linked", Limit: 0.9,
		Figure: func(f *figures) (float64, string) { return rated(f.Partial) }},
}

func rated(r rate) (float64, string) { return r.Value(), r.String() }

// worstFrom returns the figure of an edit: the lowest detection rate over
// bands from..to (to defaults to the last band), naming its band.
func worstFrom(edit string, from int, to ...int) func(f *figures) (float64, string) {
	return func(f *figures) (float64, string) {
		last := len(newsBands) - 1
		if len(to) > 0 {
			last = to[0]
		}
		worst, name, worstRate := math.NaN(), "", rate{}
		bands := f.Reposts[edit]
		for b := from; b <= last && b < len(bands); b++ {
			v := bands[b].Value()
			if math.IsNaN(v) {
				continue
			}
			if math.IsNaN(worst) || v < worst {
				worst, name, worstRate = v, newsBands[b].Name, bands[b]
			}
		}
		if math.IsNaN(worst) {
			return worst, "–"
		}
		if from == last {
			return worst, worstRate.String()
		}
		return worst, fmt.Sprintf("%s, worst band %s", worstRate, name)
	}
}

// goalRow is a line of the goals table.
type goalRow struct {
	Issue  int    `json:"issue"`
	What   string `json:"goal"`
	Target string `json:"target"`
	Figure string `json:"figure"`
	Edit   string `json:"edit,omitempty"`
	// Met is nil when the goal could not be measured in this run.
	Met *bool `json:"met"`
}

// rowOf evaluates a goal on figures.
func rowOf(g goal, f *figures) goalRow {
	v, s := g.Figure(f)
	row := goalRow{Issue: g.Issue, What: g.What, Target: g.target(), Figure: s, Edit: g.Edit}
	if !math.IsNaN(v) {
		m := g.met(v)
		row.Met = &m
	}
	return row
}

// pctFine formats a small share as a percentage with four decimals.
func pctFine(x float64) string {
	if math.IsNaN(x) {
		return "–"
	}
	return fmt.Sprintf("%.4f %%", 100*x)
}
