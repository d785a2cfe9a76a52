package main

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
)

// table is a Markdown table: its first columns (one unless left says
// more) left-aligned, the others right-aligned (they hold figures).
type table struct {
	head []string
	rows [][]string
	left int
}

func newTable(head ...string) *table { return &table{head: head, left: 1} }

// leftAligned makes the first n columns left-aligned: they hold text.
func (t *table) leftAligned(n int) *table {
	t.left = n
	return t
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

func (t *table) write(w io.Writer) {
	fmt.Fprintf(w, "| %s |\n", strings.Join(t.head, " | "))
	align := make([]string, len(t.head))
	for i := range align {
		align[i] = "---:"
		if i < t.left {
			align[i] = "---"
		}
	}
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

// fmtFloat writes a float with as few digits as it needs.
func fmtFloat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// joinShort joins the first n items with "; ", saying how many more there
// are.
func joinShort(items []string, n int) string {
	if len(items) <= n {
		return strings.Join(items, "; ")
	}
	return strings.Join(items[:n], "; ") + fmt.Sprintf("; and %d more", len(items)-n)
}

// cell makes text safe in a table cell: a headline may hold a '|'.
func cell(text string) string { return strings.ReplaceAll(text, "|", "\\|") }

// quoted is a headline in quotes, for the examples.
func quoted(title string) string { return "「" + cell(title) + "」" }

// metText is a goal's verdict in a table.
func metText(m *bool) string {
	switch {
	case m == nil:
		return "not measured"
	case *m:
		return "**met**"
	}
	return "**not met**"
}

// writeMarkdown writes the report of ev to path: the summary and the
// goals first, then how it was measured, then every table.
func writeMarkdown(path string, ev *evaluation) error {
	var b bytes.Buffer
	writeHeader(&b, ev)
	writeSummary(&b, ev)
	writeGoals(&b, ev)
	writeMethod(&b, ev)
	if ev.News != nil {
		writeCorpora(&b, ev.News)
		writeNatural(&b, ev.News)
		writePrecision(&b, ev.News)
		writeReposts(&b, ev.News)
		writeDigests(&b, ev.News)
		writeKept(&b, ev.News)
		writeLoad(&b, ev.News)
		writeSentences(&b, ev.News)
		writeEvasion(&b, ev.News)
		writeCredit(&b, ev.News)
	}
	writeNovel(&b, ev)
	if ev.News != nil {
		writeSweep(&b, ev.News)
	}
	writeNotes(&b, ev)
	return os.WriteFile(path, b.Bytes(), 0o644)
}
