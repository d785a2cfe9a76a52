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
	Started  time.Time
	Elapsed  time.Duration
	Machine  machine
	Command  string
	Postgres string // the server's version; "" when no database was used

	// CorporaDir is where the corpora were looked for; News is nil when
	// they were missing (CorporaMissing says what was).
	CorporaDir     string
	CorporaMissing string
	News           *newsEvaluation

	Novel novelResult
	Goals []goalRow
}

// newsEvaluation is the evaluation on the real corpora.
type newsEvaluation struct {
	Articles []newsArticle `json:"-"`
	// Evasion is the evasion section (evasion.go): detected of N by variant.
	Evasion []evasionRow `json:",omitempty"`
	// Credit is the credit section (credit.go): detected of N by variant.
	Credit []creditRow `json:",omitempty"`
	Set    *newsSet    `json:"-"`
	// Features are the parts of the coming contract the server has.
	Features features
	Ingest   ingestSummary
	Natural  naturalResult
	Precise  precisionResult
	Reposts  repostResults
	Digests  digestResults
	Sentence sentenceAudit
	Kept     keptResult
	Sweep    sweepResult
	// Service is the figures of the service end to end (the load from the
	// shipped fingerprint offline).
	Service figures
}

// features says which parts of the coming contract the server offers.
type features struct {
	PartialStatus   bool `json:"partial_duplicate"`
	SharedSentences bool `json:"shared_sentences_route"`
	Coverage        bool `json:"coverage"` // some link carried coverage
	Original        bool `json:"original"` // GET /v1/clusters/{id} names the original
}

// ingestSummary is what storing the corpora gave.
type ingestSummary struct {
	Seconds float64 `json:"seconds"`
	// PerCorpus counts the verdicts of each corpus by status, "error" for
	// the articles the service refused.
	PerCorpus map[string]map[string]int `json:"verdicts"`
	// Refusals counts the service's reasons for refusing articles.
	Refusals map[string]int `json:"refusals"`
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

// goals evaluates every goal: the figures' on the service's figures, the
// sentence audit's and the novel's.
func (ev *evaluation) goals() []goalRow {
	var rows []goalRow
	if n := ev.News; n != nil {
		for _, g := range figureGoals {
			if g.Issue == 9 {
				rows = append(rows, rowOf(g, &n.Service))
			}
		}
	}
	rows = append(rows, ev.Novel.goal())
	if n := ev.News; n != nil {
		for _, g := range figureGoals {
			if g.Issue == 10 {
				rows = append(rows, rowOf(g, &n.Service))
			}
		}
		rows = append(rows, n.Sentence.goal())
		rows = append(rows, n.Digests.goals()...)
		rows = append(rows, n.Kept.goals()...)
	}
	return rows
}

// goal is issue 10's: sentence links a reader would reject ≤ 1 %.
func (a sentenceAudit) goal() goalRow {
	row := goalRow{Issue: 10, What: "sentence links a reader would reject", Target: "≤ 1 %"}
	if a.Skipped != "" {
		row.Figure = "not measured: " + a.Skipped
		return row
	}
	r := a.rejectedRate()
	row.Figure = fmt.Sprintf("%s (%d of %d sampled)", pct(r.Value()), r.Hit, r.Of)
	met := r.Value() <= 0.01
	row.Met = &met
	return row
}
