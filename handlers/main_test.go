package handlers_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/newsdedup/newsdedup/handlers"
	"github.com/newsdedup/newsdedup/repo"
	"github.com/newsdedup/newsdedup/repo/dbtest"
	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// dict is loaded once for the whole test binary: loading takes about half a
// second and holds the dictionaries in C memory.
var dict *fingerprint.Dictionary

func TestMain(m *testing.M) {
	d, err := fingerprint.Load(fingerprint.DefaultDictDir())
	if err != nil {
		fmt.Fprintln(os.Stderr, "load dictionary:", err)
		os.Exit(1)
	}
	dict = d
	code := m.Run()
	d.Close()
	os.Exit(code)
}

// server is the real stack — PostgreSQL, repo, service, handlers — served
// over real HTTP.
type server struct {
	*httptest.Server
	registry *prometheus.Registry
	logs     *syncBuffer
	key      string // sent as the bearer token by do, when set
}

// serverOption changes the handlers' Config before New, or the echo it
// returns.
type serverOption func(*serverSetup)

type serverSetup struct {
	cfg   handlers.Config
	extra func(*echo.Echo)
}

// withKeys configures API keys; the server's do sends the first.
func withKeys(keys ...string) serverOption {
	return func(s *serverSetup) { s.cfg.APIKeys = keys }
}

// withConfig changes the Config.
func withConfig(f func(*handlers.Config)) serverOption {
	return func(s *serverSetup) { f(&s.cfg) }
}

// withRoutes adds routes to the echo New returns, behind its middleware.
func withRoutes(f func(*echo.Echo)) serverOption {
	return func(s *serverSetup) { s.extra = f }
}

// newServer serves the API over a fresh migrated database of its own.
func newServer(tb testing.TB, opts ...serverOption) *server {
	tb.Helper()
	return newServerOn(tb, dbtest.URL(tb), opts...)
}

// newService returns the service over a store of the database at dbURL.
func newService(tb testing.TB, dbURL string) *service.Service {
	tb.Helper()
	store, err := repo.Open(context.Background(), dbURL, repo.Options{ConnectTimeout: 2 * time.Second})
	if err != nil {
		tb.Fatalf("repo.Open() = %v", err)
	}
	tb.Cleanup(store.Close)
	svc, err := service.New(store, fingerprint.NewWeighted(dict, fingerprint.DefaultWeightedParams), service.DefaultOptions)
	if err != nil {
		tb.Fatalf("service.New() = %v", err)
	}
	return svc
}

// newServerOn serves the API over the database at dbURL.
func newServerOn(tb testing.TB, dbURL string, opts ...serverOption) *server {
	tb.Helper()
	svc := newService(tb, dbURL)
	logs := &syncBuffer{}
	setup := serverSetup{cfg: handlers.Config{
		Logger:   slog.New(slog.NewJSONHandler(logs, nil)),
		Registry: prometheus.NewRegistry(),
	}}
	for _, o := range opts {
		o(&setup)
	}
	e, err := handlers.New(svc, setup.cfg)
	if err != nil {
		tb.Fatalf("handlers.New() = %v", err)
	}
	if setup.extra != nil {
		setup.extra(e)
	}
	s := &server{Server: httptest.NewServer(e), registry: setup.cfg.Registry, logs: logs}
	// A request that sends Expect: 100-continue waits for the server's
	// go-ahead (or its refusal) before its body, as curl's large uploads do.
	s.Client().Transport.(*http.Transport).ExpectContinueTimeout = 5 * time.Second
	if len(setup.cfg.APIKeys) > 0 {
		s.key = setup.cfg.APIKeys[0]
	}
	tb.Cleanup(s.Close)
	return s
}

// unreachableURL is a database URL on a local port nothing listens on.
func unreachableURL(tb testing.TB) string {
	tb.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "postgres://postgres@" + addr + "/nothing?sslmode=disable"
}

