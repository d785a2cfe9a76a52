package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/newsdedup/newsdedup/handlers"
	"github.com/newsdedup/newsdedup/repo"
	"github.com/newsdedup/newsdedup/repo/dbtest"
	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// The service under evaluation is the one dedupd serves — the same repo,
// service and handlers, with the defaults dedupd ships — on a scratch
// database of its own and a real loopback listener in this process, spoken
// to over HTTP with JSON as a newsroom's CMS would.

// serverRequestTimeout is the deadline of every request: a batch of 100
// long articles can take more than dedupd's default of 10 s on two busy
// cores, and the evaluation measures verdicts, not deadlines.
const serverRequestTimeout = 2 * time.Minute

// server is the service on a loopback port over a scratch database.
type server struct {
	URL string // http://127.0.0.1:port

	serverURL, dbName string
	dbURL             string // the scratch database
	srv               *http.Server
	store             *repo.Store
	done              chan error
}

// startServer creates a scratch database named prefix plus a random suffix
// on the PostgreSQL server serverURL names, migrates it and serves the API
// over it with the shipped defaults. Stop drops the database.
func startServer(ctx context.Context, serverURL, prefix string, dict *fingerprint.Dictionary) (*server, error) {
	var suffix [6]byte
	if _, err := rand.Read(suffix[:]); err != nil {
		return nil, err
	}
	s := &server{serverURL: serverURL, dbName: prefix + hex.EncodeToString(suffix[:])}
	dbURL, err := dbtest.CreateDatabase(ctx, serverURL, s.dbName, dbtest.DatabaseOptions{})
	if err != nil {
		return nil, err
	}
	fail := func(err error) (*server, error) {
		return nil, errors.Join(err, s.dropDatabase())
	}
	s.dbURL = dbURL
	if err := dbtest.MigrateUp(ctx, dbURL); err != nil {
		return fail(fmt.Errorf("migrate %s: %w", s.dbName, err))
	}
	if s.store, err = repo.Open(ctx, dbURL, repo.Options{MaxConns: 8}); err != nil {
		return fail(err)
	}
	// The corpora's sources by name, as a sources file gives them, for
	// the credit rule (credit.go).
	if err := s.store.ReplaceSources(ctx, creditSources); err != nil {
		s.store.Close()
		return fail(err)
	}
	svc, err := service.New(s.store, fingerprint.NewWeighted(dict, fingerprint.DefaultWeightedParams), service.DefaultOptions,
		service.WithSources(creditSources))
	if err != nil {
		s.store.Close()
		return fail(err)
	}
	h, err := handlers.New(svc, handlers.Config{
		Logger:         slog.New(slog.DiscardHandler),
		Registry:       prometheus.NewRegistry(),
		RequestTimeout: serverRequestTimeout,
		MaxBatchBytes:  handlers.DefaultMaxBatchBytes,
	})
	if err != nil {
		s.store.Close()
		return fail(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		s.store.Close()
		return fail(fmt.Errorf("listen on loopback: %w", err))
	}
	s.URL = "http://" + ln.Addr().String()
	s.srv = &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	s.done = make(chan error, 1)
	go func() { s.done <- s.srv.Serve(ln) }()
	return s, nil
}

// Stop shuts the server down, closes its pool and drops its database.
func (s *server) Stop() error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err := s.srv.Shutdown(ctx)
	if serr := <-s.done; !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	s.store.Close()
	return errors.Join(err, s.dropDatabase())
}

// dropDatabase drops the scratch database, even after the run's context
// was cancelled.
func (s *server) dropDatabase() error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return dbtest.DropDatabase(ctx, s.serverURL, s.dbName)
}
