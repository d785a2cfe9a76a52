package fingerprint

import (
	"encoding/binary"
	"math/bits"
)

// jenkins64 is the word hash of yanyiwu/simhash: Bob Jenkins' lookup3
// hashlittle2 over the bytes with both seeds 0, returned as (pc << 32) | pb.
// It is written here (60 lines, public-domain algorithm) because the only Go
// module found that exports hashlittle2 is a single v0.0.1 release with no
// importers. TestJenkins64 pins it to the value yanyiwu/simhash's own tests
// assert for a 7.8 KB input, and the keyword vectors cover short words.
func jenkins64(data []byte) uint64 {
	pc, pb := hashlittle2(data, 0, 0)
	return uint64(pc)<<32 | uint64(pb)
}

// hashlittle2 is lookup3.c's hashlittle2 for little-endian byte order. Every
// path of the C code (aligned words, half-words, bytes) gives this result.
func hashlittle2(key []byte, pc, pb uint32) (uint32, uint32) {
	a := 0xdeadbeef + uint32(len(key)) + pc
	b, c := a, a+pb
	if len(key) == 0 {
		return c, b
	}
	for len(key) > 12 {
		a += binary.LittleEndian.Uint32(key[0:])
		b += binary.LittleEndian.Uint32(key[4:])
		c += binary.LittleEndian.Uint32(key[8:])
		a, b, c = mix(a, b, c)
		key = key[12:]
	}
	// The last 1–12 bytes, zero-padded: adding zero bytes is what the C
	// switch's fall-through does.
	var tail [12]byte
	copy(tail[:], key)
	a += binary.LittleEndian.Uint32(tail[0:])
	b += binary.LittleEndian.Uint32(tail[4:])
	c += binary.LittleEndian.Uint32(tail[8:])
	_, b, c = final(a, b, c) // hashlittle2 returns c and b
	return c, b
}

func mix(a, b, c uint32) (uint32, uint32, uint32) {
	a -= c
	a ^= bits.RotateLeft32(c, 4)
	c += b
	b -= a
	b ^= bits.RotateLeft32(a, 6)
	a += c
	c -= b
	c ^= bits.RotateLeft32(b, 8)
	b += a
	a -= c
	a ^= bits.RotateLeft32(c, 16)
	c += b
	b -= a
	b ^= bits.RotateLeft32(a, 19)
	a += c
	c -= b
	c ^= bits.RotateLeft32(b, 4)
	b += a
	return a, b, c
}

func final(a, b, c uint32) (uint32, uint32, uint32) {
	c ^= b
	c -= bits.RotateLeft32(b, 14)
	a ^= c
	a -= bits.RotateLeft32(c, 11)
	b ^= a
	b -= bits.RotateLeft32(a, 25)
	c ^= b
	c -= bits.RotateLeft32(b, 16)
	a ^= c
	a -= bits.RotateLeft32(c, 4)
	b ^= a
	b -= bits.RotateLeft32(a, 14)
	c ^= b
	c -= bits.RotateLeft32(b, 24)
	return a, b, c
}
