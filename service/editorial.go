package service

import (
	"context"
	"slices"
	"strconv"
	"sync/atomic"
)

// The editors' decisions: which member of a cluster to keep (rules_keep.go), and
// which articles are not duplicates of each other. Every decision is
// recorded with who made it, when, and what it was.
//
// A split of article X out of its cluster makes X, with the articles whose
// links lead to it (its subtree), a cluster of its own, headed by X, and
// separates every article of the subtree from every other member of the
// cluster: the judging never links one of a separated pair to the other
// again (judge), so re-ingesting X, or any article of its subtree, with the
// same or an edited text keeps it apart. Splitting out the head of a
// cluster leaves it alone: it is separated from every other member, and the
// articles that linked to it are judged again, as when an article leaves.

// editorial is the service's part of the editors' decisions: the keep
// policy, and whether it is recorded in the database.
type editorial struct {
	policy    KeepPolicy
	recorded  atomic.Bool
	cursorKey atomic.Pointer[[]byte] // see CursorKey
	signinKey atomic.Pointer[[]byte] // see SigninToken
}

// SetKeepPolicy sets the preferred sources of the keep rule. Call it before
// the service is used. KindInvalid for a blank, repeated or overlong source.
func (s *Service) SetKeepPolicy(p KeepPolicy) error {
	if err := p.Validate(); err != nil {
		return err
	}
	s.editorial.policy = KeepPolicy{Sources: slices.Clone(p.Sources)}
	return nil
}

// KeepPolicy returns the keep rule's preferred sources.
func (s *Service) KeepPolicy() KeepPolicy { return s.editorial.policy }

// RecordKeepPolicy records the keep rule in the database, for the
// reporting views (keep_policy, cluster_kept). The service records it
// itself before its first editorial read or write; dedupd serve records it
// at start.
func (s *Service) RecordKeepPolicy(ctx context.Context) error {
	err := s.store.InTx(ctx, func(tx Tx) error {
		return tx.RecordKeepPolicy(ctx, s.editorial.policy.Sources, KeepLengthTolerancePercent)
	})
	if err == nil {
		s.editorial.recorded.Store(true)
	}
	return err
}

// editorsDecide is the way of every editor's decision: it checks who
// decides and why (in, KindInvalid), records the keep rule if not yet, and
// runs decide in a transaction of its own, again after a conflict between
// concurrent writers.
func editorsDecide[T any](ctx context.Context, s *Service, in *DecisionInput, decide func(Tx) (T, error)) (T, error) {
	var out T
	if err := in.validate(); err != nil {
		return out, err
	}
	if err := s.ensureKeepPolicy(ctx); err != nil {
		return out, err
	}
	err := s.withRetry(ctx, func(tx Tx) error {
		var err error
		out, err = decide(tx)
		return err
	})
	return out, err
}

// ensureKeepPolicy records the keep rule unless this process did already.
func (s *Service) ensureKeepPolicy(ctx context.Context) error {
	if s.editorial.recorded.Load() {
		return nil
	}
	return s.RecordKeepPolicy(ctx)
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
