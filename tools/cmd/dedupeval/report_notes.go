package main

import (
	"fmt"
	"io"
	"strings"
)

// writeNotes lists the goals not met with what the figures say of why, and
// the limits of the method.
func writeNotes(w io.Writer, ev *evaluation) {
	fmt.Fprintf(w, "## What is not met, and why\n\n")
	var open []goalRow
	for _, r := range ev.Goals {
		if r.Met == nil || !*r.Met {
			open = append(open, r)
		}
	}
	if len(open) == 0 {
		fmt.Fprintf(w, "Every goal measured is met.\n\n")
	}
	for _, r := range open {
		fmt.Fprintf(w, "- **%s** (issue %d, %s): %s. %s\n", r.What, r.Issue, r.Target, r.Figure, whyOpen(ev, r))
	}
	if len(open) > 0 {
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "## Limits of the method\n\n")
	fmt.Fprintf(w, "- The labels are 5-gram measures: a close paraphrase counts as unrelated, a template story that keeps most of its words counts as related. Containment 0.3–0.8 is neither a copy nor unrelated: such links are counted apart, never as errors.\n")
	fmt.Fprintf(w, "- The natural near-identical and partial pairs are nearly all Sina's (CCTV has few copies): a few hundred pairs, so a figure of 0.99 carries about a point of sampling error.\n")
	fmt.Fprintf(w, "- The reposts copy sentences verbatim and their site lines are invented: real chrome varies more, and a real repost is often edited in more than one way.\n")
	fmt.Fprintf(w, "- Sina has no dates: its articles are spread over five days, which puts every pair in the window; a real feed spreads its copies over time, and the window then hides some.\n")
	fmt.Fprintf(w, "- The sweep judges pairs at the fingerprint level, one pair at a time: the service also links through clusters, and picks one match per article.\n\n")
}

// whyOpen explains an open goal from the figures, where the program can.
func whyOpen(ev *evaluation, r goalRow) string {
	n := ev.News
	switch {
	case r.Met == nil:
		return ""
	case strings.HasPrefix(r.What, "围城"):
		return ev.Novel.why()
	case n == nil:
		return ""
	case r.Issue == 33:
		t := n.Digests.total()
		return fmt.Sprintf("Of %d digests, %d have a fingerprint within 3 bits of one of their stories (their heaviest words are that story's): the verifier must tell a text that holds another plus much more from a near duplicate (section 3b).", t.Digests, t.Within3)
	case strings.Contains(r.What, "judged partial") || strings.Contains(r.What, "natural partial"):
		if !n.Features.PartialStatus {
			return "The server measured does not answer `partial_duplicate` yet: a partial copy is caught only when its whole-article fingerprint stays within 3 bits, which a copy missing a fifth or more of the text rarely does. This goal waits for the sentence-level verdict."
		}
		return "Partial copies that share no sentence with their source, or reach neither the sentence nor the text share of the rule, are missed."
	case r.Edit != "":
		why := ""
		if p, ok := n.Sweep.shipped(); ok {
			why = missSentence(p.Misses[r.Edit], r.Edit+" reposts") + " " + editWhy[r.Edit]
		}
		if r.Issue == 10 {
			return "The figure of issue 9's goal: the sentence-level verdict is meant to raise it. " + why
		}
		return why
	case strings.Contains(r.What, "near-identical") || strings.Contains(r.What, "identical bodies"):
		why := ""
		if p, ok := n.Sweep.shipped(); ok {
			var m missCount
			for _, c := range []string{classIdenticalOtherTitle, classIdenticalSameTitle, classNearIdentical} {
				m.Far += p.NaturalMisses[c].Far
				m.LowOverlap += p.NaturalMisses[c].LowOverlap
			}
			why = missSentence(m, "pairs") + " "
		}
		return why + "The missed pairs (section 1) share nearly all their text: they are republications with a new lead, an extra paragraph or another credit line, which move the heaviest words' counts more than 3 bits. A sentence-level index would find them."
	case strings.Contains(r.What, "load"):
		return "The exponent that keeps reposts within 3 bits also pulls stories of one topic together; the sweep shows the trade."
	case strings.Contains(r.What, "flagged pairs"):
		return "The examples in section 2 show which stories are joined."
	case strings.Contains(r.What, "sentence links"):
		return "The examples in section 5 show what is rejected."
	}
	return ""
}

// missSentence says why the shipped setting misses what it misses, at the
// fingerprint level.
func missSentence(m missCount, what string) string {
	total := m.Far + m.LowOverlap
	switch {
	case total == 0:
		return ""
	case m.LowOverlap == 0:
		return fmt.Sprintf("All %d %s the shipped setting misses at the fingerprint level (every band) are more than 3 bits apart: out of the index's reach, whatever the verifier.", total, what)
	}
	return fmt.Sprintf("Of the %d %s the shipped setting misses at the fingerprint level (every band), %d are more than 3 bits apart (out of the index's reach) and %d within 3 bits but sharing less than `min_overlap`.", total, what, m.Far, m.LowOverlap)
}

// editWhy says what an edit does to a whole-article fingerprint.
var editWhy = map[string]string{
	editLight:     "The byline and editor's lines are stripped as short edge lines; what is left is the punctuation, which normalisation undoes.",
	editRetitled:  "The fingerprint reads the body alone.",
	editFirst60:   "Two fifths of the text gone change the key words' counts: the whole-article fingerprint cannot hold such a copy; the sentence-level verdict of issue 10 is meant to.",
	editFirst80:   "A fifth of the text gone changes the key words' counts: the whole-article fingerprint rarely holds such a copy; the sentence-level verdict of issue 10 is meant to.",
	editChrome:    "Losing the lead sentence — often the densest in key words — and gaining the site's lines moves the heaviest words' weights; short articles suffer most.",
	editDropped:   "One sentence of a short article is a large share of its key words' counts.",
	editAdded:     "Another article's sentence brings its own key words.",
	editMoved:     "Moving a paragraph changes which short lines sit at the ends of the body, and so what is stripped.",
	editBoiler:    "Lines of 100–300 characters are more than the edge stripping (three short lines at each end) removes: their words count.",
	editRewritten: "A fifth of the sentences replaced is a fifth of the text: neither the fingerprint nor the overlap is meant to hold it.",
}

// summaryText is what the program prints at the end.
func summaryText(ev *evaluation) string {
	var b strings.Builder
	for _, r := range ev.Goals {
		fmt.Fprintf(&b, "  [%s] issue %d: %s (%s): %s\n", strings.Trim(metText(r.Met), "*"), r.Issue, r.What, r.Target, r.Figure)
	}
	return b.String()
}
