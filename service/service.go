package service

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"time"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// maxAttempts bounds how often a write is run again after a conflict between
// concurrent writers.
const maxAttempts = 8

// CandidateCap bounds the candidates one decision reads, the closest first.
// Only articles within 3 bits count, so it is reached only in a dense
// neighbourhood; lowering it to 100 changed 291 of 4,000 verdicts on the
// benchmark's corpus (nearer but unrelated articles crowd out the match).
const CandidateCap = 1000

// Service is newsdedup's domain: ingest, check, read and delete articles.
// It is safe for concurrent use.
type Service struct {
	store      Store
	algorithm  fingerprint.Algorithm
	defaults   Options
	now        func() time.Time
	workers    int           // how many texts are fingerprinted at once, in all requests together
	slots      chan struct{} // one per text being fingerprinted; see fingerprint
	sentences  bool          // keep the sentence index (see WithoutSentenceIndex)
	editorial  editorial     // the keep rule; see editorial.go
	combined   combiner      // single ingests waiting to be stored together; see ingest_queue.go
	groupTurns chan struct{} // one per group being stored; see locks_budget.go
	checkTurns chan struct{} // one per check in progress; see turns.go
	budget     lockBudget    // the locks a group may hold; see locks_budget.go
	held       heldLocks     // the locks of the groups being stored; see locks_held.go
	// boilerplate is the boilerplate known, whose sentences take no
	// lock; see locks_boilerplate.go
	boilerplate knownBoilerplate
	// settled are the boilerplate sentences seen with boilerplateWindow
	// holders or more, whose links need no more measuring; see
	// dependants_boilerplate.go
	settled knownBoilerplate
	sources map[string]SourceInfo // the known sources, for credit; see credit.go
	desk    []string              // the desk's own sources; see copies.go
}

// Setting changes how New builds a Service.
type Setting func(*Service)

// WithoutSentenceIndex makes a Service that keeps no sentence index: it
// stores no sentences, so it finds no partial duplicate and no shared
// sentence of the articles it stores, and ingests faster (the index is
// about half of an ingest's database work). Sentences stored before stay,
// and are found. Nor can it tell a near duplicate that only boilerplate
// sentences join (a portal's slogan as the whole body) from a real one: it
// links both, as decide alone judges (rules_boilerplate.go).
func WithoutSentenceIndex() Setting {
	return func(s *Service) { s.sentences = false }
}

// New returns a Service that stores articles in store, fingerprints them with
// algorithm and judges them with defaults unless a request says otherwise.
func New(store Store, algorithm fingerprint.Algorithm, defaults Options, settings ...Setting) (*Service, error) {
	if algorithm.Version() == fingerprint.VersionExperimental {
		return nil, errors.New("new service: an algorithm with experimental parameters cannot store fingerprints")
	}
	if err := defaults.Validate(); err != nil {
		return nil, fmt.Errorf("new service: default options: %w", err)
	}
	workers := runtime.GOMAXPROCS(0)
	s := &Service{
		store:      store,
		algorithm:  algorithm,
		defaults:   defaults,
		now:        time.Now,
		workers:    workers,
		slots:      make(chan struct{}, workers),
		sentences:  true,
		groupTurns: make(chan struct{}, groupWriters(workers)),
		checkTurns: make(chan struct{}, checkers(workers)),
	}
	for _, set := range settings {
		set(s)
	}
	return s, nil
}

// Defaults returns the options a request starts from.
func (s *Service) Defaults() Options { return s.defaults }

// Ready reports whether the database answers.
func (s *Service) Ready(ctx context.Context) error { return s.store.Ping(ctx) }

// fingerprint makes the fingerprint of a validated text; prefix names the
// text in errors. It waits for one of the service's fingerprinting slots,
// so that however many requests arrive at once, at most s.workers texts are
// normalised and segmented at a time: the memory this takes is bounded by
// s.workers times what the largest text allowed (MaxNormalizedBytes) takes.
func (s *Service) fingerprint(ctx context.Context, t *Text, prefix string) (fingerprint.Fingerprint, error) {
	release, err := takeTurn(ctx, s.slots)
	if err != nil {
		return fingerprint.Fingerprint{}, err
	}
	doc := t.document()
	doc.SkipSentences = !s.sentences
	fp, err := s.algorithm.Fingerprint(ctx, doc)
	release()
	var tooLong *fingerprint.TooLongError
	switch {
	case errors.Is(err, fingerprint.ErrNoWords):
		return fp, Invalid(prefix+"body", "has no words after normalisation (only punctuation, symbols or stop words)")
	case errors.As(err, &tooLong):
		return fp, &Error{Kind: KindTooLarge, Field: prefix + tooLong.Part, Message: prefix + tooLong.Error()}
	case ctx.Err() != nil:
		return fp, deadlineError(ctx)
	}
	return fp, err
}

// deadlineError reports that ctx ended before the work did.
func deadlineError(ctx context.Context) error {
	return &Error{Kind: KindUnavailable, Message: "the request's deadline passed", Err: ctx.Err()}
}

// withRetry runs a write transaction, again after a conflict between
// concurrent writers, up to maxAttempts times, waiting a little longer each
// time (with jitter, so that colliding writers do not collide again). When
// the conflict was a lock another writer held, it first waits for that
// writer to finish, in a transaction of its own that holds nothing else (so
// the wait cannot be part of a circle), and runs again once the lock is
// free.
func (s *Service) withRetry(ctx context.Context, fn func(Tx) error) error {
	var err error
	for attempt := range maxAttempts {
		if attempt > 0 {
			var busy lockBusy
			if errors.As(err, &busy) {
				if werr := s.store.InTx(ctx, func(tx Tx) error { return tx.Lock(ctx, []LockKey{busy.key}) }); werr != nil {
					return werr
				}
			}
			wait := time.Duration(rand.Int64N(int64(attempt) * int64(5*time.Millisecond)))
			select {
			case <-time.After(wait):
			case <-ctx.Done():
				return deadlineError(ctx)
			}
		}
		err = s.store.InTx(ctx, fn)
		if !errors.Is(err, ErrConflict) {
			return err
		}
	}
	return err
}

// WithSources makes a Service that classifies credit with these sources'
// owners and names (the sources table).
func WithSources(sources []SourceInfo) Setting {
	return func(s *Service) {
		s.sources = make(map[string]SourceInfo, len(sources))
		for _, src := range sources {
			s.sources[src.Source] = src
		}
	}
}

// WithDeskSources names the desk's own sources (DEDUP_DESK_SOURCES).
func WithDeskSources(sources []string) Setting {
	return func(s *Service) { s.desk = append([]string(nil), sources...) }
}
