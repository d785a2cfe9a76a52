package main

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

// The real corpora are third parties' text: they are read from a folder
// beside the repository at run time and never copied into it. Each is JSON
// Lines, compressed with xz (a plain .jsonl of the same name is read too:
// the tests write small ones).
const (
	corpusSina = "sina"
	corpusCCTV = "cctv"
)

// corpusFiles names each corpus's file, without the .xz.
var corpusFiles = map[string]string{
	corpusSina: "sina2018-dev.jsonl",
	corpusCCTV: "cctv-xinwenlianbo.jsonl",
}

// corpusNames are the corpora in the order they are ingested: Sina (2018)
// before CCTV (2022 on), as a newsroom would have received them.
var corpusNames = []string{corpusSina, corpusCCTV}

// newsArticle is one article of a real corpus.
type newsArticle struct {
	Corpus string
	ID     string // the corpus's own id
	Title  string
	Body   string
	// TitleFits is false where Sina's scraper stored the body of another
	// page under the headline (title_matches_body); true for CCTV.
	TitleFits bool
	// Date is CCTV's broadcast date (2006-01-02); "" for Sina.
	Date string
	// Published is the published_at sent to the service (publishedTimes).
	Published time.Time
	// Chars counts the body's runes that are not white space: the length
	// bands.
	Chars int
}

// ExternalID is the article's key in the service, unique across corpora.
func (a *newsArticle) ExternalID() string { return a.Corpus + "-" + a.ID }

// newsBands are the length bands of the news figures, in body characters
// (white space not counted). Articles under 80 characters are stored like
// any other but belong to no band.
var newsBands = []struct {
	Name     string
	Min, Max int // Max 0: no upper bound
}{
	{"80–300", 80, 300},
	{"300–1000", 300, 1000},
	{"≥1000", 1000, 0},
}

// bandOf returns the band of a body of chars characters, or -1 below the
// first.
func bandOf(chars int) int {
	for b := len(newsBands) - 1; b >= 0; b-- {
		if chars >= newsBands[b].Min {
			return b
		}
	}
	return -1
}

// nonSpaceRunes counts the runes of s that are not white space.
func nonSpaceRunes(s string) int {
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

// errCorpusMissing is returned when a corpus file is not in the folder.
var errCorpusMissing = errors.New("corpus file missing")

// readCorpus reads corpus name from dir, at most limit articles (0: all),
// in the file's order.
func readCorpus(ctx context.Context, dir, name string, limit int) ([]newsArticle, error) {
	r, closeFn, err := openCorpus(ctx, dir, corpusFiles[name])
	if err != nil {
		return nil, err
	}
	defer closeFn()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	var out []newsArticle
	for line := 1; sc.Scan() && (limit == 0 || len(out) < limit); line++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var raw rawArticle
		if err := json.Unmarshal(sc.Bytes(), &raw); err != nil {
			return nil, fmt.Errorf("%s line %d: %w", corpusFiles[name], line, err)
		}
		id := strings.Trim(string(raw.ID), `"`)
		if id == "" {
			return nil, fmt.Errorf("%s line %d: no id", corpusFiles[name], line)
		}
		out = append(out, newsArticle{
			Corpus:    name,
			ID:        id,
			Title:     raw.Title,
			Body:      raw.Text,
			TitleFits: raw.TitleFits == nil || *raw.TitleFits,
			Date:      raw.Date,
			Chars:     nonSpaceRunes(raw.Text),
		})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", corpusFiles[name], err)
	}
	return out, nil
}

// openCorpus opens file (or file.xz, through xz -dc) in dir.
func openCorpus(ctx context.Context, dir, file string) (io.Reader, func(), error) {
	plain := filepath.Join(dir, file)
	if f, err := os.Open(plain); err == nil {
		return f, func() { f.Close() }, nil
	}
	compressed := plain + ".xz"
	if _, err := os.Stat(compressed); err != nil {
		return nil, nil, fmt.Errorf("%w: neither %s nor %s", errCorpusMissing, plain, compressed)
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

// Publication times. CCTV's stories carry their broadcast date: each is
// published at 19:00 Beijing time that day (the programme's hour), a minute
// apart in the order of the programme. Sina's have no date (the feed was
// scraped in early November 2018): they are spread in file order over
// sinaSpan from 1 November 2018, so that every two of them fall within the
// service's 168-hour window and it hides no pair.
var (
	beijing   = time.FixedZone("CST", 8*3600)
	sinaStart = time.Date(2018, 11, 1, 0, 0, 0, 0, beijing)
)

const sinaSpan = 5 * 24 * time.Hour

// setPublished fills in Published for articles of one corpus.
func setPublished(articles []newsArticle) error {
	perDay := make(map[string]int)
	for i := range articles {
		a := &articles[i]
		if a.Corpus == corpusSina || a.Date == "" {
			a.Published = sinaStart.Add(time.Duration(float64(sinaSpan) * float64(i) / float64(len(articles))))
			continue
		}
		day, err := time.ParseInLocation(time.DateOnly, a.Date, beijing)
		if err != nil {
			return fmt.Errorf("%s %s: date: %w", a.Corpus, a.ID, err)
		}
		a.Published = day.Add(19*time.Hour + time.Duration(perDay[a.Date])*time.Minute)
		perDay[a.Date]++
	}
	return nil
}
