package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// The sweep measures a few settings of the fingerprint and its verifier at
// the fingerprint level, offline, on the same articles and reposts as the
// service — the decision the service makes, without the database: a pair is
// linked when its fingerprints are within 3 bits, it shares min_overlap of
// the shorter text (sampled shingles) and it was published within the
// window, or when it is an exact copy. The figures of every setting feed the
// rule (choose.go) that picks the defaults.

// The settings swept. Every other parameter is the shipped one's.
var (
	sweepExponents = []float64{3, 5, 6}
	sweepCaps      = []float64{0, 0.3}
	sweepOverlaps  = []float64{0.4, 0.5, 0.6}
)

// fpSetting is a fingerprint's parameters in the sweep.
type fpSetting struct {
	Exponent float64 `json:"exponent"`
	Cap      float64 `json:"weight_cap"`
}

func (s fpSetting) params() fingerprint.WeightedParams {
	p := fingerprint.DefaultWeightedParams
	p.Exponent, p.WeightCap = s.Exponent, s.Cap
	return p
}

// shippedSetting is the fingerprint and verifier the service ships.
func shippedSetting() (fpSetting, float64) {
	p := fingerprint.DefaultWeightedParams
	return fpSetting{Exponent: p.Exponent, Cap: p.WeightCap}, service.DefaultOptions.MinOverlap
}

// sweepPoint is one setting's figures.
type sweepPoint struct {
	fpSetting
	MinOverlap float64 `json:"min_overlap"`
	Shipped    bool    `json:"shipped"`
	Figures    figures `json:"figures"`
	// Misses says why the reposts missed were missed, by edit;
	// NaturalMisses why the natural pairs within the window were, by class.
	Misses        map[string]missCount `json:"repost_misses"`
	NaturalMisses map[string]missCount `json:"natural_misses"`
}

// missCount splits the copies a setting misses by the test they fail.
type missCount struct {
	Far        int `json:"distance_over_3"`     // fingerprints more than 3 bits apart
	LowOverlap int `json:"overlap_below_limit"` // within 3 bits, too little shared text
}

// sweepResult is every point, in the grid's order.
type sweepResult struct {
	Points  []sweepPoint `json:"points"`
	Chosen  int          `json:"chosen"`
	Seconds float64      `json:"seconds"`
}

// shipped returns the point of the shipped setting.
func (r *sweepResult) shipped() (sweepPoint, bool) {
	for _, p := range r.Points {
		if p.Shipped {
			return p, true
		}
	}
	return sweepPoint{}, false
}

// sweepGrid returns the settings to measure: the whole grid, or the shipped
// one alone.
func sweepGrid(full bool) (settings []fpSetting, overlaps []float64) {
	if !full {
		s, o := shippedSetting()
		return []fpSetting{s}, []float64{o}
	}
	for _, e := range sweepExponents {
		for _, c := range sweepCaps {
			settings = append(settings, fpSetting{Exponent: e, Cap: c})
		}
	}
	return settings, sweepOverlaps
}

