package fingerprint

import (
	"os"
	"path/filepath"
	"testing"
)

// TestJenkins64 pins jenkins64 to yanyiwu/simhash: the hash of a 7.8 KB
// input that its own tests assert, and the hashes of the five keywords of
// that input (yanyiwu_test.go checks the keywords themselves).
func TestJenkins64(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "yanyiwu", "news_content.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := jenkins64(data), uint64(13697483439902700582); got != want {
		t.Errorf("jenkins64(news_content.txt) = %d, want %d", got, want)
	}
	words := []struct {
		word string
		want uint64
	}{
		{"日军", 15142046212652221781},
		{"集团军", 2117559126361955906},
		{"10", 14814508906697812479},
		{"地区", 13004687738940023035},
		{"攻占", 18264030747823598625},
	}
	for _, w := range words {
		if got := jenkins64([]byte(w.word)); got != w.want {
			t.Errorf("jenkins64(%q) = %d, want %d", w.word, got, w.want)
		}
	}
}

// Every length from 0 to 40 bytes takes its own path through the tail of
// hashlittle2 (12-byte blocks, 1–12 trailing bytes); the hash must depend on
// every byte and on the length.
func TestJenkins64Lengths(t *testing.T) {
	seen := make(map[uint64]int)
	buf := make([]byte, 40)
	for i := range buf {
		buf[i] = byte(i*37 + 11)
	}
	for n := 0; n <= len(buf); n++ {
		h := jenkins64(buf[:n])
		if m, dup := seen[h]; dup {
			t.Errorf("jenkins64 of the first %d and %d bytes are equal: %x", m, n, h)
		}
		seen[h] = n
		for i := 0; i < n; i++ {
			flipped := append([]byte(nil), buf[:n]...)
			flipped[i] ^= 1
			if jenkins64(flipped) == h {
				t.Errorf("jenkins64 of %d bytes ignores byte %d", n, i)
			}
		}
	}
	// hashlittle2 of the empty input with seeds 0: lookup3.c's driver prints
	// deadbeef deadbeef for it.
	if got := jenkins64(nil); got != 0xdeadbeef_deadbeef {
		t.Errorf("jenkins64(nil) = %x, want deadbeefdeadbeef", got)
	}
}
