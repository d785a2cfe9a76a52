package main

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
)

// table is a Markdown table: the first column left-aligned, the others
// right-aligned (they hold figures).
type table struct {
	head []string
	rows [][]string
}

func newTable(head ...string) *table { return &table{head: head} }

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

func (t *table) write(w io.Writer) {
	fmt.Fprintf(w, "| %s |\n", strings.Join(t.head, " | "))
	align := make([]string, len(t.head))
	for i := range align {
		align[i] = "---:"
	}
	align[0] = "---"
	fmt.Fprintf(w, "| %s |\n", strings.Join(align, " | "))
	for _, r := range t.rows {
		fmt.Fprintf(w, "| %s |\n", strings.Join(r, " | "))
	}
	fmt.Fprintln(w)
}

// f3 formats a rate with three decimals, or a dash when it is undefined.
func f3(x float64) string {
	if math.IsNaN(x) {
		return "–"
	}
	return fmt.Sprintf("%.3f", x)
}

// pct formats a share as a percentage with two decimals.
func pct(x float64) string {
	if math.IsNaN(x) {
		return "–"
	}
	return fmt.Sprintf("%.2f %%", 100*x)
}

// recallOf formats a recall with its counts: "0.994 (158/159)".
func recallOf(c confusion) string {
	if c.TP+c.FN == 0 {
		return "–"
	}
	return fmt.Sprintf("%s (%d/%d)", f3(c.Recall()), c.TP, c.TP+c.FN)
}

// precisionOf formats a precision with its false positives: "1.000 (0 FP)".
func precisionOf(c confusion) string {
	if c.TP+c.FP == 0 {
		return "–"
	}
	return fmt.Sprintf("%s (%d FP)", f3(c.Precision()), c.FP)
}

// editName is how the report names an edit.
func editName(e string) string {
	switch e {
	case editNone:
		return "none (original vs the other originals)"
	case editExact:
		return "exact (sanity)"
	}
	return e
}

// writeMarkdown writes the report of ev to path.
func writeMarkdown(path string, ev *evaluation) error {
	var b bytes.Buffer
	writeHeader(&b, ev)
	writeSummary(&b, ev)
	writeCorpus(&b, ev)
	writeMethod(&b, ev)
	writeResults(&b, ev)
	writeTrgm(&b, ev)
	writeChoice(&b, ev)
	writeLimits(&b, ev)
	return os.WriteFile(path, b.Bytes(), 0o644)
}
