package main

import (
	"context"
	"fmt"
	"sync"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/repo"
	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// serviceStatement is the candidate statement as the service runs it. The
// bench does not copy the service's SQL: it asks repo.Store for candidates
// and reads the statement and its arguments off the store's tracer, then
// runs and EXPLAINs them as it runs and explains every other method.
type serviceStatement struct {
	store *repo.Store

	mu   sync.Mutex
	sql  string
	args []any
}

// newServiceStatement opens a store on the database at dbURL whose
// statements the returned serviceStatement sees. Its sentence search is
// never split (SearchParts 1): the bench times one lookup as one
// statement, and a split search's last part is not the whole lookup.
func newServiceStatement(ctx context.Context, dbURL string) (*serviceStatement, error) {
	s := &serviceStatement{}
	store, err := repo.Open(ctx, dbURL, repo.Options{MaxConns: 1, SearchParts: 1, Tracer: s})
	if err != nil {
		return nil, err
	}
	s.store = store
	return s, nil
}

func (s *serviceStatement) Close() { s.store.Close() }

// TraceQueryStart records the statement a store is about to run.
func (s *serviceStatement) TraceQueryStart(ctx context.Context, _ *pgx.Conn, data pgx.TraceQueryStartData) context.Context {
	s.mu.Lock()
	s.sql, s.args = data.SQL, data.Args
	s.mu.Unlock()
	return ctx
}

func (s *serviceStatement) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// of returns the statement and arguments the service runs to find the
// candidates of h, with no window, no article to exclude and the service's
// candidate cap.
func (s *serviceStatement) of(ctx context.Context, h uint64) (string, []any, error) {
	_, err := s.store.NearCandidates(ctx, []service.NearQuery{{
		Simhash:     h,
		Version:     fingerprint.VersionOneScript,
		MaxDistance: maxDistance,
		Limit:       candidateCap,
	}})
	if err != nil {
		return "", nil, fmt.Errorf("the service's candidate lookup: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sql, s.args, nil
}
