package handlers

import (
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/newsdedup/newsdedup/service"
)

// metrics are the API's Prometheus metrics, registered on the registry
// given to New: no global state.
type metrics struct {
	registry   *prometheus.Registry
	requests   *prometheus.CounterVec
	duration   *prometheus.HistogramVec
	verdicts   *prometheus.CounterVec
	candidates prometheus.Histogram
	routes     map[string]bool // the registered route patterns, the only route labels
}

// The verdict endpoints, as newsdedup_verdicts_total labels them.
const (
	endpointIngest = "ingest"
	endpointBatch  = "batch"
	endpointCheck  = "check"
)

// unmatchedRoute labels requests no route matched: the raw path never
// becomes a label.
const unmatchedRoute = "unmatched"

func newMetrics(reg *prometheus.Registry) (*metrics, error) {
	m := &metrics{
		registry: reg,
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "newsdedup_http_requests_total",
			Help: "HTTP requests answered, by method, route pattern and status.",
		}, []string{"method", "route", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "newsdedup_http_request_duration_seconds",
			Help:    "Time to answer an HTTP request, by method and route pattern.",
			Buckets: prometheus.DefBuckets,
		}, []string{"method", "route"}),
		verdicts: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "newsdedup_verdicts_total",
			Help: "Verdicts returned, by endpoint (ingest, batch, check) and status.",
		}, []string{"endpoint", "status"}),
		candidates: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "newsdedup_index_candidates",
			Help:    "Stored fingerprints the block-index query returned for one verdict.",
			Buckets: []float64{0, 1, 2, 5, 10, 20, 50, 100, 1000},
		}),
		routes: map[string]bool{},
	}
	for _, c := range []prometheus.Collector{m.requests, m.duration, m.verdicts, m.candidates} {
		if err := reg.Register(c); err != nil {
			return nil, fmt.Errorf("handlers: register metrics: %w", err)
		}
	}
	// Every verdict series exists from the start, at zero, so that rates
	// over them are defined before the first article arrives.
	for _, endpoint := range []string{endpointIngest, endpointBatch, endpointCheck} {
		for _, status := range []service.Status{service.StatusUnique, service.StatusNearDuplicate, service.StatusPartialDuplicate, service.StatusExactDuplicate} {
			m.verdicts.WithLabelValues(endpoint, string(status))
		}
	}
	return m, nil
}

// knownRoutes records the route patterns of e, the only values the route
// label takes besides unmatchedRoute.
func (m *metrics) knownRoutes(e *echo.Echo) {
	for _, r := range e.Routes() {
		m.routes[r.Path] = true
	}
}

// routeLabel is the request's route pattern (c.Path()), or unmatchedRoute.
func (m *metrics) routeLabel(c echo.Context) string {
	if p := c.Path(); m.routes[p] {
		return p
	}
	return unmatchedRoute
}

// verdict counts one verdict of an endpoint.
func (m *metrics) verdict(endpoint string, v service.Verdict) {
	m.verdicts.WithLabelValues(endpoint, string(v.Status)).Inc()
	m.candidates.Observe(float64(v.Candidates))
}

// methodLabel bounds the method label to the standard methods: a client may
// send any token as a method.
func methodLabel(method string) string {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return method
	}
	return "OTHER"
}
