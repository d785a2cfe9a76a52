// Package handlers is newsdedup's HTTP API on echo v4, as openapi.json (the
// contract, served at /openapi.json) describes it: it binds requests, checks
// their shape, calls the service and writes JSON. It holds no domain logic;
// every error becomes a response in one place, the echo HTTPErrorHandler in
// errors.go, which owns every HTTP status and error code.
package handlers

import (
	"cmp"
	"crypto/sha256"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/newsdedup/newsdedup/handlers/ui"
	"github.com/newsdedup/newsdedup/service"
)

// The limits when Config leaves them zero.
const (
	DefaultMaxBodyBytes   = 2 << 20  // 2 MiB
	DefaultMaxBatchBytes  = 32 << 20 // 32 MiB
	DefaultRequestTimeout = 10 * time.Second
	// DefaultUIIdleTimeout ends an editors' page session unused this long.
	DefaultUIIdleTimeout = ui.DefaultIdleTimeout
	// DefaultTimeZone is the editors' time zone when Config does not say.
	DefaultTimeZone = ui.DefaultZone
)

// Config configures the HTTP API.
type Config struct {
	// APIKeys are the accepted bearer tokens of the /v1 routes. When empty,
	// every route is open.
	APIKeys []string
	// MaxBodyBytes bounds the body of a single-article request (and of
	// /v1/fingerprint and /v1/compare); DefaultMaxBodyBytes when 0.
	MaxBodyBytes int64
	// MaxBatchBytes bounds the body of POST /v1/articles/batch;
	// DefaultMaxBatchBytes when 0.
	MaxBatchBytes int64
	// RequestTimeout is the deadline put on every request's context;
	// DefaultRequestTimeout when 0.
	RequestTimeout time.Duration
	// UIIdleTimeout ends an editors' page session unused for this long;
	// DefaultUIIdleTimeout when 0.
	UIIdleTimeout time.Duration
	// Location is the editors' time zone (DEDUP_TIMEZONE): the page shows
	// times in it, its date filters and GET /v1/overview cut days in it.
	// DefaultTimeZone when nil.
	Location *time.Location
	// Logger receives the access log and the causes of 5xx responses.
	// Required.
	Logger *slog.Logger
	// Registry receives the HTTP and verdict metrics, and GET /metrics serves
	// it. Required.
	Registry *prometheus.Registry
	// Webhooks lists the alerts' deliveries (GET /v1/webhooks/deliveries);
	// nil when no webhooks are configured.
	Webhooks Deliveries
}

// api holds what the handlers share.
type api struct {
	svc            *service.Service
	log            *slog.Logger
	metrics        *metrics
	maxBody        int64
	maxBatch       int64
	requestTimeout time.Duration
	keys           [][sha256.Size]byte // digests of the API keys
	zone           *time.Location      // the editors' time zone
	webhooks       Deliveries          // nil without webhooks
}

