package main

import (
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/handlers"
	"github.com/newsdedup/newsdedup/service"
)

func TestLineReader(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 100)
	tests := []struct {
		name  string
		input string
		max   int
		want  []string // "!" for a line too long
	}{
		{"empty", "", 10, nil},
		{"one line", "abc\n", 10, []string{"abc"}},
		{"no final newline", "abc\ndef", 10, []string{"abc", "def"}},
		{"crlf", "abc\r\ndef\r\n", 10, []string{"abc", "def"}},
		{"blank lines", "\n\nabc\n", 10, []string{"", "", "abc"}},
		{"exactly max", "0123456789\n", 10, []string{"0123456789"}},
		{"exactly max crlf", "0123456789\r\n", 10, []string{"0123456789"}},
		{"one over max", "0123456789A\nok\n", 10, []string{"!", "ok"}},
		{"far over max, then more", long + "\nok\n" + long, 10, []string{"!", "ok", "!"}},
		{"long but allowed", long + "\n", 100, []string{long}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := newLineReader(strings.NewReader(tt.input), tt.max)
			var got []string
			for {
				line, err := r.next()
				if errors.Is(err, io.EOF) {
					break
				}
				if errors.Is(err, errLineTooLong) {
					got = append(got, "!")
					continue
				}
				if err != nil {
					t.Fatalf("next() error = %v", err)
				}
				got = append(got, string(line))
			}
			if strings.Join(got, "|") != strings.Join(tt.want, "|") || len(got) != len(tt.want) {
				t.Errorf("lines of %q (max %d) = %q, want %q", tt.input, tt.max, got, tt.want)
			}
			if r.bytesRead != int64(len(tt.input)) {
				t.Errorf("bytesRead = %d, want %d", r.bytesRead, len(tt.input))
			}
		})
	}
}

// TestLineReaderEightMiB reads a line of the largest size import accepts,
// many times the reader's buffer, and skips one a byte longer.
func TestLineReaderEightMiB(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("a", maxImportLine)
	r := newLineReader(strings.NewReader(big+"\n"+big+"b\nlast\n"), maxImportLine)
	line, err := r.next()
	if err != nil || len(line) != maxImportLine {
		t.Fatalf("next() = %d bytes, %v; want %d bytes", len(line), err, maxImportLine)
	}
	if _, err := r.next(); !errors.Is(err, errLineTooLong) {
		t.Fatalf("next() on a line of 8 MiB + 1 error = %v, want errLineTooLong", err)
	}
	if line, err := r.next(); err != nil || string(line) != "last" {
		t.Fatalf("next() after the long line = %q, %v; want \"last\"", line, err)
	}
}

// TestImportLineIsStrict checks that an import line is read as POST
// /v1/articles reads its body: the same fields and options, the same
// strictness.
func TestImportLineIsStrict(t *testing.T) {
	t.Parallel()
	good := `{"external_id":"cms-1","source":"xinhua","title":"T","body":"B","url":"https://x/1","published_at":"2024-05-01T08:00:00+08:00","content_type":"html","max_distance":1}`
	in, opts, err := handlers.DecodeArticle([]byte(good), service.DefaultOptions)
	if err != nil {
		t.Fatalf("DecodeArticle(%s) error = %v", good, err)
	}
	wantTime := time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)
	if in.ExternalID != "cms-1" || in.Source != "xinhua" || in.Title != "T" || in.Body != "B" ||
		in.URL != "https://x/1" || !in.PublishedAt.Equal(wantTime) || in.ContentType != "html" || opts.MaxDistance != 1 {
		t.Errorf("DecodeArticle(%s) = %+v, %+v", good, in, opts)
	}

	bad := []struct{ line, want string }{
		{`{"external_id":1,"body":"b"}`, "external_id: must be a string"},
		{`{"body":"b","published_at":"2024-05-01"}`, "published_at: must be an RFC 3339 time"},
		{`{"body":"b"`, "ends before the value is complete"},
		{`[1]`, "expected a JSON object"},
		{`"text"`, "expected a JSON object"},
		{`{"body":"b"} {"body":"c"}`, "after top-level value"},
		{`{"body":"b","extra":[1]}`, "extra: unknown field"},
		{`{"BODY":"b"}`, "BODY: unknown field"},
		{`{"body":"b","body":"c"}`, "body: given twice"},
	}
	for _, tt := range bad {
		if _, _, err := handlers.DecodeArticle([]byte(tt.line), service.DefaultOptions); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("DecodeArticle(%s) error = %v, want one containing %q", tt.line, err, tt.want)
		}
	}
}
