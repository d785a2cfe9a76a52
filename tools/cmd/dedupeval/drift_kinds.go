package main

import "fmt"

// holdsShare is the share of one body's 5-grams another must hold for the
// diagnosis of a drifted member to say it holds it.
const holdsShare = 0.8

// driftKind says what a drifted member m of the cluster whose original is
// orig is, for the diagnosis of drift (issue 36): its verdict; whether it
// links to the original itself or to another member (a chain); whether it
// holds the article it links to (an expansion or a compilation: it holds at
// least holdsShare of its match's 5-grams), is an excerpt of it (its match
// holds at least holdsShare of its own) or neither; and, for a partial
// duplicate, the service's coverage of the link by tenths.
func driftKind(s *newsSet, st *stored, m, orig int) string {
	a := &st.Articles[m]
	link := "no link"
	to, ok := st.indexOf(a.DuplicateOf)
	switch {
	case !ok:
	case to == orig:
		link = "links to the original"
	default:
		link = "links to another member"
	}
	what := "neither"
	if ok {
		shared := float64(s.Grams[m].shared(s.Grams[to]))
		switch holds, held := shared >= holdsShare*float64(len(s.Grams[to])), shared >= holdsShare*float64(len(s.Grams[m])); {
		case holds && held:
			what = "alike"
		case holds:
			what = "holds its match"
		case held:
			what = "excerpt of its match"
		}
	}
	cov := ""
	if c := a.Coverage; c != nil {
		cov = fmt.Sprintf(", coverage this %.1f that %.1f", tenth(c.This), tenth(c.That))
	}
	return fmt.Sprintf("%s, %s, %s%s", a.Status, link, what, cov)
}

// tenth rounds a share down to a tenth.
func tenth(v float64) float64 { return float64(int(v*10)) / 10 }
