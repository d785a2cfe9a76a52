package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// The tables of the evaluation on real news.

func writeCorpora(w io.Writer, n *newsEvaluation) {
	fmt.Fprintf(w, "## The corpora\n\n")
	t := newTable("corpus", "articles", "<80", "80–300", "300–1000", "≥1000", "headline fits body", "stored as unique", "near", "exact", "partial", "refused")
	byCorpus := make(map[string][]int)
	for i := range n.Articles {
		byCorpus[n.Articles[i].Corpus] = append(byCorpus[n.Articles[i].Corpus], i)
	}
	for _, name := range corpusNames {
		idx := byCorpus[name]
		bands := make([]int, len(newsBands)+1)
		fits := 0
		for _, i := range idx {
			bands[bandOf(n.Articles[i].Chars)+1]++
			if n.Articles[i].TitleFits {
				fits++
			}
		}
		status := n.Ingest.byCorpus(name)
		t.add(name, fmt.Sprint(len(idx)), fmt.Sprint(bands[0]), fmt.Sprint(bands[1]), fmt.Sprint(bands[2]), fmt.Sprint(bands[3]), fmt.Sprint(fits),
			fmt.Sprint(status[statusUnique]), fmt.Sprint(status[statusNear]), fmt.Sprint(status[statusExact]), fmt.Sprint(status[statusPartial]), fmt.Sprint(status["error"]))
	}
	t.write(w)
	var refusals []string
	for _, msg := range sortedKeys(n.Ingest.Refusals) {
		refusals = append(refusals, fmt.Sprintf("%d × “%s”", n.Ingest.Refusals[msg], msg))
	}
	if len(refusals) > 0 {
		fmt.Fprintf(w, "The service refused some articles, as it should: %s.\n\n", strings.Join(refusals, "; "))
	}
	fmt.Fprintf(w, "Storing them took %.0f s (%.0f articles/s through the batch route, on a machine shared with other work).\n\n", n.Ingest.Seconds, float64(len(n.Articles))/n.Ingest.Seconds)
}

// byCorpus returns the verdict counts of one corpus ("error" for refusals).
func (s ingestSummary) byCorpus(name string) map[string]int { return s.PerCorpus[name] }

func writeNatural(w io.Writer, n *newsEvaluation) {
	fmt.Fprintf(w, "## 1. Natural pairs linked\n\n")
	fmt.Fprintf(w, "Pairs of articles of one corpus, by what their bodies share, and how many of those published within the window the service linked (same cluster, or one the other's `duplicate_of`). Pairs further apart than the window are shown after the slash, as “linked/pairs”.\n\n")
	for _, name := range append(slices.Clone(corpusNames), "both") {
		t := newTable(append([]string{"class"}, bandHeads("in window", "outside")...)...)
		rows := 0
		for _, class := range naturalClasses {
			row := []string{class}
			any := false
			for b := range newsBands {
				c := n.Natural.Counts[naturalKey{Corpus: name, Class: class, Band: b}]
				if c == nil {
					row = append(row, "–", "–")
					continue
				}
				any = true
				row = append(row, c.InWindow.String(), fmt.Sprintf("%d/%d", c.OutWindow.Hit, c.OutWindow.Of))
			}
			if any {
				t.add(row...)
				rows++
			}
		}
		if rows == 0 {
			continue
		}
		label := name
		if name == "both" {
			label = "across the corpora"
		}
		fmt.Fprintf(w, "**%s**:\n\n", label)
		t.write(w)
	}
	if len(n.Natural.Misses) > 0 {
		fmt.Fprintf(w, "Near-identical or identical-body pairs within the window the service did not link, closest first:\n\n")
		t := newTable("headline", "other headline", "characters", "Jaccard", "containment").leftAligned(2)
		for _, e := range n.Natural.Misses {
			t.add(quoted(e.Title), quoted(e.OtherTitle), fmt.Sprintf("%d / %d", e.Chars, e.OtherChars), f3(e.Jaccard), f3(e.Containment))
		}
		t.write(w)
	}
}

// bandHeads is two columns per band.
func bandHeads(a, b string) []string {
	var out []string
	for _, bd := range newsBands {
		out = append(out, bd.Name+" "+a, b)
	}
	return out
}

