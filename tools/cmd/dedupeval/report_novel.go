package main

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
)

func writeNovel(w io.Writer, ev *evaluation) {
	r := &ev.Novel
	c := &r.Corpus
	fmt.Fprintf(w, "## 6. Regression check on 围城\n\n")
	fmt.Fprintf(w, "The labelled corpus the project measured before it had real news, built by `internal/corpus` from the novel that ships with gojieba (the first %d of its %d sentences: the file then repeats itself): %d originals of 80–3000 characters cut side by side, each copied exactly and by every edit of `corpus.AllEdits` (%d copies). ",
		c.UniqueSentences, c.Sentences, len(c.Originals), len(c.Copies))
	fmt.Fprintf(w, "Each version is measured as it shipped. **Version 2** was a fingerprint and a verifier, nothing more: `WeightedParamsV2` (exponent 3, title counted twice, top 64) and a shared-word ratio ≥ %s. Its decision is computed at the fingerprint level, every original and copy against every stored original (%d pairs), and it is version 2's whole decision: it had no sentence index. ",
		fmtFloat(version2MinWordRatio), r.Pairs)
	fmt.Fprintf(w, "**Version 3** ships as a service: the shipped fingerprint and `min_overlap` ≥ %s, and, where they find no exact or near duplicate, the sentence index's partial duplicates. ", fmtFloat(minOverlapShipped()))
	if s := r.Service; s != nil {
		fmt.Fprintf(w, "So its figures are the service's verdicts: the %d originals are stored through `POST /v1/articles/batch` (source `%s`, a minute apart) on a scratch database of their own that the news never enters, and every query — each original under its own key, which the check leaves out of its matches, then each copy, two hours after its original — goes through `POST /v1/check`, which stores nothing (%d queries; %.0f s in all, the scratch database's creation included). ",
			len(c.Originals), novelSource, r.Queries, s.Seconds)
		fmt.Fprintf(w, "A copy is **detected** when the verdict links it (any status but `unique`) to its original or to an article of its original's cluster, as a repost is (section 3); a copy linked to another original, or an original linked to any other, is a **false link**. ")
		fmt.Fprintf(w, "Version 2's precision counts pairs: a false positive is a stored original, not its own, that a copy or an original is judged a duplicate of. The service names one article per verdict, so version 3's precision counts verdicts: the detected copies against the false links. ")
		if v2, v3 := r.Tallies.at(copies, pointV2), s.sum(copies); v2.FP == 0 && v3.Elsewhere == 0 {
			fmt.Fprintf(w, "Neither has a false positive, so the difference of unit changes nothing here. ")
		}
		exact := s.sum(func(k groupKey) bool { return k.Edit == editExact })
		fmt.Fprintf(w, "Storing the originals, the service linked %d to an earlier one and refused %d; of the exact copies, left out of the rows, it detected %d of %d, %d as `exact_duplicate`.",
			s.IngestLinked, s.IngestRefused, exact.Detected, exact.Reposts, exact.Exact)
		if len(s.FalseLinks) > 0 {
			fmt.Fprintf(w, " The false links, by status: %s.", statusCounts(s.FalseLinks))
		}
		fmt.Fprintf(w, "\n\n")
	} else {
		fmt.Fprintf(w, "Its verdicts come from the service, which this run did not measure: %s. The column “version 3” is empty, and the goal is not measured; version 3's fingerprint level alone is shown.\n\n", r.ServiceSkipped)
	}
	fmt.Fprintf(w, "The comparison is fair because each version is judged by everything it decided with, as a newsroom received it: version 2's fingerprint was its verdict, version 3's fingerprint is only the first of its layers. The column “fingerprint alone” shows version 3's first layer computed as version 2's is, and so what the sentence index adds; “exact / near / partial” splits version 3's detected copies by the status of their verdict. ")
	fmt.Fprintf(w, "The load is the fingerprint's in every column: the service's candidates within 3 bits are its fingerprint's (the sentence index's lookups are not counted). ")
	fmt.Fprintf(w, "The negatives are passages of one novel, sharing its characters' names: a harder test of precision than unrelated news, and its light edits are the ones the project's first goal was set on. A figure **falls** when version 3's is worse than version 2's.\n\n")
	t := newTable("figure", "version 2", "version 3", "exact / near / partial", "version 3, fingerprint alone", "")
	for _, x := range r.Rows {
		mark := ""
		if x.falls() {
			mark = "falls"
		}
		t.add(x.What, x.V2Text, x.V3Text, x.Statuses, x.V3FPText, mark)
	}
	t.write(w)
}

// statusCounts lists counts by status, in a fixed order.
func statusCounts(m map[string]int) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%d %s", m[k], k))
	}
	return strings.Join(parts, ", ")
}
