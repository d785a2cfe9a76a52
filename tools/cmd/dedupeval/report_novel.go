package main

import (
	"fmt"
	"io"
)

func writeNovel(w io.Writer, ev *evaluation) {
	r := &ev.Novel
	c := &r.Corpus
	fmt.Fprintf(w, "## 6. Regression check on 围城\n\n")
	fmt.Fprintf(w, "The labelled corpus the project measured before it had real news, built by `internal/corpus` from the novel that ships with gojieba (the first %d of its %d sentences: the file then repeats itself): %d originals of 80–3000 characters cut side by side, each copied exactly and by every edit of `corpus.AllEdits` (%d copies). ",
		c.UniqueSentences, c.Sentences, len(c.Originals), len(c.Copies))
	fmt.Fprintf(w, "Every original and copy is compared with every stored original (%d pairs) at the fingerprint level, with the decision each version shipped with: version 2, `WeightedParamsV2` (exponent 3, title counted twice, top 64) and a shared-word ratio ≥ %s; version 3, the shipped parameters and `min_overlap` ≥ %s. ",
		r.Pairs, fmtFloat(version2MinWordRatio), fmtFloat(minOverlapShipped()))
	fmt.Fprintf(w, "Its negatives are passages of one novel, sharing its characters' names: a harder test of precision than unrelated news, and its light edits are the ones the project's first goal was set on.\n\n")
	t := newTable("figure", "version 2", "version 3", "")
	for _, x := range r.Rows {
		mark := ""
		if x.falls() {
			mark = "falls"
		}
		t.add(x.What, x.V2Text, x.V3Text, mark)
	}
	t.write(w)
}
