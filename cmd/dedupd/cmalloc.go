package main

// gojieba (cppjieba) allocates in C: its dictionary and every segmentation's
// words live in glibc's heap, which neither the Go runtime's metrics nor a
// Go heap profile see. A leak there shows in this gauge and in the RSS only.

/*
#include <malloc.h>
*/
import "C"

import "github.com/prometheus/client_golang/prometheus"

// cHeapBytes returns the bytes glibc's malloc has handed out and not yet
// had back: uordblks (in use in the arenas, every arena counted) plus
// hblkhd (large blocks mapped on their own). mallinfo2 (glibc 2.33 and
// later) locks each arena for a moment: cheap at a scrape's pace.
func cHeapBytes() float64 {
	mi := C.mallinfo2()
	return float64(mi.uordblks) + float64(mi.hblkhd)
}

// newCHeapGauge returns the gauge newsdedup_c_heap_bytes, read at each
// scrape.
func newCHeapGauge() prometheus.GaugeFunc {
	return prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "newsdedup_c_heap_bytes",
		Help: "Bytes of the C heap in use (glibc mallinfo2: uordblks + hblkhd), where gojieba allocates.",
	}, cHeapBytes)
}
