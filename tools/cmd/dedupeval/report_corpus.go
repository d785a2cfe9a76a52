package main

import (
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"
)

// writeHeader writes the title, the command and where it was measured.
func writeHeader(w io.Writer, ev *evaluation) {
	m := ev.Machine
	fmt.Fprintf(w, "# Evaluation of near-duplicate detection\n\n")
	fmt.Fprintf(w, "Regenerate with:\n\n```sh\n%s\n```\n\n", ev.Command)
	fmt.Fprintf(w, "This file, [evaluation.json](evaluation.json) (every count) and [evaluation-pr.png](%s) are written by `cmd/dedupeval`: change the program, not them. ", chartFile)
	fmt.Fprintf(w, "Measured on %s on a machine with **%d cores** (%s, %s, %s", ev.Started.Format(time.DateOnly), m.CPUs, m.CPU, m.OS, m.Go)
	if ev.Trgm != nil {
		fmt.Fprintf(w, ", PostgreSQL %s", ev.Trgm.Server)
	}
	fmt.Fprintf(w, "); the whole run took %v. Every figure but the timings is the same on every run: the corpus and its edits come from fixed seeds.\n\n", ev.Elapsed.Round(time.Second))
}

// writeCorpus describes the labelled corpus and its counts.
func writeCorpus(w io.Writer, ev *evaluation) {
	fmt.Fprintf(w, "## The labelled corpus\n\n")
	fmt.Fprintf(w, "Real news is copyrighted and cannot ship with the code, so the corpus is cut, by code, from the novel 围城 (the copy in gojieba's module) with `internal/corpus`. ")
	fmt.Fprintf(w, "Only its first %d runes (%d of %d sentences) are used: the file then repeats about 31,000 characters of the text before it (see Limits).\n\n", ev.Corpus.UniqueRunes, ev.Corpus.UniqueSentences, ev.Corpus.Sentences)
	fmt.Fprintf(w, "- **Originals**: articles cut at sentence boundaries by `corpus.Originals`, titled with a clause of their first sentence, in four length bands (body runes). ")
	fmt.Fprintf(w, "The novel is split into four consecutive parts, one per band (short texts from the opening, long ones from the rest), and each part is cut into articles side by side: no two originals share a sentence. ")
	fmt.Fprintf(w, "The bands' shares of the novel give each band a useful count while most of the text goes to articles of 500 runes or more, the service's main case.\n")
	fmt.Fprintf(w, "- **Copies**: of every original, an exact copy (identical text: a sanity row that must be found at every setting) and one copy per edit of `corpus.AllEdits`:\n")
	for _, e := range copyEdits()[1:] {
		fmt.Fprintf(w, "  - `%s`: %s\n", e, editDescriptions[e])
	}
	fmt.Fprintf(w, "- **Negatives**: every other original. They are passages of one novel, so they share its characters' names (方鸿渐, 辛楣, 孙小姐, 柔嘉), its places and its author's vocabulary, and neighbouring originals are consecutive passages of one scene. ")
	fmt.Fprintf(w, "Unrelated articles are therefore more alike here than in a news feed: this is a *harder* test of precision than unrelated news (closer to many articles about the same person in one week).\n\n")

	t := newTable("band (body runes)", "originals", "body runes: mean (shortest–longest)", "copies", "counts towards ≥500")
	for b, bd := range bands {
		n, total, lo, hi := 0, 0, 0, 0
		for _, o := range ev.Corpus.Originals {
			if o.Band != b {
				continue
			}
			r := utf8.RuneCountInString(o.Body)
			if n == 0 || r < lo {
				lo = r
			}
			hi = max(hi, r)
			total += r
			n++
		}
		mean := "–"
		if n > 0 {
			mean = fmt.Sprintf("%d (%d–%d)", total/n, lo, hi)
		}
		yes := "no"
		if bd.Long {
			yes = "yes"
		}
		copiesIn := 0
		for _, cp := range ev.Corpus.Copies {
			if ev.Corpus.Originals[cp.Of].Band == b {
				copiesIn++
			}
		}
		t.add(bd.Name, fmt.Sprint(n), mean, fmt.Sprint(copiesIn), yes)
	}
	t.add("**all**", fmt.Sprint(len(ev.Corpus.Originals)), "", fmt.Sprint(len(ev.Corpus.Copies)), "")
	t.write(w)
	var left []string
	for _, e := range copyEdits() {
		if k := ev.Corpus.Unapplied[e]; k > 0 {
			left = append(left, fmt.Sprintf("%d `%s`", k, e))
		}
	}
	if len(left) > 0 {
		fmt.Fprintf(w, "Copies whose edit cannot apply — to an original of a single paragraph or sentence, as many short ones are, `Apply` returns it unchanged — are left out, since they would be exact copies under another name: %s. ", strings.Join(left, ", "))
	}
	fmt.Fprintf(w, "That makes %d queries (%d copies and the %d originals), %d stored originals and %d (query, stored) pairs, of which %d are duplicates.\n\n",
		ev.Queries, len(ev.Corpus.Copies), len(ev.Corpus.Originals), len(ev.Corpus.Originals), ev.Pairs, ev.Positives)
}

