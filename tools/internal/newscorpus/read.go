package newscorpus

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
	"unicode"
)

// The corpora. Each is JSON Lines, compressed with xz (a plain .jsonl of
// the same name is read too: tests write small ones of their own text).
const (
	Sina = "sina"
	CCTV = "cctv"
)

// Files names each corpus's file in the folder, without the .xz.
var Files = map[string]string{
	Sina: "sina2018-dev.jsonl",
	CCTV: "cctv-xinwenlianbo.jsonl",
}

// Names are the corpora in the order they are ingested: Sina (2018) before
// CCTV (2022 on), as a newsroom would have received them.
var Names = []string{Sina, CCTV}

// Article is one article of a real corpus.
type Article struct {
	Corpus string
	ID     string // the corpus's own id
	Title  string
	Body   string
	// TitleFits is false where Sina's scraper stored the body of another
	// page under the headline (title_matches_body); true for CCTV.
	TitleFits bool
	// Date is CCTV's broadcast date (2006-01-02); "" for Sina.
	Date string
	// Published is the published_at sent to the service (SetPublished).
	Published time.Time
	// Chars counts the body's runes that are not white space.
	Chars int
}

// ExternalID is the article's key in the service, unique across corpora.
func (a *Article) ExternalID() string { return a.Corpus + "-" + a.ID }

// NonSpaceRunes counts the runes of s that are not white space.
func NonSpaceRunes(s string) int {
	n := 0
	for _, r := range s {
		if !unicode.IsSpace(r) {
			n++
		}
	}
	return n
}

// rawArticle is a line of either corpus. Sina's ids are numbers, CCTV's
// strings.
type rawArticle struct {
	ID        json.RawMessage `json:"id"`
	Title     string          `json:"title"`
	Text      string          `json:"text"`
	Date      string          `json:"date"`
	TitleFits *bool           `json:"title_matches_body"`
}

// ErrMissing is returned when a corpus file is not in the folder.
var ErrMissing = errors.New("corpus file missing")

// Read reads corpus name from dir, at most limit articles (0: all), in the
// file's order. Published is left zero: see SetPublished.
func Read(ctx context.Context, dir, name string, limit int) ([]Article, error) {
	file, ok := Files[name]
	if !ok {
		return nil, fmt.Errorf("no corpus named %q", name)
	}
	r, closeFn, err := open(ctx, dir, file)
	if err != nil {
		return nil, err
	}
	defer closeFn()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	var out []Article
	for line := 1; sc.Scan() && (limit == 0 || len(out) < limit); line++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var raw rawArticle
		if err := json.Unmarshal(sc.Bytes(), &raw); err != nil {
			return nil, fmt.Errorf("%s line %d: %w", file, line, err)
		}
		id := strings.Trim(string(raw.ID), `"`)
		if id == "" {
			return nil, fmt.Errorf("%s line %d: no id", file, line)
		}
		out = append(out, Article{
			Corpus:    name,
			ID:        id,
			Title:     raw.Title,
			Body:      raw.Text,
			TitleFits: raw.TitleFits == nil || *raw.TitleFits,
			Date:      raw.Date,
			Chars:     NonSpaceRunes(raw.Text),
		})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", file, err)
	}
	return out, nil
}

// open opens file (or file.xz, through xz -dc) in dir.
func open(ctx context.Context, dir, file string) (io.Reader, func(), error) {
	plain := filepath.Join(dir, file)
	if f, err := os.Open(plain); err == nil {
		return f, func() { f.Close() }, nil
	}
	compressed := plain + ".xz"
	if _, err := os.Stat(compressed); err != nil {
		return nil, nil, fmt.Errorf("%w: neither %s nor %s", ErrMissing, plain, compressed)
	}
	ctx, cancel := context.WithCancel(ctx)
	cmd := exec.CommandContext(ctx, "xz", "-dc", compressed)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		cancel()
		return nil, nil, fmt.Errorf("xz -dc %s: %w", compressed, err)
	}
	if err := cmd.Start(); err != nil {
		cancel()
		return nil, nil, fmt.Errorf("xz -dc %s (is xz installed?): %w", compressed, err)
	}
	return out, func() {
		cancel() // ends xz if the reader stopped early
		_ = cmd.Wait()
	}, nil
}
