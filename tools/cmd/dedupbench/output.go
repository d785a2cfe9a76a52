package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Output files, in the -out folder.
const (
	reportFile = "benchmarks.md"
	// loadTestFile is the section `make loadtest` (cmd/dedupload) writes,
	// crowdedLoadTestFile `make loadtest-crowded`'s; the report embeds each,
	// in this order, when it is there.
	loadTestFile        = "loadtest.md"
	crowdedLoadTestFile = "loadtest-crowded.md"
	jsonFile            = "benchmarks.json"
	plotFile            = "benchmarks-latency.png"
)

// writeOutputs writes the report, the raw figures and the plot to dir.
func writeOutputs(dir string, r *Results) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("encode results: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, jsonFile), append(data, '\n'), 0o644); err != nil {
		return err
	}
	if err := plotLatency(r, filepath.Join(dir, plotFile)); err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	report := renderReport(r)
	for _, file := range []string{loadTestFile, crowdedLoadTestFile} {
		if section, err := os.ReadFile(filepath.Join(dir, file)); err == nil {
			report += "\n" + string(section)
		}
	}
	return os.WriteFile(filepath.Join(dir, reportFile), []byte(report), 0o644)
}
