package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progress shows how far an import has come.
type progress interface {
	update(s *importStats)
	finish(s *importStats)
}

// newProgress returns a progress bar when stderr is a terminal and plain
// progress lines every app.progressInterval otherwise (a log, a pipe, CI).
// size is the input's size in bytes, -1 when unknown.
func (a *app) newProgress(size int64, name string) progress {
	if f, ok := a.stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return &barProgress{bar: progressbar.NewOptions64(size,
			progressbar.OptionSetWriter(a.stderr),
			progressbar.OptionSetDescription("import: "+name),
			progressbar.OptionShowBytes(true),
			progressbar.OptionUseIECUnits(true),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionShowElapsedTimeOnFinish(),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish(),
			progressbar.OptionSetWidth(30),
		)}
	}
	return &lineProgress{w: a.stderr, size: size, every: a.progressInterval, last: time.Now()}
}

// barProgress draws github.com/schollz/progressbar over the bytes read.
type barProgress struct {
	bar *progressbar.ProgressBar
}

func (p *barProgress) update(s *importStats) {
	p.bar.Describe(fmt.Sprintf("import: %d read, %d stored", s.articles, s.created))
	p.bar.Set64(s.bytesDone)
}

func (p *barProgress) finish(s *importStats) {
	p.bar.Set64(s.bytesDone)
	p.bar.Finish()
}

// lineProgress prints a line now and then, for output that is not a
// terminal.
type lineProgress struct {
	w     io.Writer
	size  int64
	every time.Duration
	last  time.Time
}

func (p *lineProgress) update(s *importStats) {
	if time.Since(p.last) < p.every {
		return
	}
	p.last = time.Now()
	p.print(s)
}

func (p *lineProgress) finish(*importStats) {}

func (p *lineProgress) print(s *importStats) {
	elapsed := time.Since(s.start)
	rate := float64(s.processed) / max(elapsed.Seconds(), 1e-9)
	done := ""
	if p.size > 0 {
		done = fmt.Sprintf(" (%.0f%% of the input done)", 100*float64(s.bytesDone)/float64(p.size))
	}
	fmt.Fprintf(p.w, "import: %d lines read%s, %d articles processed, %d stored, %d invalid, %.1f articles/s, %s elapsed\n",
		s.articles, done, s.processed, s.created, s.invalid, rate, elapsed.Round(time.Second))
}
