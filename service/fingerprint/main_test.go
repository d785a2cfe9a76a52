package fingerprint_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"sync"
	"testing"

	"github.com/newsdedup/newsdedup/internal/corpus"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// dict is loaded once for the whole test binary: loading takes about half a
// second and holds the dictionaries in C memory.
var dict *fingerprint.Dictionary

func TestMain(m *testing.M) {
	d, err := fingerprint.Load(fingerprint.DefaultDictDir())
	if err != nil {
		fmt.Fprintln(os.Stderr, "load dictionary:", err)
		os.Exit(1)
	}
	dict = d
	code := m.Run()
	d.Close()
	os.Exit(code)
}

var (
	novelOnce sync.Once
	novel     *corpus.Novel
	novelErr  error
)

// mustNovel returns 围城, read once per test binary.
func mustNovel(tb testing.TB) *corpus.Novel {
	tb.Helper()
	novelOnce.Do(func() { novel, novelErr = corpus.LoadNovel() })
	if novelErr != nil {
		tb.Fatalf("LoadNovel() = %v", novelErr)
	}
	return novel
}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x73696d68)) }

// mustFingerprint returns alg's fingerprint of doc, failing the test on an error.
func mustFingerprint(tb testing.TB, alg fingerprint.Algorithm, doc fingerprint.Document) fingerprint.Fingerprint {
	tb.Helper()
	fp, err := alg.Fingerprint(context.Background(), doc)
	if err != nil {
		tb.Fatalf("Fingerprint(%.60q) = %v", doc.Body, err)
	}
	return fp
}
