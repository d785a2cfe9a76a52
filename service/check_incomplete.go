package service

import (
	"context"
	"slices"
	"sync"
)

// A check that may answer without part of the sentence index.
//
// With the sentence index in partitions (repo/sentence_partitions.go), a
// partition down or slow past its deadline fails every search, and a check
// answers 503: never a verdict that silently missed stored sentences. A
// check that asks for it (Options.AllowIncomplete) is answered instead from
// the partitions that did answer, its verdict marked incomplete with the
// partitions missing (Verdict.MissingPartitions), so that a caller who
// prefers a partial answer to none can weigh it. An ingest never does: what
// it stores must have been judged against everything.

// MissingPartitions collects, for one check, the sentence partitions its
// searches could not reach. The storage finds it in the context
// (MissingPartitionsOf) and, when it is there, leaves out a partition it
// cannot reach rather than fail; safe for concurrent searches.
type MissingPartitions struct {
	mu    sync.Mutex
	parts []int
}

type missingPartitionsKey struct{}

// WithMissingPartitions returns ctx carrying a new, empty collector: the
// storage searches under it leave out the partitions they cannot reach.
func WithMissingPartitions(ctx context.Context) (context.Context, *MissingPartitions) {
	m := &MissingPartitions{}
	return context.WithValue(ctx, missingPartitionsKey{}, m), m
}

// MissingPartitionsOf returns the collector ctx carries, nil when the
// request did not allow an incomplete answer.
func MissingPartitionsOf(ctx context.Context) *MissingPartitions {
	m, _ := ctx.Value(missingPartitionsKey{}).(*MissingPartitions)
	return m
}

// Add records partition part as missing.
func (m *MissingPartitions) Add(part int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !slices.Contains(m.parts, part) {
		m.parts = append(m.parts, part)
	}
}

// List returns the missing partitions in order, nil for none.
func (m *MissingPartitions) List() []int {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.parts) == 0 {
		return nil
	}
	out := slices.Clone(m.parts)
	slices.Sort(out)
	return out
}
