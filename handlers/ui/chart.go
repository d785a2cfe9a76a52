package ui

import (
	"net/url"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/newsdedup/newsdedup/service"
)

// The overview's charts, drawn on the server as SVG (the page runs no
// script): the duplicates of each of the last days, and of the sources
// that copy most, each bar stacked by verdict and a link to the clusters
// it counts. The geometry is computed here; the template only writes it.

// chartView is one chart.
type chartView struct {
	Kind          string // "days" or "sources", the SVG's class
	Label         string // what it shows, for a screen reader
	KeyName       string // the heading of the figures' first column
	Width, Height int
	Bars          []barView
	Grid          []gridLine
}

// barView is one bar: its figures, its parts stacked from the bottom (or
// the left), its label.
type barView struct {
	Key                         string // the day (2026-11-05) or the source
	URL                         string
	Title                       string
	Near, Exact, Partial, Total int
	Parts                       []rect
	Label                       string
	LX, LY                      string
	Anchor                      string
}

type rect struct {
	Class      string
	X, Y, W, H string
}

type gridLine struct {
	X1, Y1, X2, Y2 string
	TX, TY         string
	Anchor         string
	Text           string
}

func f1(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) }

// niceMax rounds n up to 1, 2 or 5 times a power of ten, so that the grid
// lines fall on round numbers.
func niceMax(n int) int {
	if n <= 0 {
		return 1
	}
	for p := 1; ; p *= 10 {
		for _, m := range []int{1, 2, 5} {
			if m*p >= n {
				return m * p
			}
		}
	}
}

// stacked are a bar's verdicts, in the order they are stacked.
func stacked(c service.DuplicateCounts) []struct {
	class string
	n     int
} {
	return []struct {
		class string
		n     int
	}{{"exact", c.Exact}, {"near", c.Near}, {"partial", c.Partial}}
}

func (l *locale) barTitle(key string, c service.DuplicateCounts) string {
	return l.must("chart.bar", "Key", key, "Near", l.num(c.Near), "Exact", l.num(c.Exact), "Partial", l.num(c.Partial), "Total", l.num(c.Total()))
}

// dayChart draws the duplicates of each day, oldest left.
func (l *locale) dayChart(days []service.DayCount) chartView {
	const width, height, left, right, bottom, top = 720, 200, 40, 16, 22, 8
	v := chartView{Kind: "days", Label: l.must("chart.days.title", "Count", len(days)), KeyName: l.must("chart.day"), Width: width, Height: height}
	most := 0
	for _, d := range days {
		most = max(most, d.Total())
	}
	top100 := niceMax(most)
	plotH := float64(height - bottom - top)
	slot := float64(width-left-right) / float64(max(len(days), 1)) // right: room for the last day's label
	for _, y := range []int{0, top100 / 2, top100} {
		py := float64(height-bottom) - plotH*float64(y)/float64(top100)
		v.Grid = append(v.Grid, gridLine{X1: f1(left), Y1: f1(py), X2: f1(width - right), Y2: f1(py), TX: f1(left - 4), TY: f1(py + 4), Anchor: "end", Text: l.num(y)})
	}
	for i, d := range days {
		key := d.Day.Format(time.DateOnly)
		b := barView{Key: key, URL: "/ui/?" + url.Values{"from": {key}, "to": {key}}.Encode(), Title: l.barTitle(key, d.DuplicateCounts),
			Near: d.Near, Exact: d.Exact, Partial: d.Partial, Total: d.Total()}
		x := float64(left) + slot*float64(i) + slot*0.1
		y := float64(height - bottom)
		for _, s := range stacked(d.DuplicateCounts) {
			if s.n == 0 {
				continue
			}
			h := plotH * float64(s.n) / float64(top100)
			y -= h
			b.Parts = append(b.Parts, rect{Class: s.class, X: f1(x), Y: f1(y), W: f1(slot * 0.8), H: f1(h)})
		}
		if i%5 == (len(days)-1)%5 {
			b.Label, b.LX, b.LY, b.Anchor = d.Day.Format("01-02"), f1(x+slot*0.4), f1(height-6), "middle"
		}
		v.Bars = append(v.Bars, b)
	}
	return v
}

// sourceChart draws the duplicates of each source, most first, top down.
func (l *locale) sourceChart(sources []service.SourceCount, days int) chartView {
	const width, left, right, row = 720, 150, 50, 22
	height := max(len(sources), 1)*row + 8
	v := chartView{Kind: "sources", Label: l.must("chart.sources.title", "Count", days), KeyName: l.must("col.source"), Width: width, Height: height}
	most := 0
	for _, s := range sources {
		most = max(most, s.Total())
	}
	top100 := niceMax(most)
	plotW := float64(width - left - right)
	for i, s := range sources {
		b := barView{Key: s.Source, URL: "/ui/?" + url.Values{"source": {s.Source}}.Encode(), Title: l.barTitle(s.Source, s.DuplicateCounts),
			Near: s.Near, Exact: s.Exact, Partial: s.Partial, Total: s.Total()}
		y := float64(4 + i*row)
		x := float64(left)
		for _, part := range stacked(s.DuplicateCounts) {
			if part.n == 0 {
				continue
			}
			w := plotW * float64(part.n) / float64(top100)
			b.Parts = append(b.Parts, rect{Class: part.class, X: f1(x), Y: f1(y), W: f1(w), H: f1(row - 6)})
			x += w
		}
		b.Label, b.LX, b.LY, b.Anchor = shorten(s.Source, 18), f1(left-6), f1(y+row/2+1), "end"
		v.Grid = append(v.Grid, gridLine{X1: f1(x), Y1: f1(y), X2: f1(x), Y2: f1(y), TX: f1(x + 4), TY: f1(y + row/2 + 1), Anchor: "start", Text: l.num(s.Total())})
		v.Bars = append(v.Bars, b)
	}
	return v
}

// shorten cuts s to n characters, with an ellipsis.
func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

// overviewView is the day at a glance as the list shows it.
type overviewView struct {
	Periods  []periodView
	Days     chartView
	Sources  chartView
	DayCount int
}

type periodView struct {
	ID, Name string
	service.Period
}

func (l *locale) overviewView(o service.Overview) *overviewView {
	v := &overviewView{Days: l.dayChart(o.Days), Sources: l.sourceChart(o.Sources, len(o.Days)), DayCount: len(o.Days)}
	for _, p := range []struct {
		id, name string
		p        service.Period
	}{{"today", l.must("overview.today"), o.Today}, {"last24h", l.must("overview.last24h"), o.Last24h}} {
		v.Periods = append(v.Periods, periodView{ID: p.id, Name: p.name, Period: p.p})
	}
	return v
}
