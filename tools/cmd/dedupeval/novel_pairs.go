package main

import "github.com/newsdedup/newsdedup/service/fingerprint"

// editNone labels an original used as a query against the other originals:
// it has no duplicate among them, so its pairs are all negatives. It measures
// false alarms between unrelated articles.
const editNone = "none"

// query is an article looked up against the stored originals, as the
// service looks up an incoming article.
type query struct {
	Doc  fingerprint.Document
	Band int    // the band of the original it comes from
	Edit string // editNone for an original, else the edit that made the copy
	// Of is the index of the original the query was made from; for an
	// original (editNone), its own index.
	Of int
}

// queries returns every query of the corpus: each original against the
// others, then each copy.
func queries(c labelledCorpus) []query {
	out := make([]query, 0, len(c.Originals)+len(c.Copies))
	for i, o := range c.Originals {
		out = append(out, query{Doc: doc(o.Title, o.Body), Band: o.Band, Edit: editNone, Of: i})
	}
	for _, cp := range c.Copies {
		out = append(out, query{Doc: doc(cp.Title, cp.Body), Band: c.Originals[cp.Of].Band, Edit: cp.Edit, Of: cp.Of})
	}
	return out
}

func doc(title, body string) fingerprint.Document {
	return fingerprint.Document{Title: title, Body: body}
}

// forEachPair calls fn once for every (query, stored original) pair the
// evaluation counts: every query against every stored original, except an
// original against itself. dup is the ground truth: the stored article is
// the one the query was copied from.
func forEachPair(qs []query, stored int, fn func(q, s int, dup bool)) {
	for qi, q := range qs {
		for s := range stored {
			if q.Edit == editNone && s == q.Of {
				continue
			}
			fn(qi, s, q.Edit != editNone && s == q.Of)
		}
	}
}
