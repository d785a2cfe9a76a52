package handlers

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"mime"
	"net/http"
	"os"
	"reflect"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
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
	MinOverlap   *float64 `json:"min_overlap"`
	MinWordRatio *float64 `json:"min_word_ratio"`
	WindowHours  *float64 `json:"window_hours"`
	Limit        *int     `json:"limit"`
	// SharedSentences asks a check to list the sentences shared with stored
	// articles; an ingest refuses it.
	SharedSentences bool `json:"shared_sentences"`
	// AllowIncomplete lets a check answer without a sentence partition that
	// is down, its verdict marked incomplete; an ingest refuses it.
	AllowIncomplete bool `json:"allow_incomplete"`
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
	if r.MinOverlap != nil {
		opts.MinOverlap = *r.MinOverlap
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
	opts.SharedSentences = r.SharedSentences
	opts.AllowIncomplete = r.AllowIncomplete
	return in, opts, nil
}

// DecodeArticle reads one article as POST /v1/articles takes it — the same
// strict JSON, the same fields and options — for callers that read articles
// from elsewhere (dedupd import). defaults are the options the article does
// not set. Its errors name the field at fault.
func DecodeArticle(data []byte, defaults service.Options) (service.ArticleInput, service.Options, error) {
	var req articleRequest
	if err := unmarshalStrict(data, &req); err != nil {
		return service.ArticleInput{}, defaults, err
	}
	return req.toIngest(defaults)
}

// toIngest is toService for an article to store, which lists no shared
// sentences (GET /v1/articles/{id}/shared-sentences does, once it is
// stored).
func (r *articleRequest) toIngest(defaults service.Options) (service.ArticleInput, service.Options, error) {
	if r.SharedSentences {
		return service.ArticleInput{}, defaults, service.Invalid("shared_sentences",
			"only POST /v1/check lists shared sentences; a stored article's are at GET /v1/articles/{id}/shared-sentences")
	}
	if r.AllowIncomplete {
		return service.ArticleInput{}, defaults, service.Invalid("allow_incomplete",
			"only POST /v1/check may answer incomplete; an article is stored only when judged against every sentence partition")
	}
	return r.toService(defaults)
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
	Articles []jsontext.Value `json:"articles"`
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

// utf8BOM is the byte order mark some clients put before UTF-8 text. RFC
// 8259 lets a parser ignore it, and readBody does.
const utf8BOM = "\xef\xbb\xbf"

// readBody checks that the body is JSON (415), reads at most limit bytes of
// it (413, by Content-Length first and while reading a chunked body),
// decompressing a gzip body (Content-Encoding: gzip; the limit counts the
// decompressed bytes), drops a leading byte order mark, and refuses text
// that is not valid UTF-8 or that holds a lone surrogate escape (422).
func readBody(c echo.Context, limit int64) ([]byte, error) {
	req := c.Request()
	if err := checkContentType(req.Header.Get(echo.HeaderContentType)); err != nil {
		return nil, err
	}
	in, err := decodedBody(req, limit)
	if err != nil {
		return nil, err
	}
	// Size the buffer by Content-Length, within reason: the header is the
	// client's word until the bytes arrive.
	buf := bytes.NewBuffer(make([]byte, 0, min(max(req.ContentLength, 0), 4<<20)+1))
	_, err = buf.ReadFrom(http.MaxBytesReader(c.Response().Writer, in, limit))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, tooLarge(limit)
		}
		var re *requestError
		if errors.As(err, &re) {
			return nil, err
		}
		msg := "the request body could not be read"
		if errors.Is(err, os.ErrDeadlineExceeded) {
			msg = "the request body did not arrive in time: it is shorter than its Content-Length, or too slow"
		}
		return nil, &requestError{status: http.StatusBadRequest, code: codeInvalidJSON, message: msg, err: err}
	}
	body := bytes.TrimPrefix(buf.Bytes(), []byte(utf8BOM))
	if !utf8.Valid(body) {
		return nil, invalidBody("body of the request is not valid UTF-8")
	}
	if se := findLoneSurrogate(body); se != nil {
		return nil, invalidBody(se.Error())
	}
	return body, nil
}

