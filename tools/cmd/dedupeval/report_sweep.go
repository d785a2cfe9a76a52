package main

import (
	"fmt"
	"io"

	"github.com/newsdedup/newsdedup/service"
)

func minOverlapShipped() float64 { return service.DefaultOptions.MinOverlap }

// choiceSentence says whether the shipped defaults are the rule's choice.
func choiceSentence(n *newsEvaluation) string {
	r := &n.Sweep
	if r.Chosen < 0 || len(r.Points) == 0 {
		return "no sweep was run."
	}
	c := r.Points[r.Chosen]
	if len(r.Points) == 1 {
		return fmt.Sprintf("only the shipped setting was measured (`-sweep=false`); the rule's choice among %d settings is not known from this run.", len(r.Points))
	}
	if c.Shipped {
		return fmt.Sprintf("the rule in `choose.go` picks the shipped defaults among %d settings — exponent %s, weight cap %s (`fingerprint.DefaultWeightedParams`), `min_overlap` %s (`service.DefaultOptions.MinOverlap`).",
			len(r.Points), fmtFloat(c.Exponent), fmtFloat(c.Cap), fmtFloat(c.MinOverlap))
	}
	shipped, overlap := shippedSetting()
	verifier := fmt.Sprintf("`service.DefaultOptions.MinOverlap` (%s) is the rule's choice", fmtFloat(overlap))
	if c.MinOverlap != overlap {
		verifier = fmt.Sprintf("`service.DefaultOptions.MinOverlap` (%s) is **not**: the rule picks %s", fmtFloat(overlap), fmtFloat(c.MinOverlap))
	}
	fp := fmt.Sprintf("`fingerprint.DefaultWeightedParams` (exponent %s, cap %s) are", fmtFloat(shipped.Exponent), fmtFloat(shipped.Cap))
	if c.fpSetting != shipped {
		fp = fmt.Sprintf("`fingerprint.DefaultWeightedParams` (exponent %s, cap %s) are **not**: the rule picks exponent %s, cap %s", fmtFloat(shipped.Exponent), fmtFloat(shipped.Cap), fmtFloat(c.Exponent), fmtFloat(c.Cap))
	} else {
		fp += " the rule's choice"
	}
	return fmt.Sprintf("among %d settings, %s; %s (section 7).", len(r.Points), verifier, fp)
}

func writeSweep(w io.Writer, n *newsEvaluation) {
	r := &n.Sweep
	fmt.Fprintf(w, "## 7. The parameters, chosen by a rule\n\n")
	fmt.Fprintf(w, "Settings of the fingerprint (exponent, weight cap; every other parameter as shipped) and of the verifier (`min_overlap`), measured offline at the fingerprint level on the same articles and reposts (%.0f s). ", r.Seconds)
	fmt.Fprintf(w, "The rule (`choose.go`): meet the precision goal and the load goal first; then meet the most recall goals of issue 9; then the best mean of those figures; then, recall being equal, the fewer false flags and the lighter load; a tie keeps the earlier setting in the table (the simpler one). ")
	fmt.Fprintf(w, "★ marks the rule's choice, † what ships: %s\n\n", choiceSentence(n))
	head := []string{"exponent", "cap", "min_overlap", "false flags", "load", "identical, other headline", "near-identical", "partial"}
	for _, e := range []string{editLight, editRetitled, editChrome, editDropped, editAdded, editMoved, editBoiler} {
		head = append(head, e+" ≥300")
	}
	head = append(head, "recall goals met", "")
	t := newTable(head...)
	for i, p := range r.Points {
		f := &p.Figures
		mark := ""
		if i == r.Chosen {
			mark += " ★"
		}
		if p.Shipped {
			mark += " †"
		}
		rk := rankOf(f)
		row := []string{fmtFloat(p.Exponent), fmtFloat(p.Cap), fmtFloat(p.MinOverlap),
			pct(f.FalseFlags.Value()) + okMark(rk.Precise), pctFine(f.Load.Value()) + okMark(rk.Light),
			f3(f.IdenticalOtherTitle.Value()), f3(f.NearIdentical.Value()), f3(f.Partial.Value())}
		for _, e := range []string{editLight, editRetitled, editChrome, editDropped, editAdded, editMoved, editBoiler} {
			v, _ := worstFrom(e, 1)(f)
			row = append(row, f3(v))
		}
		row = append(row, fmt.Sprintf("%d (mean %s)", rk.RecallMet, f3(rk.RecallMean)), mark)
		t.add(row...)
	}
	t.write(w)
	if sh, ok := r.shipped(); ok && r.Chosen >= 0 && !r.Points[r.Chosen].Shipped {
		c := r.Points[r.Chosen]
		rc, rs := rankOf(&c.Figures), rankOf(&sh.Figures)
		fmt.Fprintf(w, "The choice against what ships: precision goal %s and %s, load %s and %s (goal ≤ 0.05 %%), recall goals met %d and %d, mean recall %s and %s. ",
			metWord(rc.Precise), metWord(rs.Precise), pctFine(rc.Load), pctFine(rs.Load), rc.RecallMet, rs.RecallMet, f3(rc.RecallMean), f3(rs.RecallMean))
		fmt.Fprintf(w, "The rule takes recall once both goals are met, however close to the limit the load is; shipping the choice would change the fingerprint's bits (a new fingerprint version, stored rows fingerprinted again) — a decision for the project, not for this program.\n\n")
	}
	fmt.Fprintf(w, "“false flags” counts, at the fingerprint level, every pair the setting would link (within the window) whose bodies share < 30 %%; the service links each article to one match, so its figure in section 2 counts fewer, differently chosen pairs. ✓ marks a goal met.\n\n")
}

func metWord(ok bool) string {
	if ok {
		return "met"
	}
	return "not met"
}

func okMark(ok bool) string {
	if ok {
		return " ✓"
	}
	return ""
}