func writePrecision(w io.Writer, n *newsEvaluation) {
	p := &n.Precise
	fmt.Fprintf(w, "## 2. Precision: what the links join\n\n")
	fmt.Fprintf(w, "Every link the service made while storing the corpora, by the linking article's status and corpus, with what the two bodies share (containment of 5-grams). ")
	fmt.Fprintf(w, "The last column measures again without the *boilerplate 5-grams* — those found in at least %s of all articles (and %d of them): the link line and update stamp the CCTV scraper kept under every story, portals' slogans — so that two bodies alike only in their chrome count as unrelated.\n\n", percent(commonGramShare), boilerplateFrom)
	t := newTable("links", "flags", "unrelated (< 30 %)", "share", "related (30–80 %)", "copies (≥ 80 %)", "same headline", "a body < 80 characters", "unrelated without boilerplate")
	add := func(name string, c *flagCount) {
		t.add(name, fmt.Sprint(c.Flags), fmt.Sprint(c.Unrelated), pct(c.falseRate().Value()), fmt.Sprint(c.Related), fmt.Sprint(c.Copies),
			fmt.Sprint(c.SameTitle), fmt.Sprint(c.Stub), fmt.Sprintf("%d (%s)", c.UnrelatedCore, pct(rate{Hit: c.UnrelatedCore, Of: c.Flags}.Value())))
	}
	for _, k := range sortedKeys(p.ByStatus) {
		add("status "+k, p.ByStatus[k])
	}
	for _, k := range sortedKeys(p.ByCorpus) {
		add("corpus "+k, p.ByCorpus[k])
	}
	add("**all**", &p.All)
	add("both bodies ≥ 80 characters (the goal's)", &p.Banded)
	t.write(w)
	if len(p.Unrelated) > 0 {
		fmt.Fprintf(w, "Links between unrelated bodies, least alike first:\n\n")
		writeLinkExamples(w, p.Unrelated)
	}
	if c := p.All; c.UnrelatedCore > c.Unrelated {
		fmt.Fprintf(w, "By the label every link is sound; but %d links (%s) hold only through boilerplate, and %d of them join a body under 80 characters: pages whose scraped body is nothing but a portal's slogan or the programme's link line, linked to each other (distance 0, overlap 1) before the sentence index counted 20 holders of that line: from the 20th on, it is boilerplate and links nothing. ",
			c.UnrelatedCore, pct(rate{Hit: c.UnrelatedCore, Of: c.Flags}.Value()), c.StubCore)
		fmt.Fprintf(w, "They are not counted against the precision goal, whose label is the issue's; a newsroom would still not want them. Examples, least alike first:\n\n")
		writeLinkExamples(w, p.Chrome)
	}
	fmt.Fprintf(w, "**CCTV, recurring topics.** The programme covers the same meetings, campaigns and daily or monthly figures day after day. Links between CCTV stories broadcast on different days: %d (%d of them under the same headline), of which %d join unrelated bodies, %d related ones (30–80 %%) and %d copies (≥ 80 %%); without the boilerplate 5-grams, %d join unrelated bodies. ",
		p.OtherDay.Flags, p.OtherDay.SameTitle, p.OtherDay.Unrelated, p.OtherDay.Related, p.OtherDay.Copies, p.OtherDay.UnrelatedCore)
	if len(p.OtherDayExamples) > 0 {
		fmt.Fprintf(w, "The least alike:\n\n")
		writeLinkExamples(w, p.OtherDayExamples)
	} else {
		fmt.Fprintf(w, "\n\n")
	}
}

