package main

import (
	"fmt"
	"io"
	"os"

	"github.com/newsdedup/newsdedup/tools/internal/profstages"
)

// writeStages prints the per-stage table of the batch runs
// (tools/internal/profstages) from the run's CPU profile, after the
// section's Markdown: where dedupd's CPU time an article goes.
func writeStages(w io.Writer, path string, articles int) error {
	if articles == 0 {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	rows, err := profstages.Stages(f)
	if err != nil {
		return fmt.Errorf("read the CPU profile %s: %w", path, err)
	}
	_, err = fmt.Fprintf(w, "### Where this process's CPU time goes, by stage\n\nThe batch runs' samples of the CPU profile (`%s`; fingerprint-only and the peer left out), each under the first stage its stack meets from the leaf (`tools/internal/profstages`), over the %d articles the batch runs sent (sentence index on and off together):\n\n%s\n", path, articles, profstages.Markdown(rows, articles))
	return err
}
