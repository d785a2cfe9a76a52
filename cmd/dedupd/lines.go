package main

import (
	"bufio"
	"errors"
	"io"
)

// errLineTooLong reports a line longer than a lineReader's limit; the line
// has been skipped and the reader goes on with the next.
var errLineTooLong = errors.New("line too long")

// lineReader reads lines of up to max bytes. Unlike bufio.Scanner, which
// stops for good at a line over its buffer, it skips such a line and goes
// on, so that one bad line of a large import is reported, not fatal.
type lineReader struct {
	br        *bufio.Reader
	max       int
	buf       []byte
	bytesRead int64 // bytes consumed so far, for progress
}

func newLineReader(r io.Reader, max int) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, 64<<10), max: max}
}

// next returns the next line without its "\n" or "\r\n"; the slice is valid
// until the next call. At the end it returns io.EOF; a last line without a
// final newline is a line.
func (r *lineReader) next() ([]byte, error) {
	r.buf = r.buf[:0]
	tooLong, read := false, false
	for {
		chunk, err := r.br.ReadSlice('\n')
		r.bytesRead += int64(len(chunk))
		read = read || len(chunk) > 0
		if !tooLong {
			if len(r.buf)+len(chunk) > r.max+2 { // room for "\r\n"
				tooLong, r.buf = true, r.buf[:0]
			} else {
				r.buf = append(r.buf, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if errors.Is(err, io.EOF) {
			if !read {
				return nil, io.EOF
			}
			break
		}
		if err != nil {
			return nil, err
		}
		break
	}
	line := r.buf
	if n := len(line); n > 0 && line[n-1] == '\n' {
		line = line[:n-1]
		if n := len(line); n > 0 && line[n-1] == '\r' {
			line = line[:n-1]
		}
	}
	if tooLong || len(line) > r.max {
		return nil, errLineTooLong
	}
	return line, nil
}
