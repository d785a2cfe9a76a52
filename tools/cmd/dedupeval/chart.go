package main

import (
	"fmt"
	"image/color"
	"math"
	"os"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// chartFile is the precision–recall chart's file name, next to the report.
const chartFile = "evaluation-pr.png"

// chartMinPrecision is the bottom of the chart: the points that matter have
// a precision near 1, and the low thresholds' points below it would squash
// them into a line.
const chartMinPrecision = 0.9

// palette holds clearly different colours, one per curve.
var palette = []color.Color{
	color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff}, // red
	color.RGBA{R: 0xff, G: 0x7f, B: 0x0e, A: 0xff}, // orange
	color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}, // blue
	color.RGBA{R: 0x94, G: 0x67, B: 0xbd, A: 0xff}, // purple
	color.RGBA{R: 0x8c, G: 0x56, B: 0x4b, A: 0xff}, // brown
	color.RGBA{R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff}, // green
}

// curve is one method's precision–recall points as its threshold moves.
type curve struct {
	Name   string
	Points func(keep func(groupKey) bool) plotter.XYs
}

// chartCurves are the methods drawn: the recommended one with both word
// measures, the shipped default, classic simhash (exponent 1), yanyiwu's
// default, and pg_trgm.
func chartCurves(ev *evaluation) []curve {
	simhash := func(r simhashResult, measure int) func(func(groupKey) bool) plotter.XYs {
		return func(keep func(groupKey) bool) plotter.XYs {
			var xys plotter.XYs
			for ri := range ratioSteps {
				xys = appendPoint(xys, r.Tallies.at(keep, simPoint(measure, maxK, ri)))
			}
			return xys
		}
	}
	rec := ev.recommended()
	out := []curve{
		{"recommended: " + rec.Method.Name + ", ratio", simhash(rec, measureRatio)},
		{"recommended: " + rec.Method.Name + ", jaccard", simhash(rec, measureJaccard)},
	}
	for _, r := range ev.Simhash {
		switch {
		case r.Method.Name == rec.Method.Name:
		case r.Method.Algorithm == "weighted" && r.Method.isDefault():
			out = append(out, curve{"shipped: " + r.Method.Name + ", ratio", simhash(r, measureRatio)})
		case r.Method.Algorithm == "weighted" && r.Method.Exponent == 1 && r.Method.TopN == 0 && r.Method.Title == 1:
			out = append(out, curve{r.Method.Name + " (classic simhash), ratio", simhash(r, measureRatio)})
		case r.Method.Algorithm == "yanyiwu" && r.Method.isDefault():
			out = append(out, curve{r.Method.Name + ", ratio", simhash(r, measureRatio)})
		}
	}
	if ev.Trgm != nil {
		ts := ev.Trgm.Tallies
		out = append(out, curve{"pg_trgm similarity 0.1-0.9", func(keep func(groupKey) bool) plotter.XYs {
			var xys plotter.XYs
			for i := range trgmThresholds {
				xys = appendPoint(xys, ts.at(keep, i))
			}
			return xys
		}})
	}
	return out
}

// appendPoint adds (recall, precision) unless either is undefined.
func appendPoint(xys plotter.XYs, c confusion) plotter.XYs {
	r, p := c.Recall(), c.Precision()
	if math.IsNaN(r) || math.IsNaN(p) {
		return xys
	}
	return append(xys, plotter.XY{X: r, Y: p})
}

// writeChart draws precision against recall, at max_distance 3 with
// min_word_ratio from 0 to 1 (and pg_trgm's thresholds), for every copy but
// the exact ones: long articles on the left, short ones on the right.
func writeChart(path string, ev *evaluation) error {
	panels := []struct {
		title string
		keep  func(groupKey) bool
	}{
		{"Copies of 500 runes or more", longCopies},
		{"Copies under 500 runes", func(k groupKey) bool { return !bands[k.Band].Long && k.Edit != editExact }},
	}
	curves := chartCurves(ev)
	row := make([]*plot.Plot, len(panels))
	for i, pn := range panels {
		p := plot.New()
		p.Title.Text = pn.title + " (max_distance 3, min_word_ratio 0 to 1)"
		p.X.Label.Text = "recall"
		p.Y.Label.Text = "precision"
		p.Add(plotter.NewGrid())
		for j, c := range curves {
			xys := c.Points(pn.keep)
			if len(xys) == 0 {
				continue
			}
			line, points, err := plotter.NewLinePoints(xys)
			if err != nil {
				return fmt.Errorf("chart: %w", err)
			}
			line.Color = palette[j%len(palette)]
			line.Width = vg.Points(1.5)
			line.Dashes = plotutil.Dashes(j)
			points.Color = palette[j%len(palette)]
			points.Shape = plotutil.Shape(j)
			p.Add(line, points)
			if i == 0 {
				p.Legend.Add(c.Name, line, points)
			}
		}
		// After the data: Add widens the axes to fit it.
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 1, chartMinPrecision, 1.005
		p.Legend.Top = false
		p.Legend.Left = true
		row[i] = p
	}
	img := vgimg.New(vg.Points(1200), vg.Points(520))
	dc := draw.New(img)
	tiles := draw.Tiles{Rows: 1, Cols: len(panels), PadX: vg.Points(16), PadLeft: vg.Points(8), PadRight: vg.Points(8), PadTop: vg.Points(8), PadBottom: vg.Points(8)}
	canvases := plot.Align([][]*plot.Plot{row}, tiles, dc)
	for i, p := range row {
		p.Draw(canvases[0][i])
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(f); err != nil {
		f.Close()
		return fmt.Errorf("chart: %w", err)
	}
	return f.Close()
}
