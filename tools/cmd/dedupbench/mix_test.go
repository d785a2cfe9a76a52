package main

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

func TestPlanMix(t *testing.T) {
	t.Parallel()
	tests := []struct {
		n, real int
		want    Mix
	}{
		{100_000, 20_000, Mix{N: 100_000, Real: 20_000, Variants: 40_000, Random: 40_000}},
		{1_000_000, 20_000, Mix{N: 1_000_000, Real: 20_000, Variants: 40_000, Random: 940_000}},
		{5_000_000, 20_000, Mix{N: 5_000_000, Real: 20_000, Variants: 40_000, Random: 4_940_000}},
		{2_000, 20_000, Mix{N: 2_000, Real: 400, Variants: 800, Random: 800}},
		{2_010, 20_000, Mix{N: 2_010, Real: 400, Variants: 800, Random: 810}}, // whole groups only
		{10, 4, Mix{N: 10, Real: 0, Variants: 0, Random: 10}},
	}
	for _, tt := range tests {
		got := planMix(tt.n, tt.real, groupSize)
		if got != tt.want {
			t.Errorf("planMix(%d, %d) = %+v, want %+v", tt.n, tt.real, got, tt.want)
		}
		if got.Real+got.Variants+got.Random != tt.n {
			t.Errorf("planMix(%d, %d) = %+v: kinds add up to %d", tt.n, tt.real, got, got.Real+got.Variants+got.Random)
		}
	}
}

func TestMakeRows(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	real := make([]uint64, 400)
	for i := range real {
		real[i] = rng.Uint64()
	}
	m := planMix(5_000, len(real), groupSize)
	rows := makeRows(rng, m, real)
	if len(rows) != m.N {
		t.Fatalf("makeRows(%+v) gave %d rows", m, len(rows))
	}
	count := map[byte]int{}
	seen := map[int32]bool{}
	flips := map[int]int{}
	for _, r := range rows {
		count[r.Kind]++
		switch r.Kind {
		case kindReal:
			if r.Simhash != real[r.Base] {
				t.Errorf("real row %d has simhash %x, want %x", r.Base, r.Simhash, real[r.Base])
			}
			if seen[r.Base] {
				t.Errorf("real row %d twice", r.Base)
			}
			seen[r.Base] = true
		case kindVariant:
			d := bits.OnesCount64(r.Simhash ^ real[r.Base])
			if d < 1 || d > 5 || d != int(r.Flipped) {
				t.Errorf("variant of real row %d is %d bits away (flipped %d), want 1–5", r.Base, d, r.Flipped)
			}
			flips[d]++
		case kindRandom:
			if r.Base != -1 {
				t.Errorf("random row with base %d", r.Base)
			}
		}
	}
	if count[kindReal] != m.Real || count[kindVariant] != m.Variants || count[kindRandom] != m.Random {
		t.Errorf("makeRows(%+v) gave %d real, %d variants, %d random", m, count[kindReal], count[kindVariant], count[kindRandom])
	}
	for d := 1; d <= 5; d++ {
		if flips[d] < m.Variants/10 {
			t.Errorf("%d variants %d bits away out of %d, want about a fifth", flips[d], d, m.Variants)
		}
	}
	// Shuffled: the real rows are not all at the front.
	if rows[0].Kind == kindReal && rows[1].Kind == kindReal && rows[2].Kind == kindReal && rows[3].Kind == kindReal {
		t.Error("the rows do not look shuffled")
	}
}

func TestFlipBits(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	for k := 0; k <= 64; k++ {
		h := rng.Uint64()
		if d := bits.OnesCount64(flipBits(rng, h, k) ^ h); d != k {
			t.Errorf("flipBits(_, %d) flipped %d bits", k, d)
		}
	}
}

func TestParseTiers(t *testing.T) {
	t.Parallel()
	got, err := parseTiers("1m, 100k,5m,1m,2000")
	want := []int{2_000, 100_000, 1_000_000, 5_000_000}
	if err != nil || len(got) != len(want) {
		t.Fatalf(`parseTiers("1m, 100k,5m,1m,2000") = %v, %v; want %v`, got, err, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf(`parseTiers(…)[%d] = %d, want %d`, i, got[i], want[i])
		}
	}
	for _, bad := range []string{"", "x", "-1k", "0", "1g"} {
		if _, err := parseTiers(bad); err == nil {
			t.Errorf("parseTiers(%q) = nil error, want one", bad)
		}
	}
	for n, want := range map[int]string{100_000: "100k", 1_000_000: "1m", 5_000_000: "5m", 2_000: "2k", 1234: "1234"} {
		if got := tierLabel(n); got != want {
			t.Errorf("tierLabel(%d) = %q, want %q", n, got, want)
		}
	}
	if got := tierFor([]int{100_000, 1_000_000, 5_000_000}, 1_000_000); got != 1_000_000 {
		t.Errorf("tierFor(…, 1m) = %d", got)
	}
	if got := tierFor([]int{2_000}, 1_000_000); got != 2_000 {
		t.Errorf("tierFor([2000], 1m) = %d", got)
	}
	if got := tierFor([]int{1_000_000, 5_000_000}, 100_000); got != 1_000_000 {
		t.Errorf("tierFor([1m 5m], 100k) = %d", got)
	}
}
