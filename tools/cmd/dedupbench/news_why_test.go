package main

import (
	"strings"
	"testing"
)

// The sentence on the fingerprint's cost of sentences reads the two rates
// the right way round, the faster one included: on a shared machine the
// run with more work can come out ahead.
func TestSentenceFingerprintCost(t *testing.T) {
	if got := sentenceFingerprintCost(1534, 1831); !strings.Contains(got, "slows from 1,831 to 1,534") {
		t.Errorf("slower with sentences: %q", got)
	}
	got := sentenceFingerprintCost(1121, 1096)
	if strings.Contains(got, "slows") || !strings.Contains(got, "1,121 articles/s against 1,096 without") {
		t.Errorf("faster with sentences: %q", got)
	}
}
