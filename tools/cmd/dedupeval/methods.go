package main

import (
	"fmt"
	"strconv"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// simhashMethod is one fingerprint algorithm with one set of parameters.
type simhashMethod struct {
	Name      string  `json:"name"`
	Algorithm string  `json:"algorithm"` // "weighted" or "yanyiwu"
	Exponent  float64 `json:"exponent,omitempty"`
	TopN      int     `json:"top_n"` // 0: every counted word
	Title     float64 `json:"title_weight,omitempty"`
}

// newAlgorithm returns the fingerprint algorithm the method describes.
func (m simhashMethod) newAlgorithm(d *fingerprint.Dictionary) fingerprint.Algorithm {
	if m.Algorithm == "yanyiwu" {
		return fingerprint.NewYanyiwu(d, m.TopN)
	}
	return fingerprint.NewWeighted(d, fingerprint.WeightedParams{Exponent: m.Exponent, TitleWeight: m.Title, TopN: m.TopN})
}

// isDefault tells whether the method is what the fingerprint package
// currently ships as its default for the algorithm.
func (m simhashMethod) isDefault() bool {
	if m.Algorithm == "yanyiwu" {
		return m.TopN == fingerprint.DefaultYanyiwuTopN
	}
	p := fingerprint.DefaultWeightedParams
	return m.Exponent == p.Exponent && m.TopN == p.TopN && m.Title == p.TitleWeight
}

// The parameters the evaluation sweeps.
var (
	weightedExponents = []float64{1, 1.5, 2, 3}
	weightedTopNs     = []int{0, 64}
	weightedTitles    = []float64{1, 2}
	yanyiwuTopNs      = []int{5, 20, 50, 100}
)

// simhashMethods returns every method evaluated: Weighted over the grid of
// its parameters, then Yanyiwu with several top N.
func simhashMethods() []simhashMethod {
	var out []simhashMethod
	for _, e := range weightedExponents {
		for _, n := range weightedTopNs {
			for _, t := range weightedTitles {
				out = append(out, simhashMethod{
					Name:      fmt.Sprintf("weighted e=%s top=%s title=%s", fmtFloat(e), topName(n), fmtFloat(t)),
					Algorithm: "weighted", Exponent: e, TopN: n, Title: t,
				})
			}
		}
	}
	for _, n := range yanyiwuTopNs {
		out = append(out, simhashMethod{Name: fmt.Sprintf("yanyiwu top=%d", n), Algorithm: "yanyiwu", TopN: n})
	}
	return out
}

func topName(n int) string {
	if n == 0 {
		return "all"
	}
	return strconv.Itoa(n)
}

func fmtFloat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
