package service

import (
	"context"
	"time"
)

// DecisionQuery asks for the decisions log across clusters: the decisions
// made in [From, To) (default: the last 7 days), by Editor and of Action
// when set.
type DecisionQuery struct {
	From, To time.Time
	Editor   string
	Action   Action // "" for every action
	Limit    int    // 1 to MaxCopiesLimit; DefaultCopiesLimit when 0
}

func (q *DecisionQuery) check(now time.Time) error {
	if err := checkStrings("", field{"editor", q.Editor}); err != nil {
		return err
	}
	switch q.Action {
	case "", ActionKeep, ActionReset, ActionSplit, ActionUndoSplit:
	default:
		return Invalid("action", "must be keep, reset, split or undo_split, not %q", q.Action)
	}
	if q.To.IsZero() {
		q.To = now
	}
	if q.From.IsZero() {
		q.From = q.To.Add(-7 * 24 * time.Hour)
	}
	if !q.From.Before(q.To) {
		return Invalid("from", "must be before to")
	}
	if q.Limit == 0 {
		q.Limit = DefaultCopiesLimit
	}
	if q.Limit < 1 || q.Limit > MaxCopiesLimit {
		return Invalid("limit", "must be 1 to %d", MaxCopiesLimit)
	}
	return nil
}

// DecisionLog returns the decisions q asks for across clusters, latest
// first, and whether there are more than q.Limit. KindInvalid for a bad
// query.
func (s *Service) DecisionLog(ctx context.Context, q DecisionQuery) ([]Decision, bool, error) {
	if err := q.check(time.Now()); err != nil {
		return nil, false, err
	}
	var out []Decision
	err := s.store.DecisionLog(ctx, q, q.Limit+1, func(d Decision) error {
		out = append(out, d)
		return nil
	})
	if len(out) > q.Limit {
		return out[:q.Limit], true, err
	}
	return out, false, err
}

// EachDecision calls fn with each decision q asks for, latest first, up
// to MaxExportRows (q.Limit ignored), for an export; it says whether it
// was cut there.
func (s *Service) EachDecision(ctx context.Context, q DecisionQuery, fn func(Decision) error) (truncated bool, err error) {
	q.Limit = 1
	if err := q.check(time.Now()); err != nil {
		return false, err
	}
	n := 0
	err = s.store.DecisionLog(ctx, q, MaxExportRows+1, func(d Decision) error {
		if n++; n > MaxExportRows {
			truncated = true
			return nil
		}
		return fn(d)
	})
	return truncated, err
}
