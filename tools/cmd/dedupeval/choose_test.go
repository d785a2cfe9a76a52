package main

import "testing"

// synthetic builds the figures of a setting: precise and light or not, and
// every recall figure of issue 9 at recall (out of 1,000).
func synthetic(precise, light bool, recall int) figures {
	f := figures{
		IdenticalOtherTitle: rate{Hit: recall, Of: 1000},
		NearIdentical:       rate{Hit: recall, Of: 1000},
		FalseFlags:          rate{Hit: 1, Of: 1000}, // 0.1 %: within the goal
		Load:                rate{Hit: 1, Of: 10_000},
		Reposts:             make(map[string][]rate),
	}
	if !precise {
		f.FalseFlags.Hit = 50 // 5 %
	}
	if !light {
		f.Load.Hit = 100 // 1 %
	}
	for _, e := range repostEdits {
		for range newsBands {
			f.Reposts[e] = append(f.Reposts[e], rate{Hit: recall, Of: 1000})
		}
	}
	return f
}

func fewerFalse(f figures, n int) figures {
	f.FalseFlags.Hit = n
	return f
}

func lighter(f figures) figures {
	f.Load.Hit = 0
	return f
}

func points(fs ...figures) []sweepPoint {
	out := make([]sweepPoint, len(fs))
	for i, f := range fs {
		out[i] = sweepPoint{Figures: f}
	}
	return out
}

// The rule, step by step: precision and load before recall, the count of
// recall goals met before their mean, and a tie to the earlier setting.
func TestChoose(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		points []sweepPoint
		want   int
	}{
		{"precision and load before recall", points(synthetic(false, true, 1000), synthetic(true, false, 1000), synthetic(true, true, 500)), 2},
		{"precision before load", points(synthetic(false, true, 1000), synthetic(true, false, 900)), 1},
		{"then load", points(synthetic(false, false, 1000), synthetic(false, true, 900)), 1},
		// 995/1000 meets the 99 % goals but not the 100 % one; 1000 meets all.
		{"then the recall goals met", points(synthetic(true, true, 995), synthetic(true, true, 1000)), 1},
		{"then the mean recall", points(synthetic(true, true, 900), synthetic(true, true, 950)), 1},
		{"then the fewer false flags", points(fewerFalse(synthetic(true, true, 990), 2), fewerFalse(synthetic(true, true, 990), 0)), 1},
		{"then the lighter load", points(synthetic(true, true, 990), lighter(synthetic(true, true, 990))), 1},
		{"a tie keeps the earlier", points(synthetic(true, true, 990), synthetic(true, true, 990)), 0},
		{"none", nil, -1},
	}
	for _, tt := range tests {
		if got := choose(tt.points); got != tt.want {
			t.Errorf("%s: choose() = %d, want %d", tt.name, got, tt.want)
		}
	}
}

// More recall goals met beats a higher mean: a setting that meets every
// repost goal is worth more than one that is better on average but meets
// fewer.
func TestChooseCountsGoalsBeforeMean(t *testing.T) {
	t.Parallel()
	meets := synthetic(true, true, 1000) // 8 repost goals met…
	meets.IdenticalOtherTitle = rate{Of: 1000}
	meets.NearIdentical = rate{Of: 1000}  // …and the natural pairs missed: mean 0.8
	average := synthetic(true, true, 980) // 6 goals met (the 95 % and 97 % ones), mean 0.98
	if got := choose(points(average, meets)); got != 1 {
		r0, r1 := rankOf(&average), rankOf(&meets)
		t.Errorf("choose() = %d, want 1 (ranks %+v and %+v)", got, r0, r1)
	}
}
