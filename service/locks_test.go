package service

import (
	"testing"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// TestLockKeyKind names every key an article's writer takes by its kind.
func TestLockKeyKind(t *testing.T) {
	fp := fingerprint.Fingerprint{Simhash: 0xdead_beef_0123_4567, Sentences: []fingerprint.Sentence{{TextHash: 1 << 63}, {TextHash: 7}}}
	content, _ := contentLocks(fp, nil)
	kinds := map[string]int{}
	for _, k := range append(content, keyLock("src", "id"), ClusterLockKey(1<<40)) {
		kinds[k.Kind()]++
	}
	want := map[string]int{"family-A block": 4, "sentence": 2, "article key": 1, "cluster": 1}
	for kind, n := range want {
		if kinds[kind] != n {
			t.Errorf("%d keys of kind %q, want %d (all: %v)", kinds[kind], kind, n, kinds)
		}
	}
	if k := LockKey(0x6e64_7061_7274).Kind(); k != "" {
		t.Errorf("a key of no kind here is %q", k)
	}
}
