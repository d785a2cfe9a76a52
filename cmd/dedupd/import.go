package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/newsdedup/newsdedup/handlers"
	"github.com/newsdedup/newsdedup/service"
)

// Limits of an import.
const (
	// maxImportLine is the longest line import reads; a longer one is
	// reported and skipped.
	maxImportLine = 8 << 20
	// importChunkArticles is how many articles go to IngestBatch at once:
	// within service.MaxBatch, and small enough that progress moves every
	// second or so (a chunk is stored one article after the other, while the
	// next articles are fingerprinted in parallel, so its size barely changes
	// the throughput).
	importChunkArticles = service.MaxBatch / 4
	// importChunkBytes bounds the text of one chunk of articles sent to
	// IngestBatch, besides service.MaxBatch, so that a file of long articles
	// does not hold a thousand of them in memory at once.
	importChunkBytes = 32 << 20
	// maxReportedProblems is how many bad lines the summary lists.
	maxReportedProblems = 10
)

// lineProblem is a line that was not stored, and why.
type lineProblem struct {
	line   int
	reason string
}

// importStats counts what an import did.
type importStats struct {
	start         time.Time
	bytesDone     int64 // of the input, every line before handled
	articles      int   // non-blank lines read
	processed     int   // articles the service has answered for
	created       int   // stored as new articles or new content
	alreadyStored int   // the same content was stored under the key before
	byStatus      map[service.Status]int
	invalid       int // malformed lines and articles the service refused
	failed        int // articles that met another error
	problems      []lineProblem
}

// progressLine says what the import has done so far.
func (s *importStats) progressLine() string {
	rate := float64(s.processed) / max(time.Since(s.start).Seconds(), 1e-9)
	return fmt.Sprintf("%d lines read, %d articles processed, %d stored, %d invalid, %.1f articles/s",
		s.articles, s.processed, s.created, s.invalid, rate)
}

func (s *importStats) problem(line int, reason string, invalid bool) {
	if invalid {
		s.invalid++
	} else {
		s.failed++
	}
	// Keep the first lines: the service reports a chunk's errors after
	// later lines were parsed.
	if len(s.problems) == maxReportedProblems && line > s.problems[len(s.problems)-1].line {
		return
	}
	s.problems = append(s.problems, lineProblem{line, reason})
	slices.SortFunc(s.problems, func(a, b lineProblem) int { return cmp.Compare(a.line, b.line) })
	s.problems = s.problems[:min(len(s.problems), maxReportedProblems)]
}

// importArticles ingests the JSON Lines articles of path ("-" for standard
// input) through the service's IngestBatch, in chunks of importChunkArticles,
// and prints a summary on stdout. Bad lines are counted and reported; a
// database that cannot be reached ends the import with an error.
func (a *app) importArticles(ctx context.Context, cfg Config, log *slog.Logger, path string) error {
	in, size, name, err := a.openInput(path)
	if err != nil {
		return err
	}
	defer in.Close()

	b, err := a.openBackend(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer b.close(log) // IngestBatch has returned: nothing uses the dictionary any more
	if err := b.svc.Ready(ctx); err != nil {
		return fmt.Errorf("import: %w", err)
	}

	stats := &importStats{start: time.Now(), byStatus: make(map[service.Status]int)}
	prog := a.newProgress(size, "import: "+name, true)
	err = a.importLines(ctx, b.svc, cfg, newLineReader(in, maxImportLine), stats, prog)
	prog.finish(stats.bytesDone, stats.progressLine())
	a.printSummary(stats)
	switch {
	case err != nil && ctx.Err() != nil:
		return fmt.Errorf("import interrupted after %d lines, at least %d articles stored; running it again is safe: stored articles keep their verdicts", stats.articles, stats.created)
	case err != nil:
		return fmt.Errorf("import stopped after %d lines, at least %d articles stored: %w; running it again is safe: stored articles keep their verdicts", stats.articles, stats.created, err)
	}
	return nil
}

// openInput opens the file to import, or standard input for "-"; size is -1
// when unknown.
func (a *app) openInput(path string) (io.ReadCloser, int64, string, error) {
	if path == "-" {
		return io.NopCloser(a.stdin), -1, "standard input", nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, "", fmt.Errorf("import: %w", err)
	}
	size := int64(-1)
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		size = fi.Size()
	}
	return f, size, path, nil
}