// editDescriptions say what each edit does, as internal/corpus documents it.
var editDescriptions = map[string]string{
	"light":            "a plain repost: a byline line on top (agency, city, date, reporter), an editor's line at the bottom, full-width punctuation swapped for half-width",
	"sentence_dropped": "one sentence removed",
	"sentence_added":   "one sentence from elsewhere in the novel inserted",
	"paragraph_moved":  "one paragraph moved to another position",
	"rewritten":        "about 20 % of the body (whole sentences) replaced by sentences of similar length from elsewhere in the novel",
	"boilerplate":      "a newsroom header and footer of 100–300 runes (copyright notices, “follow us”, source lines)",
	"headline_changed": "another title (another clause of the body), the body unchanged",
}

// writeMethod says how pairs are formed, predicted and counted.
func writeMethod(w io.Writer, ev *evaluation) {
	fmt.Fprintf(w, "## Method\n\n")
	fmt.Fprintf(w, "The evaluation is retrieval, as the service works: every original is stored, and every query is compared with every stored original — a copy with all of them (its own original included), an original with all the others. ")
	fmt.Fprintf(w, "A pair is a **duplicate** exactly when the stored article is the one the query was made from; every pair is counted once.\n\n")
	fmt.Fprintf(w, "- **Simhash methods** predict a near duplicate, as the service's verdict does, when the Hamming distance is ≤ `max_distance` k and the word measure is ≥ `min_word_ratio` r, ")
	fmt.Fprintf(w, "for every k in 0–3 and r in 0, 0.1, …, 1 (r = 0: distance alone). The word measure is the service's shared-word ratio |A∩B| / min(|A|, |B|) over the fingerprints' word sets, and, as the alternative design §5 names, Jaccard |A∩B| / |A∪B|.\n")
	fmt.Fprintf(w, "- **Methods**: `Weighted` (the project's algorithm) with Exponent ∈ {1, 1.5, 2, 3}, TopN ∈ {all, 64}, TitleWeight ∈ {1, 2}; `Yanyiwu` (bit-compatible with yanyiwu/simhash) with top N ∈ {5, 20, 50, 100}; ")
	fmt.Fprintf(w, "and the baseline a team would try instead, PostgreSQL `pg_trgm`: `similarity(query.body, stored.body) ≥ t` for t in 0.1–0.9, computed by the database (see below).\n")
	fmt.Fprintf(w, "- **Precision** TP / (TP + FP), **recall** TP / (TP + FN) and **F1** are computed over all pairs of a group of queries, grouped by the original's length band and the edit. ")
	fmt.Fprintf(w, "“≥500” means the two bands of 500 runes or more; “copies” means every edit but the exact copy (whose recall is 1 by construction), with the originals' pairs against each other counted as further negatives. ")
	fmt.Fprintf(w, "A precision shown as “–” means nothing was predicted.\n")
	fmt.Fprintf(w, "- **Candidate load**: the block index returns every stored fingerprint within distance 3 of the query (the pigeonhole argument of design §3) and nothing else that passes the distance check, so the share of negative pairs within distance 3 is the share of the window each lookup fetches only for the word measure to reject. It costs time, not quality.\n")
	fmt.Fprintf(w, "- **The choice** is made by a rule in code (`choose.go`), at max_distance 3: first the goal — light reposts of ≥500 runes with recall ≥ %.2f at precision ≥ %.2f, with precision ≥ %.2f also over all copies ≥500 and over all copies of every length; ", goalRecall, goalPrecision, goalPrecision)
	fmt.Fprintf(w, "then, among the settings that meet it, the best F1 over every copy of every length (the service stores short articles too), then over copies ≥500, then the lighter candidate load. The service's own measure is tried before Jaccard, so Jaccard wins only by doing strictly better.\n\n")
}
