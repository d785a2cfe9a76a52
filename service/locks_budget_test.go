package service

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestBudgetFor(t *testing.T) {
	tests := []struct {
		lockTable, writers, want int
	}{
		{6400, 2, 800},    // the defaults: 64 × (100 + 0), two writers
		{64 * 20, 2, 160}, // a small server
		{10, 4, 1},        // never none
		{1 << 20, 2, maxGroupLockBudget},
	}
	for _, tt := range tests {
		if got := budgetFor(tt.lockTable, tt.writers); got != tt.want {
			t.Errorf("budgetFor(%d, %d) = %d, want %d", tt.lockTable, tt.writers, got, tt.want)
		}
	}
}

// TestGroupTurns holds every turn: the next group waits, and gives up at
// its deadline; a turn given back lets it in.
func TestGroupTurns(t *testing.T) {
	s := &Service{groupTurns: make(chan struct{}, groupWriters(1))}
	var releases []func()
	for range cap(s.groupTurns) {
		release, err := takeTurn(context.Background(), s.groupTurns)
		if err != nil {
			t.Fatal(err)
		}
		releases = append(releases, release)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := takeTurn(ctx, s.groupTurns); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("a turn while all are held: %v, want unavailable at the deadline", err)
	}
	releases[0]()
	release, err := takeTurn(context.Background(), s.groupTurns)
	if err != nil {
		t.Fatalf("a turn once one is given back: %v", err)
	}
	release()
}
