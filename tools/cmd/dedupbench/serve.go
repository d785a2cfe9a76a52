package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/newsdedup/newsdedup/handlers"
	"github.com/newsdedup/newsdedup/repo"
	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// requestTimeout is the deadline of every request the benchmark sends.
const requestTimeout = 2 * time.Minute

// server is the service, as dedupd serves it, on a loopback port of this
// process.
type server struct {
	URL   string // http://127.0.0.1:port
	srv   *http.Server
	store *repo.Store
	done  chan error
	// metrics is the registry the handlers report to, read for what the
	// API does not answer (how many candidates a check read).
	metrics *prometheus.Registry
}

// startServer serves handlers.New(service.New(repo store, Weighted,
// settings…)) over dbURL with a real http.Server on 127.0.0.1:0.
func startServer(ctx context.Context, dbURL string, dict *fingerprint.Dictionary, poolSize int32, settings ...service.Setting) (*server, error) {
	store, err := repo.Open(ctx, dbURL, repo.Options{MaxConns: poolSize})
	if err != nil {
		return nil, err
	}
	svc, err := service.New(store, fingerprint.NewWeighted(dict, fingerprint.DefaultWeightedParams), service.DefaultOptions, settings...)
	if err != nil {
		store.Close()
		return nil, err
	}
	metrics := prometheus.NewRegistry()
	h, err := handlers.New(svc, handlers.Config{
		Logger:   slog.New(slog.DiscardHandler),
		Registry: metrics,
		// A batch of 200 dense near duplicates, with four clients on two
		// cores, can take longer than the default 10 s deadline; the
		// benchmark measures throughput, not the deadline.
		RequestTimeout: requestTimeout,
	})
	if err != nil {
		store.Close()
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		store.Close()
		return nil, fmt.Errorf("listen on loopback: %w", err)
	}
	s := &server{
		URL:     "http://" + ln.Addr().String(),
		srv:     &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second},
		store:   store,
		done:    make(chan error, 1),
		metrics: metrics,
	}
	go func() { s.done <- s.srv.Serve(ln) }()
	return s, nil
}

// stop shuts the server down and closes its pool.
func (s *server) stop() error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := s.srv.Shutdown(ctx)
	if serr := <-s.done; !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	s.store.Close()
	return err
}

// candidatesSeen returns the sum and the count of the service's histogram
// of index candidates (newsdedup_index_candidates): the stored
// fingerprints the block-index query returned, over every verdict the
// server has given. The verdict's JSON does not carry them.
func (s *server) candidatesSeen() (sum float64, count uint64, err error) {
	families, err := s.metrics.Gather()
	if err != nil {
		return 0, 0, fmt.Errorf("read the service's metrics: %w", err)
	}
	for _, f := range families {
		if f.GetName() == "newsdedup_index_candidates" && len(f.GetMetric()) == 1 {
			h := f.GetMetric()[0].GetHistogram()
			return h.GetSampleSum(), h.GetSampleCount(), nil
		}
	}
	return 0, 0, errors.New("the service's metrics have no newsdedup_index_candidates histogram")
}

// newClient returns an HTTP client that keeps a connection per concurrent
// caller.
func newClient(conns int) *http.Client {
	return &http.Client{
		Timeout: requestTimeout + 10*time.Second,
		Transport: &http.Transport{
			MaxIdleConns:        conns,
			MaxIdleConnsPerHost: conns,
			IdleConnTimeout:     time.Minute,
		},
	}
}
