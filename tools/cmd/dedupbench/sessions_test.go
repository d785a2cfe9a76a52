package main

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/repo/dbtest"
	"github.com/newsdedup/newsdedup/service"
)

// TestSessionSampler holds the sampler to what pg_stat_activity shows of
// a database: one session idle inside a transaction that holds an advisory
// lock, another waiting for that lock, and nothing of another database.
func TestSessionSampler(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	dbURL := dbtest.URL(t)
	cfg, err := pgx.ParseConfig(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	holder, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close(ctx)
	waiter, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer waiter.Close(ctx)

	tx, err := holder.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(service.SentenceLockKey(20261126))); err != nil {
		t.Fatal(err)
	}
	waited := make(chan error, 1)
	go func() {
		_, err := waiter.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(service.SentenceLockKey(20261126)))
		waited <- err
	}()
	// The waiter is waiting once the view says so.
	for {
		var n int
		if err := holder.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE datname = $1 AND wait_event = 'advisory'`, cfg.Database).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 1 {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}

	sampler, err := startSessionSampler(ctx, dbtest.ServerURL(t), cfg.Database)
	if err != nil {
		t.Fatal(err)
	}
	elsewhere, err := startSessionSampler(ctx, dbtest.ServerURL(t), cfg.Database+"_none")
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(8 * sessionSampleEvery)
	got, err := sampler.stop()
	if err != nil {
		t.Fatal(err)
	}
	none, err := elsewhere.stop()
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-waited; err != nil {
		t.Fatal(err)
	}

	if got.Samples < 2 {
		t.Fatalf("%d samples in %s", got.Samples, 8*sessionSampleEvery)
	}
	// Both sessions in every sample, in the state they were in throughout.
	if lock, inTx := got.mean(sessionGroupLock), got.mean(sessionGroupSvc); lock != 1 || inTx != 1 {
		t.Errorf("mean sessions waiting for a lock %.2f, in a transaction %.2f, want 1 and 1: %+v", lock, inTx, got)
	}
	if kinds := got.advisoryKinds(); kinds["sentence"] != got.Samples || len(kinds) != 1 {
		t.Errorf("advisory waits by kind %v, want a sentence's in each of %d samples", kinds, got.Samples)
	}
	if running := got.mean(sessionRunning); running != 0 {
		t.Errorf("mean sessions running %.2f, want 0 (the sampler's own is left out): %+v", running, got)
	}
	if none.Samples < 2 || len(none.States) != 0 {
		t.Errorf("another database's sampler saw %+v", none)
	}
}

// TestSessionGroup holds the report's columns to the states they gather.
func TestSessionGroup(t *testing.T) {
	for state, want := range map[string]string{
		"running":              sessionRunning,
		"Lock:advisory":        sessionGroupLock,
		"Lock:advisory:6":      sessionGroupLock,
		"Lock:transactionid":   sessionGroupElse,
		"IO:WALSync":           sessionGroupWAL,
		"LWLock:WALWrite":      sessionGroupWAL,
		"LWLock:WALInsert":     sessionGroupWAL,
		"idle in transaction":  sessionGroupSvc,
		"Client:ClientRead":    sessionGroupSvc,
		"IO:DataFileRead":      sessionGroupElse,
		"LWLock:BufferMapping": sessionGroupElse,
	} {
		if got := sessionGroup(state); got != want {
			t.Errorf("sessionGroup(%q) = %q, want %q", state, got, want)
		}
	}
	s := SessionSamples{Samples: 4, States: map[string]int{"running": 6, "IO:WALSync": 1, "LWLock:WALWrite": 1, "IO:DataFileRead": 3}}
	if got := s.mean(sessionRunning); got != 1.5 {
		t.Errorf("running: %v, want 1.5", got)
	}
	if got := s.mean(sessionGroupWAL); got != 0.5 {
		t.Errorf("WAL: %v, want 0.5", got)
	}
	if got := s.otherStates(); len(got) != 1 || got[0] != "IO:DataFileRead" {
		t.Errorf("other states %v", got)
	}
	// Most frequent first, ties by name: the same order at every call.
	s.States = map[string]int{"Lock:extend": 2, "LWLock:BufferMapping": 2, "IO:DataFileRead": 3, "LWLock:LockManager": 2}
	want := []string{"IO:DataFileRead", "LWLock:BufferMapping", "LWLock:LockManager", "Lock:extend"}
	for range 20 {
		if got := s.otherStates(); !slices.Equal(got, want) {
			t.Fatalf("other states %v, want %v", got, want)
		}
	}
}