func writeLinkExamples(w io.Writer, examples []pairExample) {
	t := newTable("article", "linked to", "status", "distance", "overlap (service)", "containment (label)", "without boilerplate").leftAligned(3)
	for _, e := range examples {
		a, b := quoted(e.Title), quoted(e.OtherTitle)
		if e.Date != "" {
			a += " " + e.Date
		}
		if e.OtherDate != "" {
			b += " " + e.OtherDate
		}
		core := "–"
		if e.CoreContainment != nil {
			core = f3(*e.CoreContainment)
		}
		t.add(a, b, e.Status, fmt.Sprint(e.Distance), f3(e.Overlap), f3(e.Containment), core)
	}
	t.write(w)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func writeReposts(w io.Writer, n *newsEvaluation) {
	r := &n.Reposts
	fmt.Fprintf(w, "## 3. Reposts made from real articles\n\n")
	fmt.Fprintf(w, "Originals per band: %s. Detected = linked to the source or its cluster; in brackets, detected as near (or exact) and as partial duplicates. ", joinInts(r.Originals))
	fmt.Fprintf(w, "![Reposts detected by edit and band](%s)\n\n", chartFile)
	head := []string{"edit"}
	for _, bd := range newsBands {
		head = append(head, bd.Name)
	}
	head = append(head, "linked elsewhere", "refused (422)", "not applicable")
	t := newTable(head...)
	for _, e := range repostEdits {
		row := []string{e}
		elsewhere, refused := 0, 0
		for b := range newsBands {
			c := r.Counts[e][b]
			elsewhere += c.Elsewhere
			refused += c.Refused
			row = append(row, fmt.Sprintf("%s [%d near, %d partial]", c.detected(), c.Near+c.Exact, c.Partial))
		}
		row = append(row, fmt.Sprint(elsewhere), fmt.Sprint(refused), fmt.Sprint(r.Unapplied[e]))
		t.add(row...)
	}
	t.write(w)
	fmt.Fprintf(w, "Checking them took %.0f s.\n\n", r.Seconds)
	if p, ok := n.Sweep.shipped(); ok {
		var parts []string
		for _, e := range repostEdits {
			if m := p.Misses[e]; m.Far+m.LowOverlap > 0 {
				parts = append(parts, fmt.Sprintf("%s %d far, %d too little shared text", e, m.Far, m.LowOverlap))
			}
		}
		if len(parts) > 0 {
			fmt.Fprintf(w, "Why the article verdict misses them (the shipped setting at the fingerprint level, every band): more than 3 bits apart (*far*), or within 3 bits but sharing less than `min_overlap` of the shorter text — %s.\n\n", strings.Join(parts, "; "))
		}
	}
}

func joinInts(xs []int) string {
	var parts []string
	for b, x := range xs {
		parts = append(parts, fmt.Sprintf("%s %d", newsBands[b].Name, x))
	}
	return strings.Join(parts, ", ")
}

func writeLoad(w io.Writer, n *newsEvaluation) {
	fmt.Fprintf(w, "## 4. Candidate load\n\n")
	p, ok := n.Sweep.shipped()
	if !ok {
		fmt.Fprintf(w, "Not measured.\n\n")
		return
	}
	l := p.Figures.Load
	fmt.Fprintf(w, "With the shipped fingerprint, %d of the %d unrelated pairs of both corpora (containment < 0.3; every pair with a fingerprint on both sides, across the corpora too) are within 3 bits: **%s**. ", l.Hit, l.Of, pctFine(l.Value()))
	fmt.Fprintf(w, "Each is a row the block index returns for the verifier to reject: it costs time, not precision. The sweep below gives the load of every setting.\n\n")
}

func writeSentences(w io.Writer, n *newsEvaluation) {
	a := &n.Sentence
	fmt.Fprintf(w, "## 5. Sentence links\n\n")
	if a.Skipped != "" {
		fmt.Fprintf(w, "Not measured: %s. The program asks the route and classifies its links as soon as the server serves it; until then the goal stays open.\n\n", a.Skipped)
		return
	}
	fmt.Fprintf(w, "%d articles asked, %d distinct sentence links answered, %d sampled. A reader would reject %s: %d are not the same sentence (5-gram Jaccard < %s), %d are boilerplate (in ≥ %d articles).\n\n",
		a.Asked, a.Links, a.Sampled, a.rejectedRate(), a.Different, fmtFloat(sentenceJaccardFrom), a.Boilerplate, boilerplateFrom)
	t := newTable("corpus", "rejected")
	for _, k := range sortedKeys(a.ByCorpus) {
		t.add(k, a.ByCorpus[k].String())
	}
	t.write(w)
	if len(a.Examples) > 0 {
		fmt.Fprintf(w, "Rejected links, by their articles' headlines (the sentences themselves are corpus text and are not quoted):\n\n")
		t := newTable("article", "other article", "why", "sentence Jaccard", "articles holding it").leftAligned(3)
		for _, e := range a.Examples {
			t.add(quoted(e.Title), quoted(e.OtherTitle), e.Reason, f3(e.Jaccard), fmt.Sprint(e.Articles))
		}
		t.write(w)
	}
}
