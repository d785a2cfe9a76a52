package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progress shows how far a long command (import, refingerprint) has come:
// done of its total, and a line saying what was done.
type progress interface {
	update(done int64, detail string)
	finish(done int64, detail string)
}

// newProgress returns a progress bar when stderr is a terminal and plain
// progress lines every app.progressInterval otherwise (a log, a pipe, CI).
// total is the work in units (bytes when bytes is set, else items), -1 when
// unknown; name says what is worked on.
func (a *app) newProgress(total int64, name string, bytes bool) progress {
	if f, ok := a.stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return &barProgress{name: name, bar: progressbar.NewOptions64(total,
			progressbar.OptionSetWriter(a.stderr),
			progressbar.OptionSetDescription(name),
			progressbar.OptionShowBytes(bytes),
			progressbar.OptionShowCount(),
			progressbar.OptionUseIECUnits(true),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionShowElapsedTimeOnFinish(),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish(),
			progressbar.OptionSetWidth(30),
		)}
	}
	return &lineProgress{w: a.stderr, name: name, total: total, every: a.progressInterval, last: time.Now(), start: time.Now()}
}

// barProgress draws github.com/schollz/progressbar.
type barProgress struct {
	name string
	bar  *progressbar.ProgressBar
}

func (p *barProgress) update(done int64, detail string) {
	p.bar.Describe(p.name + ": " + detail)
	p.bar.Set64(done)
}

func (p *barProgress) finish(done int64, _ string) {
	p.bar.Set64(done)
	p.bar.Finish()
}

// lineProgress prints a line now and then, for output that is not a
// terminal.
type lineProgress struct {
	w           io.Writer
	name        string
	total       int64
	every       time.Duration
	last, start time.Time
}

func (p *lineProgress) update(done int64, detail string) {
	if time.Since(p.last) < p.every {
		return
	}
	p.last = time.Now()
	share := ""
	if p.total > 0 {
		share = fmt.Sprintf(" (%.0f%% done)", 100*float64(done)/float64(p.total))
	}
	fmt.Fprintf(p.w, "%s: %s%s, %s elapsed\n", p.name, detail, share, time.Since(p.start).Round(time.Second))
}

func (p *lineProgress) finish(int64, string) {}
