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
		return "The run could not measure it."
	case strings.HasPrefix(r.What, "围城"):
		return "Version 3 reads the body alone and strips short edge lines: what the novel's edits of the headline gain, its edits of the body (a sentence dropped or added, moved paragraphs) lose where the heavier title of version 2 held short passages together; the table in section 6 has every figure."
	case n == nil:
		return ""
	case strings.Contains(r.What, "judged partial") || strings.Contains(r.What, "natural partial"):
		if !n.Features.PartialStatus {
			return "The server measured does not answer `partial_duplicate` yet: a partial copy is only caught when its whole-article fingerprint stays within 3 bits, which a copy missing 20–40 % of the text rarely does. The sentence-level verdict is what this goal waits for."
		}
		return "Partial copies whose shared sentences do not reach the coverage rule are missed."
	case r.Edit != "":
		if p, ok := n.Sweep.shipped(); ok {
			if m := p.Misses[r.Edit]; m.Far+m.LowOverlap > 0 {
				return fmt.Sprintf("At the fingerprint level (every band), %d of the %d %s reposts the shipped setting misses are more than 3 bits from their source — out of the index's reach, whatever the verifier — and %d are within 3 bits but share less than `min_overlap`. %s",
					m.Far, m.Far+m.LowOverlap, r.Edit, m.LowOverlap, editWhy[r.Edit])
			}
		}
		return ""
	case strings.Contains(r.What, "near-identical") || strings.Contains(r.What, "identical bodies"):
		return "The missed pairs (listed in section 1) are republications with a new lead or an extra paragraph: a few hundred characters move the heaviest words' counts more than 3 bits."
	case strings.Contains(r.What, "load"):
		return "The exponent that keeps reposts within 3 bits also pulls stories of one topic together; the sweep shows the trade."
	case strings.Contains(r.What, "flagged pairs"):
		return "The examples in section 2 show which stories are joined."
	case strings.Contains(r.What, "sentence links"):
		return "The examples in section 5 show what is rejected."
	}
	return ""
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
