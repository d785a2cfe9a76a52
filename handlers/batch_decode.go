package handlers

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// batchArticle is one article of a batch as decoded: its request, or the
// error that article alone gets.
type batchArticle struct {
	req articleRequest
	err error
}

// decodeBatch decodes a batch body, {"articles": [...]}, into its articles,
// each with its own error when it is of the wrong shape or larger than
// maxItem bytes of JSON. The whole request fails only when the body is not
// such an object.
//
// A well-formed batch is read in one pass, each article decoded straight
// from the stream; reading the batch into raw values and decoding each again
// cost half of the handler's CPU. Anything the one pass does not expect (a
// syntax error, another member, an article's semantic error) is decoded
// again the old way, in two passes, so every error keeps its exact text.
func decodeBatch(body []byte, maxItem int64) ([]batchArticle, error) {
	if arts, ok := decodeBatchOnce(body, maxItem); ok {
		return arts, nil
	}
	var req batchRequest
	if err := unmarshalStrict(body, &req); err != nil {
		return nil, err
	}
	arts := make([]batchArticle, len(req.Articles))
	for i, raw := range req.Articles {
		if int64(len(raw)) > maxItem {
			arts[i].err = itemTooLarge(len(raw), maxItem)
			continue
		}
		arts[i].err = unmarshalStrict(raw, &arts[i].req)
	}
	return arts, nil
}

// itemTooLarge is the error of a batch article larger than a single
// article's request may be: a batch is no way around the limit.
func itemTooLarge(size int, limit int64) error {
	return &requestError{status: http.StatusRequestEntityTooLarge, code: codeTooLarge,
		message: fmt.Sprintf("the article is %d bytes of JSON, more than the %d a single article may be", size, limit)}
}

// decodeBatchOnce is the one pass of decodeBatch; ok is false when the body
// is anything but {"articles": [objects...]} with no error of any article
// but its size.
func decodeBatchOnce(body []byte, maxItem int64) (arts []batchArticle, ok bool) {
	dec := jsontext.NewDecoder(bytes.NewBuffer(body))
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return nil, false
	}
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '"' || tok.String() != "articles" {
		return nil, false
	}
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '[' {
		return nil, false
	}
	opts := json.RejectUnknownMembers(true)
	for dec.PeekKind() == '{' {
		start := valueStart(body, dec.InputOffset())
		arts = append(arts, batchArticle{})
		a := &arts[len(arts)-1]
		if err := json.UnmarshalDecode(dec, &a.req, opts); err != nil {
			return nil, false
		}
		if size := dec.InputOffset() - start; size > maxItem {
			a.req, a.err = articleRequest{}, itemTooLarge(int(size), maxItem)
		}
	}
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != ']' {
		return nil, false
	}
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '}' {
		return nil, false
	}
	if _, err := dec.ReadToken(); !errors.Is(err, io.EOF) {
		return nil, false
	}
	return arts, true
}

// valueStart is where the next value of an array begins at or after offset
// (the end of the token before it): past white space and one comma.
func valueStart(body []byte, offset int64) int64 {
	comma := false
	for ; offset < int64(len(body)); offset++ {
		switch body[offset] {
		case ' ', '\t', '\n', '\r':
		case ',':
			if comma {
				return offset
			}
			comma = true
		default:
			return offset
		}
	}
	return offset
}