// response is what came back from one request.
type response struct {
	status int
	header http.Header
	body   []byte
}

func (r response) String() string {
	body := string(r.body)
	if len(body) > 600 {
		body = body[:600] + "…"
	}
	return fmt.Sprintf("%d %s", r.status, body)
}

// request is one request to send with do.
type request struct {
	method, path string
	body         io.Reader // sent as JSON unless contentType says otherwise
	contentType  string    // "" means application/json when there is a body
	header       http.Header
	noKey        bool // do not send the server's key
}

// do sends req and reads the whole response.
func (s *server) do(tb testing.TB, req request) response {
	tb.Helper()
	hr, err := http.NewRequest(req.method, s.URL+req.path, req.body)
	if err != nil {
		tb.Fatalf("NewRequest(%s %s) = %v", req.method, req.path, err)
	}
	if req.body != nil {
		ct := req.contentType
		if ct == "" {
			ct = "application/json"
		}
		hr.Header.Set("Content-Type", ct)
	}
	for k, vs := range req.header {
		hr.Header[k] = vs
	}
	if s.key != "" && !req.noKey && hr.Header.Get("Authorization") == "" {
		hr.Header.Set("Authorization", "Bearer "+s.key)
	}
	res, err := s.Client().Do(hr)
	if err != nil {
		tb.Fatalf("%s %s: %v", req.method, req.path, err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		tb.Fatalf("%s %s: read body: %v", req.method, req.path, err)
	}
	return response{status: res.StatusCode, header: res.Header, body: body}
}

// get sends GET path.
func (s *server) get(tb testing.TB, path string) response {
	tb.Helper()
	return s.do(tb, request{method: http.MethodGet, path: path})
}

// post sends v, marshalled to JSON, or as is when it is a string or []byte.
func (s *server) post(tb testing.TB, path string, v any) response {
	tb.Helper()
	return s.do(tb, request{method: http.MethodPost, path: path, body: bytes.NewReader(jsonBytes(tb, v))})
}

func jsonBytes(tb testing.TB, v any) []byte {
	tb.Helper()
	switch v := v.(type) {
	case string:
		return []byte(v)
	case []byte:
		return v
	}
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatalf("json.Marshal(%T) = %v", v, err)
	}
	return b
}

// decode unmarshals the response's body into v, failing the test when it
// is not JSON of that shape.
func decode[T any](tb testing.TB, r response) T {
	tb.Helper()
	var v T
	if err := json.Unmarshal(r.body, &v); err != nil {
		tb.Fatalf("decode %T from %v: %v", v, r, err)
	}
	return v
}

// object is a JSON object, to check which keys a response has.
type object = map[string]any

// wantStatus fails the test unless r has status want.
func wantStatus(tb testing.TB, what string, r response, want int) {
	tb.Helper()
	if r.status != want {
		tb.Fatalf("%s: status = %v, want %d", what, r, want)
	}
}

// errorBody is the error envelope of every error response.
type errorBody struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
		Field   string `json:"field"`
	} `json:"error"`
}

// wantError fails the test unless r is an error response with status and
// code.
func wantError(tb testing.TB, what string, r response, status int, code string) errorBody {
	tb.Helper()
	if r.status != status {
		tb.Fatalf("%s: got %v, want %d %s", what, r, status, code)
	}
	if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		tb.Errorf("%s: Content-Type = %q, want application/json", what, ct)
	}
	if status == http.StatusServiceUnavailable && r.header.Get("Retry-After") == "" {
		tb.Errorf("%s: a 503 without Retry-After", what)
	}
	e := decode[errorBody](tb, r)
	if e.Error.Code != code {
		tb.Errorf("%s: error code = %q, want %q (%v)", what, e.Error.Code, code, r)
	}
	if e.Error.Message == "" {
		tb.Errorf("%s: error message is empty (%v)", what, r)
	}
	return e
}

// syncBuffer is a bytes.Buffer safe for the server's goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