// decodedBody is the request's body with its content coding undone: gzip
// or none. A compressed body is bounded by the limit too, so that a client
// cannot send more than the limit of compressed bytes either.
func decodedBody(req *http.Request, limit int64) (io.ReadCloser, error) {
	if req.ContentLength > limit {
		return nil, tooLarge(limit)
	}
	switch coding := strings.ToLower(strings.TrimSpace(req.Header.Get(echo.HeaderContentEncoding))); coding {
	case "", "identity":
		return req.Body, nil
	case "gzip", "x-gzip":
		compressed := http.MaxBytesReader(nil, req.Body, limit)
		zr, err := gzip.NewReader(compressed)
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, tooLarge(limit)
		}
		if err != nil {
			re := malformed("", "the request body is not gzip, as Content-Encoding says")
			re.err = err
			return nil, re
		}
		return gzipBody{zr: zr, body: compressed}, nil
	default:
		return nil, unsupportedMedia("Content-Encoding must be gzip or identity, not %q", coding)
	}
}

// gzipBody reads a gzip request body and turns a corrupt stream into a
// client's error.
type gzipBody struct {
	zr   *gzip.Reader
	body io.Closer
}

func (g gzipBody) Close() error { return errors.Join(g.zr.Close(), g.body.Close()) }

func (g gzipBody) Read(p []byte) (int, error) {
	n, err := g.zr.Read(p)
	var mbe *http.MaxBytesError
	if err != nil && !errors.Is(err, io.EOF) && !errors.As(err, &mbe) {
		re := malformed("", "the gzip body is corrupt")
		re.err = err
		err = re
	}
	return n, err
}

// checkContentType accepts application/json, with no charset or UTF-8.
func checkContentType(header string) error {
	mt, params, err := mime.ParseMediaType(header)
	if err != nil || mt != echo.MIMEApplicationJSON {
		return unsupportedMedia("Content-Type must be application/json")
	}
	if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") && !strings.EqualFold(cs, "utf8") {
		return unsupportedMedia("the body must be UTF-8, not charset %q", cs)
	}
	return nil
}

// unmarshalStrict decodes one JSON value into v, strictly: member names
// match the fields' names exactly (BODY is not body), a name given twice,
// an unknown field, a wrong type or anything after the value is 400
// invalid_json, naming the field. It is the JSON v2 semantics
// (github.com/go-json-experiment/json, encoding/json/v2 to be), which make
// these the defaults; encoding/json matches names regardless of case and
// lets a repeated name win silently.
func unmarshalStrict(data []byte, v any) error {
	if len(bytes.TrimSpace(data)) == 0 {
		return malformed("", "the request body is empty: send a JSON object")
	}
	return jsonError(json.Unmarshal(data, v, json.RejectUnknownMembers(true)))
}

// jsonError turns a decoding error into a 400 invalid_json error a client can
// act on, naming the field by the last name of its JSON pointer.
func jsonError(err error) error {
	var syntax *jsontext.SyntacticError
	var semantic *json.SemanticError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &syntax):
		field := fieldName(syntax.JSONPointer)
		switch {
		case errors.Is(err, jsontext.ErrDuplicateName):
			return malformed(field, "given twice: a JSON object names each field once")
		case errors.Is(err, io.ErrUnexpectedEOF):
			return malformed("", "the JSON ends before the value is complete")
		}
		return malformed("", "malformed JSON at byte %d: %s", syntax.ByteOffset, strings.TrimPrefix(syntax.Err.Error(), "jsontext: "))
	case errors.As(err, &semantic):
		field := fieldName(semantic.JSONPointer)
		switch {
		case errors.Is(err, json.ErrUnknownName):
			return malformed(field, "unknown field")
		case field == "":
			return malformed("", "expected %s, not %s", describeType(semantic.GoType), kindName(semantic.JSONKind))
		case semantic.Err != nil:
			return malformed(field, "must be %s, not %s (%v)", describeType(semantic.GoType), kindName(semantic.JSONKind), semantic.Err)
		}
		return malformed(field, "must be %s, not %s", describeType(semantic.GoType), kindName(semantic.JSONKind))
	}
	return err // not the client's fault: a bug of ours, reported as internal
}

// fieldName is the last name of a JSON pointer ("/a/body" is body), or ""
// for the whole value.
func fieldName(p jsontext.Pointer) string {
	name := ""
	for tok := range p.Tokens() {
		name = tok
	}
	return name
}

// kindName names a kind of JSON value as a client reads it.
func kindName(k jsontext.Kind) string {
	switch k {
	case '"':
		return "string"
	case '0':
		return "number"
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "another kind of value"
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
