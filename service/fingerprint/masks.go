package fingerprint

import "math/bits"

// The two families of block masks. Each family is four masks of 16 bits that
// together cover all 64 bits of a fingerprint, no bit twice, and every block
// of A shares exactly four bits with every block of B:
//
//	A_j holds bit i when ⌊i/4⌋ mod 4 = j (nibble j of every 16-bit lane),
//	B_j holds bit i when i mod 4 = j.
//
// Why two families: a fingerprint within Hamming distance 3 of another
// differs in at most three blocks of a family, so at least one block of A and
// at least one block of B are equal. Asking for a match in both families
// keeps every true match and lets through about (4/65536)² of unrelated
// fingerprints instead of 4/65536 with one family: ~16,000× fewer candidates.
var (
	FamilyA = [4]uint64{
		0x000F_000F_000F_000F,
		0x00F0_00F0_00F0_00F0,
		0x0F00_0F00_0F00_0F00,
		0xF000_F000_F000_F000,
	}
	FamilyB = [4]uint64{
		0x1111_1111_1111_1111,
		0x2222_2222_2222_2222,
		0x4444_4444_4444_4444,
		0x8888_8888_8888_8888,
	}
)

// MaxIndexedDistance is the largest Hamming distance the block index finds
// every match for. Above it the pigeonhole argument no longer holds.
const MaxIndexedDistance = 3

// Blocks are the eight 16-bit block values of a fingerprint: the bits under
// each mask of FamilyA and FamilyB, packed in order from the lowest bit. Two
// fingerprints agree on a block exactly when their block values are equal.
type Blocks struct {
	A, B [4]uint16
}

// BlocksOf returns the block values of simhash h.
func BlocksOf(h uint64) Blocks {
	var b Blocks
	for j := range 4 {
		b.A[j] = extract(h, FamilyA[j])
		b.B[j] = extract(h, FamilyB[j])
	}
	return b
}

// extract packs the bits of h under mask into the low bits of the result,
// keeping their order (the PEXT instruction, written out).
func extract(h, mask uint64) uint16 {
	var out uint16
	for k := 0; mask != 0; k++ {
		i := bits.TrailingZeros64(mask)
		out |= uint16(h>>i&1) << k
		mask &= mask - 1
	}
	return out
}

// Distance is the Hamming distance between two fingerprints: how many of
// their 64 bits differ.
func Distance(a, b uint64) int { return bits.OnesCount64(a ^ b) }
