package main

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"
)

// evaluation is everything one run measured, as the writers read it.
type evaluation struct {
	Started time.Time
	Elapsed time.Duration
	Machine machine
	Command string

	Corpus                    labelledCorpus
	Queries, Pairs, Positives int

	Simhash        []simhashResult
	Concentrations []concentration
	Recommended    recommendation
	Trgm           *trgmResult // nil when skipped
}

// machine is what the figures were measured on.
type machine struct {
	CPUs int    `json:"cpus"`
	CPU  string `json:"cpu"`
	OS   string `json:"os"`
	Go   string `json:"go"`
}

func thisMachine() machine {
	return machine{CPUs: runtime.NumCPU(), CPU: cpuModel(), OS: runtime.GOOS + "/" + runtime.GOARCH, Go: runtime.Version()}
}

// cpuModel returns the processor's name from /proc/cpuinfo, or "unknown".
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return "unknown"
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}

// recommended returns the recommended simhash method's result.
func (ev *evaluation) recommended() simhashResult { return ev.Simhash[ev.Recommended.Method] }

// shipped returns the result of the Weighted parameters the fingerprint
// package ships today, if they were evaluated.
func (ev *evaluation) shipped() (simhashResult, bool) {
	for _, r := range ev.Simhash {
		if r.Method.Algorithm == "weighted" && r.Method.isDefault() {
			return r, true
		}
	}
	return simhashResult{}, false
}

// summary is the few lines run prints at the end.
func (ev *evaluation) summary() string {
	var b strings.Builder
	rec, s := ev.recommended(), ev.Recommended.Score
	fmt.Fprintf(&b, "recommended: %s, max_distance %d, min %s %.1f (goal met: %v)\n",
		rec.Method.Name, maxK, measures[ev.Recommended.Measure], ratioAt(s.Point%ratioSteps), s.Goal())
	fmt.Fprintf(&b, "  light ≥500 runes: recall %s, precision %s; every copy ≥500: recall %s; every copy: recall %s, precision %s\n",
		f3(s.Light.Recall()), f3(s.Light.Precision()), f3(s.Long.Recall()), f3(s.All.Recall()), f3(s.All.Precision()))
	exact := rec.Tallies.at(func(k groupKey) bool { return k.Edit == editExact }, s.Point)
	fmt.Fprintf(&b, "  exact copies: recall %s (must be 1)\n", f3(exact.Recall()))
	if ev.Trgm != nil {
		t := bestTrgm(ev.Trgm.Tallies)
		fmt.Fprintf(&b, "pg_trgm at %.1f: light ≥500 recall %s, precision %s; every copy: recall %s, precision %s; lookup median %v (≥500 runes)\n",
			trgmThresholds[t.Point], f3(t.Light.Recall()), f3(t.Light.Precision()), f3(t.All.Recall()), f3(t.All.Precision()),
			median(ev.Trgm.Lookups[0].Long).Round(10*time.Microsecond))
	}
	return b.String()
}
