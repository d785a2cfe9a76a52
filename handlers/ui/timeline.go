package ui

import (
	"cmp"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/newsdedup/newsdedup/service"
)

// A cluster's timeline: its members by hour of publication over its life,
// each bar stacked by source, drawn on the server as SVG like the
// overview's charts. A long life is drawn in wider steps (2, 3, 6, 12
// hours, a day …) so that the chart has at most maxTimelineBars bars; the
// sources with most members get a colour each, the rest one together.

const (
	maxTimelineBars    = 96
	timelineSourceKeys = 7 // sources drawn in a colour of their own
)

// timelineSteps are the widths of a bar, in hours, tried in turn.
var timelineSteps = []int{1, 2, 3, 6, 12, 24, 48, 72, 168}

type timelineView struct {
	layout
	ClusterID   int64
	Headline    string
	Chart       timelineChart
	Total       int
	First, Last time.Time
	Truncated   bool
}

type timelineChart struct {
	Label         string
	Width, Height int
	StepHours     int
	Bars          []timelineBar
	Grid          []gridLine
	Keys          []timelineKey
}

type timelineBar struct {
	From, To time.Time
	Title    string
	Total    int
	Parts    []rect
	Label    string
	LX, LY   string
	Sources  string // "xinhua 1, portal 3", for the figures
}

// timelineKey is a source's colour, with its members.
type timelineKey struct {
	Class, Source string
	Members       int
}

// timeline is GET /ui/clusters/{id}/timeline.
func (p *page) timeline(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := pathID(c)
	if err != nil {
		return err
	}
	tl, err := p.svc.Timeline(ctx, id)
	if err != nil {
		return err
	}
	l := p.localeOf(c)
	v := timelineView{layout: p.layout(c, "timeline.title", "ID", id), ClusterID: id, Truncated: tl.Truncated}
	if a, err := p.svc.FindArticle(ctx, id); err == nil {
		v.Headline = a.Title
	}
	v.Chart = l.timelineChart(tl)
	for _, k := range v.Chart.Keys {
		v.Total += k.Members
	}
	v.First, v.Last = tl.Counts[0].Hour, tl.Counts[len(tl.Counts)-1].Hour.Add(time.Hour)
	return p.render(c, http.StatusOK, "timeline", v)
}

// timelineChart lays out the counts (by hour, then source) as bars.
func (l *locale) timelineChart(tl service.Timeline) timelineChart {
	const width, height, left, right, bottom, top = 720, 220, 40, 16, 22, 8
	first, last := tl.Counts[0].Hour, tl.Counts[len(tl.Counts)-1].Hour
	hours := int(last.Sub(first)/time.Hour) + 1
	step := timelineSteps[len(timelineSteps)-1]
	for _, s := range timelineSteps {
		if (hours+s-1)/s <= maxTimelineBars {
			step = s
			break
		}
	}
	step = max(step, (hours+maxTimelineBars-1)/maxTimelineBars)
	n := (hours + step - 1) / step

	// The sources with most members get their colours; ties by name.
	bySource := map[string]int{}
	for _, c := range tl.Counts {
		bySource[c.Source] += c.Members
	}
	sources := make([]string, 0, len(bySource))
	for s := range bySource {
		sources = append(sources, s)
	}
	slices.SortFunc(sources, func(a, b string) int { return cmp.Or(bySource[b]-bySource[a], strings.Compare(a, b)) })
	class := map[string]string{}
	v := timelineChart{Width: width, Height: height, StepHours: step}
	other := 0
	for i, s := range sources {
		if i < timelineSourceKeys {
			class[s] = "src" + string(rune('0'+i))
			v.Keys = append(v.Keys, timelineKey{Class: class[s], Source: s, Members: bySource[s]})
		} else {
			other += bySource[s]
		}
	}
	if other > 0 {
		v.Keys = append(v.Keys, timelineKey{Class: "src-other", Source: l.must("timeline.other", "Count", len(sources)-timelineSourceKeys), Members: other})
	}

	// Each bar's members by key, in the keys' order.
	counts := make([][]int, n)
	perSource := make([]map[string]int, n)
	for i := range counts {
		counts[i] = make([]int, len(v.Keys))
		perSource[i] = map[string]int{}
	}
	keyOf := map[string]int{}
	for i, k := range v.Keys {
		keyOf[k.Class] = i
	}
	for _, c := range tl.Counts {
		b := int(c.Hour.Sub(first)/time.Hour) / step
		k, ok := class[c.Source]
		if !ok {
			k = "src-other"
		}
		counts[b][keyOf[k]] += c.Members
		perSource[b][c.Source] += c.Members
	}
	most := 0
	for _, cs := range counts {
		t := 0
		for _, x := range cs {
			t += x
		}
		most = max(most, t)
	}
	top100 := niceMax(most)
	plotH := float64(height - bottom - top)
	slot := float64(width-left-right) / float64(n)
	v.Label = l.must("timeline.chart", "Count", n)
	for _, y := range []int{0, top100 / 2, top100} {
		py := float64(height-bottom) - plotH*float64(y)/float64(top100)
		v.Grid = append(v.Grid, gridLine{X1: f1(left), Y1: f1(py), X2: f1(width - right), Y2: f1(py), TX: f1(left - 4), TY: f1(py + 4), Anchor: "end", Text: l.num(y)})
	}
	labelEvery := max(1, n/8)
	for i := range n {
		from := first.Add(time.Duration(i*step) * time.Hour)
		b := timelineBar{From: from, To: from.Add(time.Duration(step) * time.Hour)}
		x := float64(left) + slot*float64(i) + slot*0.1
		y := float64(height - bottom)
		for k, m := range counts[i] {
			if m == 0 {
				continue
			}
			b.Total += m
			h := plotH * float64(m) / float64(top100)
			y -= h
			b.Parts = append(b.Parts, rect{Class: v.Keys[k].Class, X: f1(x), Y: f1(y), W: f1(max(slot*0.8, 1)), H: f1(h)})
		}
		names := make([]string, 0, len(perSource[i]))
		for s := range perSource[i] {
			names = append(names, s)
		}
		slices.SortFunc(names, func(a, b string) int {
			return cmp.Or(perSource[i][b]-perSource[i][a], strings.Compare(a, b))
		})
		parts := make([]string, len(names))
		for j, s := range names {
			parts[j] = s + " " + l.num(perSource[i][s])
		}
		b.Sources = strings.Join(parts, l.must("list.sep"))
		b.Title = l.must("timeline.bar", "From", l.when(b.From), "To", l.when(b.To), "Count", b.Total, "Sources", b.Sources)
		if i%labelEvery == 0 {
			b.Label, b.LX, b.LY = b.From.In(l.zone).Format("01-02 15:04"), f1(x+slot*0.4), f1(height-6)
		}
		v.Bars = append(v.Bars, b)
	}
	return v
}
