package main

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// The top of the report: how it was run, the summary and the goals.

func writeHeader(w io.Writer, ev *evaluation) {
	m := ev.Machine
	fmt.Fprintf(w, "# Evaluation of duplicate detection on real news\n\n")
	fmt.Fprintf(w, "Regenerate with (from the repository's root; `CORPORA=DIR` points at the corpora when they are elsewhere):\n\n```sh\n%s\n```\n\n", ev.Command)
	fmt.Fprintf(w, "This file, [evaluation.json](evaluation.json) (every count) and [%s](%s) are written by `tools/cmd/dedupeval`: change the program, not them. ", chartFile, chartFile)
	fmt.Fprintf(w, "Measured on %s on a machine with **%d cores** (%s, %s, %s", ev.Started.Format(time.DateOnly), m.CPUs, m.CPU, m.OS, m.Go)
	if ev.Postgres != "" {
		fmt.Fprintf(w, ", PostgreSQL %s", ev.Postgres)
	}
	fmt.Fprintf(w, "); the whole run took %v. Every figure but the timings is the same on every run: the reposts and samples come from fixed seeds, and the articles go in in a fixed order.\n\n", ev.Elapsed.Round(time.Second))
	if n := ev.News; n != nil {
		counts := corpusCounts(n.Articles)
		fmt.Fprintf(w, "**Corpora**: present in `%s` — %d Sina and %d CCTV articles. ", ev.CorporaDir, counts[corpusSina], counts[corpusCCTV])
		fmt.Fprintf(w, "They are third parties' text: read at run time, never copied here; the examples below quote headlines only.\n\n")
	} else {
		fmt.Fprintf(w, "**Corpora: MISSING** (%s). This run measured the 围城 regression check alone; every real-news figure and goal is left out. Run it where `../shared/corpora` (or `-corpora`) holds them.\n\n", ev.CorporaMissing)
	}
}

func corpusCounts(articles []newsArticle) map[string]int {
	out := make(map[string]int)
	for i := range articles {
		out[articles[i].Corpus]++
	}
	return out
}

// countMet counts the goals met and measured, for one issue (0: both).
func countMet(rows []goalRow, issue int) (met, measured int) {
	for _, r := range rows {
		if issue != 0 && r.Issue != issue || r.Met == nil {
			continue
		}
		measured++
		if *r.Met {
			met++
		}
	}
	return met, measured
}

func writeSummary(w io.Writer, ev *evaluation) {
	fmt.Fprintf(w, "## In short\n\n")
	m9, n9 := countMet(ev.Goals, 9)
	m10, n10 := countMet(ev.Goals, 10)
	fmt.Fprintf(w, "- **Goals**: issue 9 (articles) %d of %d met, issue 10 (sentences) %d of %d met", m9, n9, m10, n10)
	if m33, n33 := countMet(ev.Goals, 33); n33 > 0 {
		fmt.Fprintf(w, ", issue 33 (digests) %d of %d met", m33, n33)
	}
	fmt.Fprintf(w, " (table below).")
	if n := ev.News; n != nil && !n.Features.PartialStatus {
		fmt.Fprintf(w, " The server measured does not yet answer `partial_duplicate` or serve the shared-sentences route: issue 10's figures are what the article-level verdict gives without them, and the sentence audit is not measured.")
	}
	fmt.Fprintln(w)
	if n := ev.News; n != nil {
		f := &n.Service
		fmt.Fprintf(w, "- **Natural pairs** (nearly all Sina's) linked by the service: identical bodies under other headlines %s, near-identical (5-gram Jaccard ≥ 0.8) %s, natural partial copies %s.\n",
			f.IdenticalOtherTitle, f.NearIdentical, f.Partial)
		c := n.Precise.All
		fmt.Fprintf(w, "- **Precision**: of the %d links the service made while storing the corpora, the %d between bodies of 80 characters or more include %d (%s) between bodies sharing less than 30 %% of their 5-grams. ",
			c.Flags, f.FalseFlags.Of, f.FalseFlags.Hit, pct(f.FalseFlags.Value()))
		if c.Stub > 0 {
			fmt.Fprintf(w, "The other %d join pages whose scraped body is only a slogan or a link line, linked to each other. ", c.Stub)
		}
		if c.UnrelatedCore > 0 {
			fmt.Fprintf(w, "With boilerplate 5-grams left out, %d links (%d of those and %d others) join bodies that share nothing worth a link (section 2).", c.UnrelatedCore, c.StubCore, c.UnrelatedCore-c.StubCore)
		}
		fmt.Fprintln(w)
		fmt.Fprintf(w, "- **Reposts** detected, bands of 300 characters and more (worst band): %s.\n", repostSummary(n))
		if t := n.Digests.total(); t.Digests > 0 {
			fmt.Fprintf(w, "- **Digests** of 3, 5 and 10 stored stories: of %d, %d judged partial duplicates of one of their stories, %d near duplicates, %d unique (section 3b).\n",
				t.Digests, t.PartialOfStory, t.Near, t.Unique)
		}
		fmt.Fprintf(w, "- **Candidate load**: %s of unrelated pairs are within 3 bits with the shipped fingerprint.\n", pctFine(f.Load.Value()))
		if n.Sentence.Skipped == "" {
			fmt.Fprintf(w, "- **Sentence links** a reader would reject: %s.\n", n.Sentence.rejectedRate())
		} else {
			fmt.Fprintf(w, "- **Sentence audit**: not measured — %s.\n", n.Sentence.Skipped)
		}
		fmt.Fprintf(w, "- **Parameters**: %s\n", choiceSentence(n))
	}
	fmt.Fprintf(w, "- **围城 regression**: %s.\n\n", ev.Novel.goal().Figure)
}

// repostSummary lists the worst-band detection of each edit from 300
// characters up.
func repostSummary(n *newsEvaluation) string {
	var parts []string
	for _, e := range repostEdits {
		v, _ := worstFrom(e, 1)(&n.Service)
		parts = append(parts, fmt.Sprintf("%s %s", e, f3(v)))
	}
	return strings.Join(parts, ", ")
}

func writeGoals(w io.Writer, ev *evaluation) {
	fmt.Fprintf(w, "## Goals\n\n")
	fmt.Fprintf(w, "Each goal with its figure from this run: the service end to end, but for the candidate load (computed offline over every pair with the service's fingerprint) and version 2's side of the 围城 check (fingerprint level, version 2's whole decision; version 3's side is the service's verdicts). “Every band from 300 up” goals show the worst of the 300–1000 and ≥1000 bands.\n\n")
	t := newTable("issue", "goal", "target", "figure", "verdict").leftAligned(5)
	for _, r := range ev.Goals {
		t.add(fmt.Sprint(r.Issue), r.What, r.Target, r.Figure, metText(r.Met))
	}
	t.write(w)
}
