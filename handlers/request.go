package handlers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"reflect"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/newsdedup/newsdedup/service"
)

// textRequest is a text to fingerprint or compare.
type textRequest struct {
	Title       string `json:"title"`
	Body        string `json:"body"`
	ContentType string `json:"content_type"`
}

func (t *textRequest) text() service.Text {
	return service.Text{Title: t.Title, Body: t.Body, ContentType: service.ContentType(t.ContentType)}
}

// articleRequest is an article to ingest or check, with its options. The
// options are pointers so that an option not sent takes the service's
// default, and a zero sent is a zero.
type articleRequest struct {
	ExternalID   string   `json:"external_id"`
	Source       string   `json:"source"`
	Title        string   `json:"title"`
	Body         string   `json:"body"`
	URL          string   `json:"url"`
	PublishedAt  *string  `json:"published_at"`
	ContentType  string   `json:"content_type"`
	MaxDistance  *int     `json:"max_distance"`
	MinWordRatio *float64 `json:"min_word_ratio"`
	WindowHours  *float64 `json:"window_hours"`
	Limit        *int     `json:"limit"`
}

// toService returns the article and its options, the options not sent taken
// from defaults. The service validates both; this only parses what JSON
// cannot carry (a time, a window in hours).
func (r *articleRequest) toService(defaults service.Options) (service.ArticleInput, service.Options, error) {
	in := service.ArticleInput{
		Text:       service.Text{Title: r.Title, Body: r.Body, ContentType: service.ContentType(r.ContentType)},
		ExternalID: r.ExternalID,
		Source:     r.Source,
		URL:        r.URL,
	}
	if r.PublishedAt != nil {
		t, err := time.Parse(time.RFC3339, *r.PublishedAt)
		if err != nil {
			return in, defaults, service.Invalid("published_at", "must be an RFC 3339 time such as 2024-05-01T08:30:00+08:00")
		}
		in.PublishedAt = t
	}
	opts := defaults
	if r.MaxDistance != nil {
		opts.MaxDistance = *r.MaxDistance
	}
	if r.MinWordRatio != nil {
		opts.MinWordRatio = *r.MinWordRatio
	}
	if r.WindowHours != nil {
		w, err := service.WindowHoursOption(*r.WindowHours)
		if err != nil {
			return in, opts, err
		}
		opts.Window = w
	}
	if r.Limit != nil {
		opts.Limit = *r.Limit
	}
	return in, opts, nil
}

// compareRequest is two texts to compare.
type compareRequest struct {
	A *textRequest `json:"a"`
	B *textRequest `json:"b"`
}

// batchRequest is a batch of articles. Each article is decoded on its own,
// so that one of the wrong shape gets its own error and the others are
// stored.
type batchRequest struct {
	Articles []json.RawMessage `json:"articles"`
}

// decodeBody reads the request's JSON body, at most limit bytes, and decodes
// it into v: see readBody and unmarshalStrict.
func decodeBody(c echo.Context, limit int64, v any) error {
	body, err := readBody(c, limit)
	if err != nil {
		return err
	}
	return unmarshalStrict(body, v)
}

// readBody checks that the body is JSON (415), reads at most limit bytes of
// it (413, by Content-Length first and while reading a chunked body), and
// refuses text that is not valid UTF-8 or that holds a lone surrogate escape
// (422): encoding/json would silently turn both into U+FFFD.
func readBody(c echo.Context, limit int64) ([]byte, error) {
	req := c.Request()
	if err := checkContentType(req.Header.Get(echo.HeaderContentType)); err != nil {
		return nil, err
	}
	if req.ContentLength > limit {
		return nil, tooLarge(limit)
	}
	// Size the buffer by Content-Length, within reason: the header is the
	// client's word until the bytes arrive.
	buf := bytes.NewBuffer(make([]byte, 0, min(max(req.ContentLength, 0), 4<<20)+1))
	_, err := buf.ReadFrom(http.MaxBytesReader(c.Response().Writer, req.Body, limit))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, tooLarge(limit)
		}
		return nil, &service.Error{Kind: service.KindMalformed, Message: "the request body could not be read", Err: err}
	}
	body := buf.Bytes()
	if !utf8.Valid(body) {
		return nil, &service.Error{Kind: service.KindInvalid, Message: "body of the request is not valid UTF-8"}
	}
	if se := findLoneSurrogate(body); se != nil {
		return nil, &service.Error{Kind: service.KindInvalid, Message: se.Error()}
	}
	return body, nil
}

func tooLarge(limit int64) error {
	return &service.Error{Kind: service.KindTooLarge,
		Message: fmt.Sprintf("the request body is larger than %d bytes", limit)}
}

// checkContentType accepts application/json, with no charset or UTF-8.
func checkContentType(header string) error {
	mt, params, err := mime.ParseMediaType(header)
	if err != nil || mt != echo.MIMEApplicationJSON {
		return &service.Error{Kind: service.KindUnsupportedMedia,
			Message: "Content-Type must be application/json"}
	}
	if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") && !strings.EqualFold(cs, "utf8") {
		return &service.Error{Kind: service.KindUnsupportedMedia,
			Message: fmt.Sprintf("the body must be UTF-8, not charset %q", cs)}
	}
	return nil
}

// unmarshalStrict decodes one JSON value into v. Unknown fields, wrong types
// and anything after the value are 400 invalid_json, naming the field.
// encoding/json refuses nesting deeper than 10,000 levels with a syntax
// error, so deep nesting is a 400 too.
func unmarshalStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return jsonError(err)
	}
	if rest := bytes.TrimLeft(data[dec.InputOffset():], " \t\r\n"); len(rest) > 0 {
		return malformed("", "unexpected data after the JSON value, at byte %d", len(data)-len(rest))
	}
	return nil
}

func malformed(field, format string, args ...any) *service.Error {
	msg := fmt.Sprintf(format, args...)
	if field != "" {
		msg = field + ": " + msg
	}
	return &service.Error{Kind: service.KindMalformed, Field: field, Message: msg}
}

// jsonError turns a decoding error into a KindMalformed error a client can
// act on.
func jsonError(err error) error {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.EOF):
		return malformed("", "the request body is empty: send a JSON object")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return malformed("", "the JSON ends before the value is complete")
	case errors.As(err, &syntax):
		return malformed("", "malformed JSON at byte %d: %s", syntax.Offset, strings.TrimPrefix(syntax.Error(), "json: "))
	case errors.As(err, &typ):
		if typ.Field == "" {
			return malformed("", "expected %s, not %s", describeType(typ.Type), typ.Value)
		}
		return malformed(typ.Field, "must be %s, not %s", describeType(typ.Type), typ.Value)
	}
	if name, ok := strings.CutPrefix(err.Error(), `json: unknown field "`); ok {
		name = strings.TrimSuffix(name, `"`)
		return malformed(name, "unknown field")
	}
	return err // not the client's fault: a bug of ours, reported as internal
}

// describeType names a Go type as JSON calls it.
func describeType(t reflect.Type) string {
	if t == nil {
		return "another type"
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Struct, reflect.Map:
		return "a JSON object"
	case reflect.Pointer:
		return describeType(t.Elem())
	}
	return "another type"
}
