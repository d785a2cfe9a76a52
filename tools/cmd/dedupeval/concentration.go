package main

import (
	"context"
	"math"
	"slices"
	"strings"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// concentration explains the candidate load: how much of an original's
// fingerprint its single heaviest word decides, for one exponent. When one
// word carries a large share of the folded weight, every article whose
// heaviest word it is gets nearly that word's hash as its fingerprint, and
// unrelated articles about the same person land within a few bits.
type concentration struct {
	Exponent float64 `json:"exponent"`
	// TopShare is the mean share of the folded weight (TF-IDF raised to the
	// exponent) that the heaviest word carries.
	TopShare float64 `json:"top_share"`
	// Leaders are the words that are most often an original's heaviest, with
	// the share of originals each one leads.
	Leaders []leader `json:"leaders"`
}

type leader struct {
	Word  string  `json:"word"`
	Share float64 `json:"share"`
}

// concentrations measures the originals under Weighted with every exponent
// evaluated, all words and title weight 1.
func concentrations(d *fingerprint.Dictionary, c labelledCorpus) []concentration {
	var out []concentration
	for _, e := range weightedExponents {
		alg := fingerprint.NewWeighted(d, fingerprint.WeightedParams{Exponent: e, TitleWeight: 1})
		counts := make(map[string]int)
		sum, n := 0.0, 0
		for _, o := range c.Originals {
			fp, err := alg.Fingerprint(context.Background(), doc(o.Title, o.Body))
			if err != nil || len(fp.Keywords) == 0 {
				continue
			}
			total := 0.0
			for _, k := range fp.Keywords {
				total += math.Pow(k.Weight, e)
			}
			sum += math.Pow(fp.Keywords[0].Weight, e) / total
			counts[fp.Keywords[0].Word]++
			n++
		}
		if n == 0 {
			continue
		}
		var leaders []leader
		for w, k := range counts {
			leaders = append(leaders, leader{Word: w, Share: float64(k) / float64(n)})
		}
		slices.SortFunc(leaders, func(a, b leader) int {
			if a.Share != b.Share {
				if a.Share > b.Share {
					return -1
				}
				return 1
			}
			return strings.Compare(a.Word, b.Word)
		})
		out = append(out, concentration{Exponent: e, TopShare: sum / float64(n), Leaders: leaders[:min(len(leaders), 4)]})
	}
	return out
}