// New returns the HTTP API over svc: every route of openapi.json, the
// middleware (recovery, request id, deadline, access log, metrics, auth) and
// the error handler, and the editors' page at /ui/ (package ui). It fails
// when Logger or Registry is missing, a limit is negative or the metrics
// cannot be registered (already registered on that registry).
func New(svc *service.Service, cfg Config) (*echo.Echo, error) {
	switch {
	case svc == nil:
		return nil, errors.New("handlers: a service is required")
	case cfg.Logger == nil:
		return nil, errors.New("handlers: Config.Logger is required")
	case cfg.Registry == nil:
		return nil, errors.New("handlers: Config.Registry is required")
	case cfg.MaxBodyBytes < 0 || cfg.MaxBatchBytes < 0 || cfg.RequestTimeout < 0 || cfg.UIIdleTimeout < 0:
		return nil, errors.New("handlers: limits and timeout must not be negative")
	}
	m, err := newMetrics(cfg.Registry)
	if err != nil {
		return nil, err
	}
	a := &api{
		svc:            svc,
		log:            cfg.Logger,
		metrics:        m,
		maxBody:        cmp.Or(cfg.MaxBodyBytes, DefaultMaxBodyBytes),
		maxBatch:       cmp.Or(cfg.MaxBatchBytes, DefaultMaxBatchBytes),
		requestTimeout: cmp.Or(cfg.RequestTimeout, DefaultRequestTimeout),
		webhooks:       cfg.Webhooks,
	}
	a.zone = cfg.Location
	if a.zone == nil {
		if a.zone, err = time.LoadLocation(DefaultTimeZone); err != nil {
			return nil, fmt.Errorf("handlers: %w", err)
		}
	}
	for _, k := range cfg.APIKeys {
		if k == "" {
			return nil, errors.New("handlers: an API key must not be empty")
		}
		a.keys = append(a.keys, sha256.Sum256([]byte(k)))
	}

	e := echo.New()
	e.HideBanner = true
	e.HidePort = true
	// The client's address is the connection's: X-Forwarded-For and
	// X-Real-IP are the client's word and are not trusted unless the caller
	// sets another extractor.
	e.IPExtractor = echo.ExtractIPDirect()
	e.HTTPErrorHandler = a.handleError
	e.JSONSerializer = jsonSerializer{}

	// Outermost first. observe runs after the router (c.Path() is the route
	// pattern), writes errors through the error handler and then records the
	// final status; recover sits inside it so a panic is logged and counted.
	e.Use(
		noSniff,
		sanitizeRequestID,
		middleware.RequestIDWithConfig(middleware.RequestIDConfig{TargetHeader: echo.HeaderXRequestID}),
		a.observe,
		a.recover,
		a.deadline,
		a.authenticate,
	)
	a.routes(e)
	if err := ui.Register(e, ui.Config{Service: svc, KeyDigests: a.keys, Problem: a.uiProblem, Logger: cfg.Logger,
		IdleTimeout: cfg.UIIdleTimeout, Location: a.zone, Deliveries: cfg.Webhooks}); err != nil {
		return nil, err
	}
	m.knownRoutes(e)
	return e, nil
}

// routes registers every route of the API. Every GET route answers HEAD
// too (RFC 9110): net/http sends the headers the handler sets and drops
// what it writes.
func (a *api) routes(e *echo.Echo) {
	get := func(path string, h echo.HandlerFunc) {
		e.GET(path, h)
		e.HEAD(path, h)
	}
	e.POST("/v1/articles", a.ingest)
	e.POST("/v1/articles/batch", a.ingestBatch)
	e.POST("/v1/check", a.check)
	get("/v1/articles", a.findByKey)
	get("/v1/articles/:id", a.findArticle)
	get("/v1/articles/:id/duplicates", a.duplicates)
	get("/v1/articles/:id/shared-sentences", a.sharedSentences)
	get("/v1/articles/:id/versions", a.versions)
	e.DELETE("/v1/articles/:id", a.deleteArticle)
	e.POST("/v1/fingerprint", a.fingerprint)
	e.POST("/v1/compare", a.compare)
	get("/v1/clusters", a.listClusters)
	get("/v1/clusters/:id", a.findCluster)
	get("/v1/clusters/:id/other-coverage", a.otherCoverage)
	get("/v1/clusters/:id/timeline", a.timeline)
	e.PUT("/v1/clusters/:id/kept", a.setKept)
	e.POST("/v1/clusters/:id/split", a.split)
	get("/v1/search", a.search)
	get("/v1/sources", a.sources)
	get("/v1/overview", a.overview)
	get("/v1/sources/:source/copies", a.copies)
	get("/v1/webhooks/deliveries", a.deliveries)
	get("/v1/decisions", a.decisionLog)

	get("/healthz", a.healthz)
	get("/readyz", a.readyz)
	get("/metrics", echo.WrapHandler(promhttp.HandlerFor(a.metrics.registry, promhttp.HandlerOpts{})))
	get("/openapi.json", serveOpenAPI)
}

// isOpen reports whether a path is served without an API key.
func isOpen(path string) bool {
	return path != "/v1" && !strings.HasPrefix(path, "/v1/")
}

func (a *api) healthz(c echo.Context) error {
	return c.JSON(http.StatusOK, statusResponse{Status: "ok"})
}

// readyz answers 200 when the database answers and 503 otherwise, whatever
// the reason it does not.
func (a *api) readyz(c echo.Context) error {
	if err := a.svc.Ready(c.Request().Context()); err != nil {
		return &service.Error{Kind: service.KindUnavailable, Message: "the database does not answer", Err: err}
	}
	return c.JSON(http.StatusOK, statusResponse{Status: "ok"})
}

type statusResponse struct {
	Status string `json:"status"`
}
