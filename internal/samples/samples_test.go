package samples_test

import (
	"context"
	"testing"

	"github.com/newsdedup/newsdedup/internal/samples"
	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// TestRepostsAreNearDuplicates holds the samples to what their users rely
// on: every repost matches its story by the default options, and no two
// stories match.
func TestRepostsAreNearDuplicates(t *testing.T) {
	d, err := fingerprint.Load(fingerprint.DefaultDictDir())
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	alg := fingerprint.NewWeighted(d, fingerprint.DefaultWeightedParams)
	opts := service.DefaultOptions
	fp := func(title, body string) fingerprint.Fingerprint {
		t.Helper()
		f, err := alg.Fingerprint(context.Background(), fingerprint.Document{Title: title, Body: body})
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	near := func(a, b fingerprint.Fingerprint) (bool, int, float64) {
		aInB, bInA := fingerprint.Coverage(a.Shingles, b.Shingles)
		dist := fingerprint.Distance(a.Simhash, b.Simhash)
		// A near duplicate shares most of both texts, neither holding the
		// other plus much more (service/rules_near.go).
		o, held := min(aInB, bInA), max(aInB, bInA)
		return dist <= opts.MaxDistance && o >= opts.MinOverlap && !(held >= service.HoldShare && o < service.HoldShare), dist, o
	}
	var originals []fingerprint.Fingerprint
	for i, s := range samples.Stories {
		o := fp(s.Title, s.Body)
		originals = append(originals, o)
		for name, body := range map[string]string{"repost": s.Repost(), "shortened": s.Shortened(), "hostile": s.Hostile()} {
			if ok, dist, overlap := near(o, fp(s.Title, body)); !ok {
				t.Errorf("story %d, %s: distance %d, overlap %.2f; want a near duplicate", i, name, dist, overlap)
			}
		}
	}
	for i := range originals {
		for j := i + 1; j < len(originals); j++ {
			if ok, dist, _ := near(originals[i], originals[j]); ok {
				t.Errorf("stories %d and %d match (distance %d)", i, j, dist)
			}
		}
	}
}
