package main

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// plotLatency draws the median in-database latency of each method against
// the table size, log–log, one line per method, to path (PNG).
func plotLatency(r *Results, path string) error {
	p := plot.New()
	p.Title.Text = "Candidate lookup: median time in the database"
	p.X.Label.Text = "rows in the table"
	p.Y.Label.Text = "ms (median, EXPLAIN ANALYZE)"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
	p.Legend.Top = true
	p.Legend.Left = true
	p.Add(plotter.NewGrid())

	lines := []struct {
		method, label string
		color         color.RGBA
		shape         draw.GlyphDrawer
	}{
		{methodScan, "full scan (query mix)", color.RGBA{R: 200, G: 40, B: 40, A: 255}, draw.CircleGlyph{}},
		{methodFamilyA, "family A alone (query mix)", color.RGBA{R: 230, G: 140, B: 0, A: 255}, draw.TriangleGlyph{}},
		{methodBoth, "both families, the service's query (query mix)", color.RGBA{R: 30, G: 90, B: 200, A: 255}, draw.SquareGlyph{}},
		{methodTrgm, "pg_trgm on the text (reposts)", color.RGBA{R: 120, G: 60, B: 160, A: 255}, draw.CrossGlyph{}},
	}
	for _, l := range lines {
		var xys plotter.XYs
		for _, t := range r.Tiers {
			if m := t.method(l.method); m != nil && m.DBMS.Median > 0 {
				xys = append(xys, plotter.XY{X: float64(t.N), Y: m.DBMS.Median})
			}
		}
		if len(xys) == 0 {
			continue
		}
		line, points, err := plotter.NewLinePoints(xys)
		if err != nil {
			return fmt.Errorf("plot %s: %w", l.method, err)
		}
		line.Color, points.Color, points.Shape = l.color, l.color, l.shape
		line.Width, points.Radius = vg.Points(1.5), vg.Points(3)
		p.Add(line, points)
		p.Legend.Add(l.label, line, points)
	}
	var xys plotter.XYs
	for _, t := range r.Tiers {
		if m := t.unrelated(methodBoth); m != nil && m.DBMS.Median > 0 {
			xys = append(xys, plotter.XY{X: float64(t.N), Y: m.DBMS.Median})
		}
	}
	if len(xys) > 0 {
		line, points, err := plotter.NewLinePoints(xys)
		if err != nil {
			return err
		}
		blue := color.RGBA{R: 30, G: 90, B: 200, A: 255}
		line.Color, points.Color, points.Shape = blue, blue, draw.RingGlyph{}
		line.Width, line.Dashes, points.Radius = vg.Points(1.5), []vg.Length{vg.Points(5), vg.Points(3)}, vg.Points(3)
		p.Add(line, points)
		p.Legend.Add("both families, unrelated queries (match nothing)", line, points)
	}
	if c := r.ColumnType; c != nil && c.BigintLook.DBMS.Median > 0 {
		pts, err := plotter.NewScatter(plotter.XYs{{X: float64(c.N), Y: c.BigintLook.DBMS.Median}})
		if err != nil {
			return err
		}
		pts.Color, pts.Shape, pts.Radius = color.RGBA{G: 140, B: 90, A: 255}, draw.PlusGlyph{}, vg.Points(4)
		p.Add(pts)
		p.Legend.Add("both families, bigint masked columns (query mix)", pts)
	}
	// Room above the lines for the legend, and beside the end points.
	p.Y.Max *= 100
	p.X.Min, p.X.Max = p.X.Min/1.5, p.X.Max*1.5
	return p.Save(7*vg.Inch, 4.5*vg.Inch, path)
}