// importLines reads every line, parses it and sends the articles to the
// service in chunks.
func (a *app) importLines(ctx context.Context, svc *service.Service, cfg Config, lr *lineReader, stats *importStats, prog progress) error {
	var (
		items      []service.BatchItem
		lineNos    []int
		chunkBytes int
	)
	flush := func() error {
		if len(items) == 0 {
			return nil
		}
		results, err := svc.IngestBatch(ctx, items)
		if err != nil {
			return err
		}
		for i, r := range results {
			stats.processed++
			if r.Err != nil {
				stats.problem(lineNos[i], r.Err.Error(), service.KindOf(r.Err) == service.KindInvalid)
				continue
			}
			stats.byStatus[r.Verdict.Status]++
			if r.Verdict.Created {
				stats.created++
			} else {
				stats.alreadyStored++
			}
		}
		items, lineNos, chunkBytes = items[:0], lineNos[:0], 0
		stats.bytesDone = lr.bytesRead
		prog.update(stats.bytesDone, stats.progressLine())
		return nil
	}

	for lineNo := 1; ; lineNo++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		if len(items) == 0 {
			stats.bytesDone = lr.bytesRead
		}
		line, err := lr.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if errors.Is(err, errLineTooLong) {
			stats.articles++
			stats.problem(lineNo, fmt.Sprintf("longer than %d MiB", maxImportLine>>20), true)
			continue
		}
		if err != nil {
			return fmt.Errorf("read line %d: %w", lineNo, err)
		}
		if lineNo == 1 {
			line = trimBOM(line)
		}
		if len(strings.TrimSpace(string(line))) == 0 {
			continue
		}
		stats.articles++
		in, opts, err := handlers.DecodeArticle(line, cfg.Options)
		if err != nil {
			stats.problem(lineNo, err.Error(), true)
			continue
		}
		items = append(items, service.BatchItem{Article: in, Options: opts})
		lineNos = append(lineNos, lineNo)
		chunkBytes += len(line)
		if len(items) == importChunkArticles || chunkBytes >= importChunkBytes {
			if err := flush(); err != nil {
				return err
			}
		}
		prog.update(stats.bytesDone, stats.progressLine())
	}
	if err := flush(); err != nil {
		return err
	}
	stats.bytesDone = lr.bytesRead
	return nil
}

func trimBOM(line []byte) []byte {
	const bom = "\xef\xbb\xbf"
	if len(line) >= len(bom) && string(line[:len(bom)]) == bom {
		return line[len(bom):]
	}
	return line
}

// printSummary writes what the import did on stdout.
func (a *app) printSummary(s *importStats) {
	elapsed := time.Since(s.start)
	rate := float64(s.processed) / max(elapsed.Seconds(), 1e-9)
	w := a.stdout
	fmt.Fprintf(w, "import: %d articles through the service in %s, %.1f articles/s\n",
		s.processed, elapsed.Round(time.Millisecond), rate)
	row := func(label string, n int) { fmt.Fprintf(w, "  %-20s %8d\n", label, n) }
	row("articles read", s.articles)
	row("stored (new)", s.created)
	row("already stored", s.alreadyStored)
	row("unique", s.byStatus[service.StatusUnique])
	row("near_duplicate", s.byStatus[service.StatusNearDuplicate])
	row("exact_duplicate", s.byStatus[service.StatusExactDuplicate])
	row("invalid lines", s.invalid)
	if s.failed > 0 {
		row("failed", s.failed)
	}
	for _, p := range s.problems {
		fmt.Fprintf(w, "    line %d: %s\n", p.line, p.reason)
	}
	if more := s.invalid + s.failed - len(s.problems); more > 0 {
		fmt.Fprintf(w, "    … and %d more\n", more)
	}
}
