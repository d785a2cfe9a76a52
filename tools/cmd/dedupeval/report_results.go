package main

import (
	"fmt"
	"io"
	"strings"
)

// shortCopies is every copy under 500 runes but the exact ones.
func shortCopies(k groupKey) bool { return !bands[k.Band].Long && k.Edit != editExact }

// markName marks the recommended method ★ and the shipped default †.
func markName(ev *evaluation, i int) string {
	r := ev.Simhash[i]
	name := "`" + r.Method.Name + "`"
	if i == ev.Recommended.Method {
		name += " ★"
	}
	if r.Method.isDefault() {
		name += " †"
	}
	return name
}

func yesNo(b bool) string {
	if b {
		return "**yes**"
	}
	return "no"
}

// writeResults writes the simhash tables.
func writeResults(w io.Writer, ev *evaluation) {
	rec := ev.recommended()
	recPoint := ev.Recommended.Score.Point
	recRatio := ratioAt(recPoint % ratioSteps)
	measure := measures[ev.Recommended.Measure]

	fmt.Fprintf(w, "## Results\n\n")
	fmt.Fprintf(w, "### Every simhash method at its best min_word_ratio\n\n")
	fmt.Fprintf(w, "At max_distance 3, each method with the min_word_ratio the rule picks for it. ★ recommended, † the default the fingerprint package ships today. ")
	fmt.Fprintf(w, "“near negatives” is the candidate load: the share of negative pairs within distance 3, for queries of ≥500 and of <500 runes.\n\n")
	for m := range measures {
		fmt.Fprintf(w, "With the %s:\n\n", measureTitle(m))
		t := newTable("method", "r", "light ≥500 recall", "light ≥500 precision", "copies ≥500 recall", "copies ≥500 precision", "copies <500 recall", "all copies recall", "near negatives ≥500", "near negatives <500", "goal")
		for i, r := range ev.Simhash {
			s := bestSimhash(r, m)
			t.add(markName(ev, i), fmt.Sprintf("%.1f", ratioAt(s.Point%ratioSteps)),
				f3(s.Light.Recall()), f3(s.Light.Precision()), f3(s.Long.Recall()), f3(s.Long.Precision()),
				f3(r.Tallies.at(shortCopies, s.Point).Recall()), f3(s.All.Recall()),
				pct(r.nearNegatives(long).FalsePositiveRate()), pct(r.nearNegatives(short).FalsePositiveRate()), yesNo(s.Goal()))
		}
		t.write(w)
	}

	fmt.Fprintf(w, "### The recommended setting, edit by edit (≥500 runes)\n\n")
	fmt.Fprintf(w, "`%s` with the %s, min_word_ratio %.1f, for each max_distance; the last columns show distance alone (r = 0) and the precision at k = 3.\n\n", rec.Method.Name, measureTitle(ev.Recommended.Measure), recRatio)
	t := newTable("edit", "recall k=0", "k=1", "k=2", "k=3", "k=3, distance alone", "precision k=3")
	for _, e := range append([]string{editNone}, copyEdits()...) {
		keep := longEdit(e)
		row := []string{editName(e)}
		for k := range maxK + 1 {
			row = append(row, f3(rec.Tallies.at(keep, simPoint(ev.Recommended.Measure, k, recPoint%ratioSteps)).Recall()))
		}
		row = append(row, f3(rec.Tallies.at(keep, simPoint(ev.Recommended.Measure, maxK, 0)).Recall()))
		c := rec.Tallies.at(keep, recPoint)
		if e == editNone {
			row = append(row, fmt.Sprintf("%d FP in %d pairs", c.FP, c.Negatives()))
		} else {
			row = append(row, precisionOf(c))
		}
		t.add(row...)
	}
	all := rec.Tallies.at(longCopies, recPoint)
	t.add("**every copy but exact**", "", "", "", f3(all.Recall()), f3(rec.Tallies.at(longCopies, simPoint(ev.Recommended.Measure, maxK, 0)).Recall()), precisionOf(all))
	t.write(w)

	fmt.Fprintf(w, "### min_word_ratio, and the shared-word ratio against Jaccard\n\n")
	fmt.Fprintf(w, "`%s` at max_distance 3. The recommended point is in bold.\n\n", rec.Method.Name)
	t = newTable("r", "ratio: light ≥500 R", "P", "copies ≥500 R", "P", "F1", "copies <500 R", "P", "Jaccard: light ≥500 R", "P", "copies ≥500 R", "P", "copies <500 R", "P")
	for ri := range ratioSteps {
		row := []string{fmt.Sprintf("%.1f", ratioAt(ri))}
		for m := range measures {
			i := simPoint(m, maxK, ri)
			light, lc, sc := rec.Tallies.at(longEdit("light"), i), rec.Tallies.at(longCopies, i), rec.Tallies.at(shortCopies, i)
			row = append(row, f3(light.Recall()), f3(light.Precision()), f3(lc.Recall()), f3(lc.Precision()))
			if m == measureRatio {
				row = append(row, f3(lc.F1()))
			}
			row = append(row, f3(sc.Recall()), f3(sc.Precision()))
		}
		if ri == recPoint%ratioSteps {
			for j := range row {
				if j == 0 || m0(ev, j) {
					row[j] = "**" + row[j] + "**"
				}
			}
		}
		t.add(row...)
	}
	t.write(w)

	fmt.Fprintf(w, "### By length band\n\n")
	fmt.Fprintf(w, "Recall per edit and band at the recommended point (`%s`, max_distance 3, %s ≥ %.1f); precision over every query of the band, the originals' pairs included.\n\n", rec.Method.Name, measure, recRatio)
	head := []string{"band"}
	for _, e := range copyEdits() {
		head = append(head, strings.ReplaceAll(e, "_", " "))
	}
	head = append(head, "copies", "precision", "near negatives")
	t = newTable(head...)
	for b, bd := range bands {
		row := []string{bd.Name}
		for _, e := range copyEdits() {
			row = append(row, f3(rec.Tallies.at(bandEdit(b, e), recPoint).Recall()))
		}
		inBand := func(k groupKey) bool { return k.Band == b && k.Edit != editExact }
		row = append(row, f3(rec.Tallies.at(inBand, recPoint).Recall()), precisionOf(rec.Tallies.at(bandIs(b), recPoint)), pct(rec.nearNegatives(bandIs(b)).FalsePositiveRate()))
		t.add(row...)
	}
	t.write(w)

	fmt.Fprintf(w, "### Candidate load, and why it grows with the exponent\n\n")
	fmt.Fprintf(w, "Raising weights to a power lets the heaviest words decide the fingerprint. When one word carries a large share of the folded weight, every article it leads gets nearly that word's hash as its fingerprint, and unrelated passages about the same character fall within a few bits. ")
	fmt.Fprintf(w, "Measured on the originals with `Weighted`, all words, title weight 1:\n\n")
	t = newTable("exponent", "heaviest word's mean share of the folded weight", "most frequent heaviest words (share of originals)", "near negatives, all queries (k=3)")
	for _, c := range ev.Concentrations {
		var leaders []string
		for _, l := range c.Leaders {
			leaders = append(leaders, fmt.Sprintf("%s %s", l.Word, pct(l.Share)))
		}
		load := "–"
		for _, r := range ev.Simhash {
			if m := r.Method; m.Algorithm == "weighted" && m.Exponent == c.Exponent && m.TopN == 0 && m.Title == 1 {
				load = pct(r.nearNegatives(anyGroup).FalsePositiveRate())
			}
		}
		t.add(fmtFloat(c.Exponent), pct(c.TopShare), strings.Join(leaders, ", "), load)
	}
	t.write(w)
	fmt.Fprintf(w, "Per method, every query: the share of negative pairs within distance k (they pass the distance check and need the word measure), and the share the block index returns at all (one family-A and one family-B block equal: every pair within distance 3, and some farther ones that the SQL distance check then drops):\n\n")
	t = newTable("method", "within k=0", "k=1", "k=2", "k=3", "block-index rows")
	for i, r := range ev.Simhash {
		row := []string{markName(ev, i)}
		for k := range maxK + 1 {
			row = append(row, pct(r.Tallies.at(anyGroup, simPoint(measureRatio, k, 0)).FalsePositiveRate()))
		}
		row = append(row, pct(r.blockLoad(anyGroup)))
		t.add(row...)
	}
	t.write(w)
}

// m0 tells whether column j of the sweep table belongs to the recommended
// measure (the bold cells).
func m0(ev *evaluation, j int) bool {
	const ratioCols = 7 // light R, P, ≥500 R, P, F1, <500 R, P
	if ev.Recommended.Measure == measureRatio {
		return j >= 1 && j <= ratioCols
	}
	return j > ratioCols
}

func measureTitle(m int) string {
	if m == measureJaccard {
		return "Jaccard index |A∩B| / |A∪B|"
	}
	return "shared-word ratio |A∩B| / min(|A|, |B|) (the service's)"
}