// runSweep measures every setting on the articles and the reposts.
func runSweep(ctx context.Context, d *fingerprint.Dictionary, s *newsSet, reposts []repost, full bool, workers int, progress io.Writer) (sweepResult, error) {
	start := time.Now()
	docs := make([]fingerprint.Document, 0, len(s.Articles)+len(reposts))
	for i := range s.Articles {
		docs = append(docs, fingerprint.Document{Title: s.Articles[i].Title, Body: s.Articles[i].Body})
	}
	for _, r := range reposts {
		docs = append(docs, fingerprint.Document{Title: r.Title, Body: r.Body})
	}
	shipped, shippedOverlap := shippedSetting()
	settings, overlaps := sweepGrid(full)
	var res sweepResult
	var txt *texts
	for _, set := range settings {
		keep := (*texts)(nil)
		if txt == nil {
			keep = &texts{}
		}
		sigs, err := fingerprintAll(ctx, fingerprint.NewWeighted(d, set.params()), docs, workers, keep)
		if err != nil {
			return res, fmt.Errorf("sweep %+v: %w", set, err)
		}
		if keep != nil {
			txt = keep
		}
		m := measureSetting(s, reposts, sigs, txt, overlaps, workers)
		for k, o := range overlaps {
			m[k].fpSetting, m[k].MinOverlap, m[k].Shipped = set, o, set == shipped && o == shippedOverlap
			res.Points = append(res.Points, m[k])
		}
		fmt.Fprintf(progress, "  sweep: exponent %s, cap %s (%v)\n", fmtFloat(set.Exponent), fmtFloat(set.Cap), time.Since(start).Round(time.Second))
	}
	res.Chosen = choose(res.Points)
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// measureSetting returns the figures of one fingerprint at every
// min_overlap (the points' settings left for the caller to fill in). sigs
// and txt hold the articles first, then the reposts.
func measureSetting(s *newsSet, reposts []repost, sigs []signature, txt *texts, overlaps []float64, workers int) []sweepPoint {
	n := len(s.Articles)
	pairs, compared := nearPairs(sigs[:n], workers)

	// The load: unrelated pairs within 3 bits, out of every unrelated pair
	// with fingerprints on both sides.
	var load rate
	related := 0
	for _, p := range s.Labels.Pairs {
		if sigs[p.A].OK && sigs[p.B].OK {
			related++
		}
	}
	load.Of = compared - related
	likenesses := make([]likeness, len(pairs))
	for k, p := range pairs {
		likenesses[k] = s.likeness(int(p.A), int(p.B))
		if likenesses[k].Containment < unrelatedBelow {
			load.Hit++
		}
	}

	out := make([]sweepPoint, len(overlaps))
	for k, minOverlap := range overlaps {
		pt := &out[k]
		pt.Misses, pt.NaturalMisses = make(map[string]missCount), make(map[string]missCount)
		f := &pt.Figures
		f.Load = load
		links := func(i, j, dist int) bool {
			if txt.Content[i] == txt.Content[j] && sigs[i].OK {
				return true // an exact copy, at any time
			}
			return dist <= fingerprint.MaxIndexedDistance && overlap(txt.Shingles[i], txt.Shingles[j]) >= minOverlap
		}
		for x, p := range pairs {
			i, j := int(p.A), int(p.B)
			if s.pairBand(i, j) < 0 {
				continue // a body under 80 characters: no band, no flag counted
			}
			if (inWindow(&s.Articles[i], &s.Articles[j]) || txt.Content[i] == txt.Content[j]) && links(i, j, int(p.Distance)) {
				f.FalseFlags.add(likenesses[x].Containment < unrelatedBelow)
			}
		}
		natural := auditNatural(s, func(p labelledPair) bool {
			within := inWindow(&s.Articles[p.A], &s.Articles[p.B])
			if !sigs[p.A].OK || !sigs[p.B].OK || !within && txt.Content[p.A] != txt.Content[p.B] {
				return false
			}
			dist := fingerprint.Distance(sigs[p.A].Simhash, sigs[p.B].Simhash)
			hit := links(p.A, p.B, dist)
			if !hit && within {
				pt.NaturalMisses[classOf(p)] = pt.NaturalMisses[classOf(p)].plus(dist)
			}
			return hit
		})
		natural.naturalFigures(f)
		f.Reposts = make(map[string][]rate, len(repostEdits))
		for _, e := range repostEdits {
			f.Reposts[e] = make([]rate, len(newsBands))
		}
		for r, rp := range reposts {
			q := n + r
			dist := fingerprint.Distance(sigs[q].Simhash, sigs[rp.Source].Simhash)
			hit := sigs[q].OK && sigs[rp.Source].OK && links(q, rp.Source, dist)
			f.Reposts[rp.Edit][rp.Band].add(hit)
			if !hit {
				if !sigs[q].OK || !sigs[rp.Source].OK {
					dist = fingerprint.MaxIndexedDistance + 1
				}
				pt.Misses[rp.Edit] = pt.Misses[rp.Edit].plus(dist)
			}
		}
	}
	return out
}

// plus counts one more miss at distance dist.
func (m missCount) plus(dist int) missCount {
	if dist > fingerprint.MaxIndexedDistance {
		m.Far++
	} else {
		m.LowOverlap++
	}
	return m
}
