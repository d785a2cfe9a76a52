package main

import (
	"fmt"
	"image/color"
	"math"
	"os"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// chartFile is the chart of the reposts detected, next to the report.
const chartFile = "evaluation-reposts.png"

// bandColors are one colour per length band.
var bandColors = []color.Color{
	color.RGBA{R: 0xff, G: 0x7f, B: 0x0e, A: 0xff}, // orange
	color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}, // blue
	color.RGBA{R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff}, // green
}

// writeChart draws the share of reposts detected per edit, one bar per
// band, with the goals' lines; without the corpora, a chart that says so.
func writeChart(path string, ev *evaluation) error {
	p := plot.New()
	p.Title.Text = "Reposts of real articles detected by POST /v1/check"
	p.Y.Label.Text = "share detected"
	p.Y.Min, p.Y.Max = 0, 1.05
	p.Add(plotter.NewGrid())
	if ev.News == nil {
		p.Title.Text = "No real corpora in this run: no reposts measured"
	} else {
		width := vg.Points(14)
		for b, bd := range newsBands {
			values := make(plotter.Values, len(repostEdits))
			for i, e := range repostEdits {
				v := ev.News.Service.Reposts[e][b].Value()
				if math.IsNaN(v) {
					v = 0
				}
				values[i] = v
			}
			bars, err := plotter.NewBarChart(values, width)
			if err != nil {
				return fmt.Errorf("chart: %w", err)
			}
			bars.Color = bandColors[b%len(bandColors)]
			bars.LineStyle.Width = 0
			bars.Offset = vg.Length(b-1) * width
			p.Add(bars)
			p.Legend.Add(bd.Name+" characters", bars)
		}
		for k, goal := range []float64{0.95, 0.97, 0.99} {
			line, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: goal}, {X: float64(len(repostEdits)) - 0.5, Y: goal}})
			if err != nil {
				return fmt.Errorf("chart: %w", err)
			}
			line.Color = color.Gray{Y: 0x70}
			line.Dashes = []vg.Length{vg.Points(3), vg.Points(3)}
			p.Add(line)
			if k == 0 {
				p.Legend.Add("goals: 95, 97, 99 %", line)
			}
		}
		p.NominalX(repostEdits...)
		p.Legend.Top = false
		p.Legend.Left = true
	}
	img := vgimg.New(vg.Points(1100), vg.Points(420))
	p.Draw(draw.New(img))
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
