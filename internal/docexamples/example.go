package docexamples

import (
	"bytes"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
)

// Example is one request of a document and the answer the document shows.
type Example struct {
	File string // the document's name, for messages
	Line int    // the line of the curl command, counted from 1

	Status int // the HTTP status the marker names
	Request
	Answer string // the text of the answer block

	// Byte ranges in the document, for Rewrite.
	marker, answer [2]int
}

func (e Example) String() string {
	return fmt.Sprintf("%s:%d %s %s", e.File, e.Line, e.Method, e.Path)
}

var (
	markerLine = regexp.MustCompile(`^<!--\s*example\s+(\d{3})\s*-->$`)
	fenceOpen  = regexp.MustCompile("^```\\s*(\\w*)")
)

// Parse returns the examples of doc, in the document's order. readFile
// reads the files a request names with -d @FILE. A curl block not marked as
// an example is an error, so that no example goes unchecked by mistake.
func Parse(name string, doc []byte, readFile func(string) ([]byte, error)) ([]Example, error) {
	type block struct {
		lang                string
		line                int
		start, end          int // the content
		markerStatus        int
		markerAt, markerEnd int
	}
	// The document as lines with their offsets.
	var blocks []block
	var open *block
	pendingMarker := -1
	pendingStatus, pendingEnd := 0, 0
	lineNo := 0
	for off := 0; off < len(doc); {
		end := bytes.IndexByte(doc[off:], '\n')
		next := len(doc)
		if end >= 0 {
			next = off + end + 1
			end = off + end
		} else {
			end = len(doc)
		}
		lineNo++
		text := strings.TrimSpace(string(doc[off:end]))
		switch {
		case open != nil:
			if strings.HasPrefix(text, "```") {
				open.end = off
				blocks = append(blocks, *open)
				open = nil
			}
		case strings.HasPrefix(text, "```"):
			m := fenceOpen.FindStringSubmatch(text)
			open = &block{lang: m[1], line: lineNo + 1, start: next, markerAt: -1}
			if pendingMarker >= 0 {
				open.markerAt, open.markerEnd, open.markerStatus = pendingMarker, pendingEnd, pendingStatus
				pendingMarker = -1
			}
		case markerLine.MatchString(text):
			if pendingMarker >= 0 {
				return nil, fmt.Errorf("%s:%d: an example marker follows another with no curl block between", name, lineNo)
			}
			status, _ := strconv.Atoi(markerLine.FindStringSubmatch(text)[1])
			pendingMarker, pendingEnd, pendingStatus = off, end, status
		case text != "" && pendingMarker >= 0:
			return nil, fmt.Errorf("%s:%d: an example marker must be followed by a ```sh block", name, lineNo)
		}
		off = next
	}
	if open != nil {
		return nil, fmt.Errorf("%s:%d: a code block is never closed", name, open.line-1)
	}
	if pendingMarker >= 0 {
		return nil, fmt.Errorf("%s: the last example marker has no curl block", name)
	}

	var out []Example
	for i, b := range blocks {
		isShell := b.lang == "sh" || b.lang == "shell" || b.lang == "bash"
		content := string(doc[b.start:b.end])
		if b.markerAt < 0 {
			if isShell && strings.Contains(content, "curl ") {
				return nil, fmt.Errorf("%s:%d: a curl block without an <!-- example NNN --> marker (docs/development.md)", name, b.line)
			}
			continue
		}
		if !isShell {
			return nil, fmt.Errorf("%s:%d: an example marker must be followed by a ```sh block, not ```%s", name, b.line-1, b.lang)
		}
		if i+1 >= len(blocks) || blocks[i+1].lang != "json" || !onlySpace(doc[b.end:blocks[i+1].start]) {
			return nil, fmt.Errorf("%s:%d: the curl block of an example must be followed at once by a ```json block", name, b.line)
		}
		req, err := ParseCurl(content, readFile)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, b.line, err)
		}
		a := blocks[i+1]
		out = append(out, Example{
			File: name, Line: b.line, Status: b.markerStatus, Request: req,
			Answer: string(doc[a.start:a.end]),
			marker: [2]int{b.markerAt, b.markerEnd}, answer: [2]int{a.start, a.end},
		})
	}
	return out, nil
}

// onlySpace says whether between two blocks lies nothing but the closing
// fence, the opening fence and blank lines.
func onlySpace(between []byte) bool {
	lines := strings.Split(string(between), "\n")
	fences := 0
	for _, l := range lines {
		l = strings.TrimSpace(l)
		switch {
		case l == "":
		case strings.HasPrefix(l, "```"):
			fences++
		default:
			return false
		}
	}
	return fences == 2
}

// Live is the server's answer to one example's request.
type Live struct {
	Status int
	Body   []byte
}

// Rewrite returns doc with each example's status and answer replaced by
// the live one, placeholders kept where the live answer still has their
// field. examples must be Parse's of doc and live their answers in order.
func Rewrite(doc []byte, examples []Example, live []Live) ([]byte, error) {
	if len(examples) != len(live) {
		return nil, fmt.Errorf("rewrite: %d examples, %d answers", len(examples), len(live))
	}
	var out bytes.Buffer
	last := 0
	for i, e := range examples {
		text, err := Fill(e.Answer, live[i].Body)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", e, err)
		}
		out.Write(doc[last:e.marker[0]])
		fmt.Fprintf(&out, "<!-- example %d -->", live[i].Status)
		out.Write(doc[e.marker[1]:e.answer[0]])
		out.WriteString(text)
		out.WriteByte('\n')
		last = e.answer[1]
	}
	out.Write(doc[last:])
	return out.Bytes(), nil
}

// Check compares the live answer with the example's and returns what
// differs, nothing when they match.
func (e Example) Check(got Live) []string {
	var diffs []string
	if got.Status != e.Status {
		diffs = append(diffs, fmt.Sprintf("status %d, the document says %d", got.Status, e.Status))
	}
	return append(diffs, Compare(e.Answer, got.Body)...)
}

// NewRequest makes the example's request to the server at base
// ("http://127.0.0.1:PORT").
func (e Example) NewRequest(base string) (*http.Request, error) {
	req, err := http.NewRequest(e.Method, base+e.Path, bytes.NewReader(e.Body))
	if err != nil {
		return nil, err
	}
	for k, vs := range e.Header {
		req.Header[k] = vs
	}
	return req, nil
}
