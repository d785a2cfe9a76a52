package main

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// TestCHeapGauge checks that newsdedup_c_heap_bytes sees gojieba's memory:
// a loaded dictionary holds tens of MiB in the C heap.
func TestCHeapGauge(t *testing.T) {
	before := cHeapBytes()
	d, err := fingerprint.Load(fingerprint.DefaultDictDir())
	if err != nil {
		t.Fatal(err)
	}
	loaded := cHeapBytes()
	d.Close()
	if loaded-before < 10<<20 {
		t.Errorf("C heap %.0f bytes before loading a dictionary, %.0f after: want it to grow by more than 10 MiB", before, loaded)
	}

	reg := prometheus.NewRegistry()
	reg.MustRegister(newCHeapGauge())
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	if len(families) != 1 || families[0].GetName() != "newsdedup_c_heap_bytes" || families[0].GetMetric()[0].GetGauge().GetValue() <= 0 {
		t.Errorf("the registry gathers %v, want newsdedup_c_heap_bytes > 0", families)
	}
}
