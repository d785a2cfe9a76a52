package fingerprint_test

import (
	"math/bits"
	"testing"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

func TestFamiliesCoverAllBitsOnce(t *testing.T) {
	families := []struct {
		name  string
		masks [4]uint64
	}{{"A", fingerprint.FamilyA}, {"B", fingerprint.FamilyB}}
	for _, f := range families {
		var union uint64
		for i, m := range f.masks {
			if n := bits.OnesCount64(m); n != 16 {
				t.Errorf("Family%s[%d] = %016x has %d bits, want 16", f.name, i, m, n)
			}
			for j := i + 1; j < len(f.masks); j++ {
				if both := m & f.masks[j]; both != 0 {
					t.Errorf("Family%s[%d] and [%d] share bits %016x", f.name, i, j, both)
				}
			}
			union |= m
		}
		if union != ^uint64(0) {
			t.Errorf("Family%s covers %016x, want all 64 bits", f.name, union)
		}
	}
}

// Every A-block shares exactly four bits with every B-block, so that no
// single block of one family lies inside a block of the other.
func TestFamiliesInterleave(t *testing.T) {
	for i, a := range fingerprint.FamilyA {
		for j, b := range fingerprint.FamilyB {
			if n := bits.OnesCount64(a & b); n != 4 {
				t.Errorf("FamilyA[%d] & FamilyB[%d] = %016x has %d bits, want 4", i, j, a&b, n)
			}
		}
	}
}

// deposit spreads the low bits of v over the set bits of mask, lowest first:
// the inverse of how BlocksOf packs a block.
func deposit(v uint16, mask uint64) uint64 {
	var h uint64
	for k := 0; mask != 0; k++ {
		i := bits.TrailingZeros64(mask)
		h |= uint64(v>>k&1) << i
		mask &= mask - 1
	}
	return h
}

func TestBlocksOfRoundTrip(t *testing.T) {
	rng := newRand(1)
	values := []uint64{0, ^uint64(0), 1, 1 << 63, 0x8f3a0c11d2e4b7a9, 0x5555555555555555, 0xaaaaaaaaaaaaaaaa}
	for range 10_000 {
		values = append(values, rng.Uint64())
	}
	for _, h := range values {
		b := fingerprint.BlocksOf(h)
		var fromA, fromB uint64
		for j := range 4 {
			fromA |= deposit(b.A[j], fingerprint.FamilyA[j])
			fromB |= deposit(b.B[j], fingerprint.FamilyB[j])
		}
		if fromA != h || fromB != h {
			t.Fatalf("BlocksOf(%016x) = %04x; rebuilt from A: %016x, from B: %016x", h, b, fromA, fromB)
		}
	}
	// A block holds its mask's bits in order, the lowest bit first.
	if b := fingerprint.BlocksOf(0x000F_0000_0000_0001); b.A[0] != 0xF001 || b.B[0] != 0x1001 {
		t.Errorf("BlocksOf(000f000000000001).A[0], .B[0] = %04x, %04x, want f001, 1001", b.A[0], b.B[0])
	}
}

// The pigeonhole property the index relies on: two fingerprints within
// distance 3 agree on at least one A-block and at least one B-block.
func TestPigeonhole(t *testing.T) {
	rng := newRand(2)
	for n := range 200_000 {
		h := rng.Uint64()
		other := h
		k := n % (fingerprint.MaxIndexedDistance + 1)
		for fingerprint.Distance(h, other) < k {
			other ^= 1 << rng.IntN(64)
		}
		if d := fingerprint.Distance(h, other); d != k {
			t.Fatalf("Distance(%016x, %016x) = %d, want %d", h, other, d, k)
		}
		a, b := fingerprint.BlocksOf(h), fingerprint.BlocksOf(other)
		sameA, sameB := false, false
		for j := range 4 {
			sameA = sameA || a.A[j] == b.A[j]
			sameB = sameB || a.B[j] == b.B[j]
		}
		if !sameA || !sameB {
			t.Fatalf("%016x and %016x at distance %d: an equal A-block %v, an equal B-block %v; want both",
				h, other, k, sameA, sameB)
		}
	}
	// Adversarial: three flipped bits in three different A-blocks and three
	// different B-blocks, for every choice of blocks.
	for i := range 64 {
		for j := i + 1; j < 64; j++ {
			for k := j + 1; k < 64; k++ {
				h := rng.Uint64()
				other := h ^ (1 << i) ^ (1 << j) ^ (1 << k)
				a, b := fingerprint.BlocksOf(h), fingerprint.BlocksOf(other)
				sameA, sameB := false, false
				for m := range 4 {
					sameA = sameA || a.A[m] == b.A[m]
					sameB = sameB || a.B[m] == b.B[m]
				}
				if !sameA || !sameB {
					t.Fatalf("bits %d, %d, %d flipped: an equal A-block %v, an equal B-block %v; want both", i, j, k, sameA, sameB)
				}
			}
		}
	}
}

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b uint64
		want int
	}{
		{0, 0, 0},
		{0, ^uint64(0), 64},
		{0xff, 0x0f, 4},
		{1 << 63, 1, 2},
	}
	for _, tt := range tests {
		if got := fingerprint.Distance(tt.a, tt.b); got != tt.want {
			t.Errorf("Distance(%x, %x) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := fingerprint.Distance(tt.b, tt.a); got != tt.want {
			t.Errorf("Distance(%x, %x) = %d, want %d", tt.b, tt.a, got, tt.want)
		}
	}
}
