package main

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"regexp"
	"time"

	"github.com/pressly/goose/v3"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/newsdedup/newsdedup/handlers"
	"github.com/newsdedup/newsdedup/internal/webhook"
	"github.com/newsdedup/newsdedup/repo"
)

// The HTTP server's own limits. The handlers bound each request by
// DEDUP_REQUEST_TIMEOUT, and so does the read timeout when it is shorter
// (a body that has not arrived by then could not be served in time
// anyway); the write timeout stays above both, so that a request that
// times out, or whose body never comes, still gets its answer (503, 400)
// rather than a cut connection.
const (
	readHeaderTimeout = 5 * time.Second
	readTimeout       = 30 * time.Second
	writeTimeout      = 30 * time.Second
	idleTimeout       = 120 * time.Second
	maxHeaderBytes    = 64 << 10
)

// schemaCheckTimeout bounds the look at the migration status at start.
const schemaCheckTimeout = 5 * time.Second

// serve runs the HTTP API until ctx is cancelled, then shuts down
// gracefully: it stops accepting, lets the requests in flight finish within
// DEDUP_SHUTDOWN_TIMEOUT, closes the pool and frees the dictionary.
func (a *app) serve(ctx context.Context, cfg Config, log *slog.Logger) error {
	// Configuration, masked.
	log.Info("starting dedupd", "version", versionString(), "config", cfg)
	if len(cfg.APIKeys) == 0 {
		log.Warn("DEDUP_API_KEYS is not set (or blank): the API is OPEN, anyone who can reach DEDUP_ADDR may ingest, read and delete articles; set DEDUP_API_KEYS to require a key",
			"addr", cfg.Addr)
	}

	// Dictionary, store and service.
	b, err := a.openBackend(ctx, cfg, log)
	if err != nil {
		return err
	}
	released := false
	defer func() {
		if !released {
			b.close(log)
		}
	}()
	warnIfSchemaBehind(ctx, cfg.DatabaseURL, log)
	recordKeepPolicy(ctx, b.svc, log)

	// Metrics: the handlers' own, plus the Go runtime's, the process's and
	// the C heap's (gojieba's memory). go_gc_heap_live_bytes (the heap the
	// last collection marked live) shows a Go leak without the sawtooth of
	// the heap in use between collections.
	registry := prometheus.NewRegistry()
	registry.MustRegister(
		collectors.NewGoCollector(collectors.WithGoCollectorRuntimeMetrics(
			collectors.GoRuntimeMetricsRule{Matcher: regexp.MustCompile(`^/gc/heap/live:bytes$`)})),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		newCHeapGauge(),
	)

	// Alerts: the outbox's delivery worker, stopped before the pool closes.
	var deliveries handlers.Deliveries
	workerCtx, stopWorker := context.WithCancel(context.WithoutCancel(ctx))
	workerDone := make(chan struct{})
	if cfg.Webhooks != nil {
		w := &webhook.Worker{Store: b.store, Config: *cfg.Webhooks, Desk: cfg.DeskSources, Log: log.With("component", "webhooks")}
		deliveries = w
		go func() { defer close(workerDone); w.Run(workerCtx) }()
		log.Info("webhook delivery started", "subscriptions", len(cfg.Webhooks.Subscriptions))
	} else {
		close(workerDone)
	}
	defer func() { stopWorker(); <-workerDone }()

	// Handlers.
	h, err := handlers.New(b.svc, handlers.Config{
		Webhooks:       deliveries,
		APIKeys:        cfg.APIKeys,
		MaxBodyBytes:   cfg.MaxBodyBytes,
		MaxBatchBytes:  cfg.MaxBatchBytes,
		RequestTimeout: cfg.RequestTimeout,
		UIIdleTimeout:  cfg.UIIdleTimeout,
		Location:       cfg.Zone(),
		Logger:         log,
		Registry:       registry,
	})
	if err != nil {
		return fmt.Errorf("build handlers: %w", err)
	}

	// HTTP server. Listen first, so that the address in the log is the one
	// bound, port 0 resolved.
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: cmp.Or(a.readHeaderTimeout, readHeaderTimeout),
		ReadTimeout:       min(cmp.Or(a.readTimeout, readTimeout), cfg.RequestTimeout),
		WriteTimeout:      max(writeTimeout, cfg.RequestTimeout+5*time.Second),
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("DEDUP_ADDR: %w", err)
	}
	log.Info("listening", "addr", ln.Addr().String())
	serveErr := make(chan error, 1)
	go func() { serveErr <- srv.Serve(ln) }()
	sweepCtx, stopSweep := context.WithCancel(ctx)
	defer stopSweep()
	go sweepPartitions(sweepCtx, b.store, log)

	select {
	case err := <-serveErr:
		return fmt.Errorf("http server: %w", err)
	case <-ctx.Done():
	}

	// Graceful shutdown: stop accepting, finish the requests in flight.
	log.Info("shutting down: no new connections; waiting for requests in flight", "timeout", cfg.ShutdownTimeout.String())
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cfg.ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		srv.Close()
		// Handlers may still be running and holding connections and the
		// dictionary: closing the pool would wait for them and freeing the
		// dictionary under them could crash. The process is exiting; leave
		// both to the operating system.
		released = true
		log.Error("requests in flight did not finish in time; their connections were closed",
			"timeout", cfg.ShutdownTimeout.String(), "err", err)
		return fmt.Errorf("shutdown: requests in flight did not finish within DEDUP_SHUTDOWN_TIMEOUT (%s)", cfg.ShutdownTimeout)
	}
	log.Info("http server stopped; every request in flight finished")

	// The delivery worker, then pool and dictionary: a delivery cut off
	// here is claimed again once its lease ends.
	stopWorker()
	<-workerDone
	released = true
	b.close(log)
	log.Info("shutdown complete")
	return nil
}

// warnIfSchemaBehind logs a warning when migrations are pending, or when
// the migration status cannot be read. It never fails: the database may be
// down at start, and /readyz says 503 until it answers.
func warnIfSchemaBehind(ctx context.Context, databaseURL string, log *slog.Logger) {
	ctx, cancel := context.WithTimeout(ctx, schemaCheckTimeout)
	defer cancel()
	m, err := repo.NewMigrator(databaseURL)
	if err != nil {
		log.Warn("cannot check the database schema", "err", err)
		return
	}
	defer m.Close()
	status, err := m.Status(ctx)
	if err != nil {
		log.Warn("cannot check the database schema; the database may be down (/readyz answers 503 until it is up)", "err", err)
		return
	}
	pending, latest := 0, int64(0)
	for _, s := range status {
		if s.State == goose.StatePending {
			pending++
		} else if s.Source.Version > latest {
			latest = s.Source.Version
		}
	}
	if pending > 0 {
		log.Warn("the database schema is behind: run `dedupd migrate up`; requests may fail until then",
			"pending_migrations", pending, "applied_version", latest)
		return
	}
	log.Info("database schema is up to date", "version", latest)
}
