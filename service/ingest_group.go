package service

import (
	"context"
	"errors"
)

// Groups. A batch is stored in transactions of several articles each — a
// group — rather than one transaction an article: the group's locks are
// taken with one statement, its candidates found with one statement of each
// kind, its articles and their sentences written with one COPY each, and it
// commits once. Every guarantee of a single ingest holds: the locks are the
// same (every key and content lock of the group, in ascending order, before
// any cluster lock), an article is judged against the stored articles and
// against the articles before it in the group, exactly as if they had been
// stored one by one, and a match is checked under its cluster's lock.
//
// A group whose keys are already stored — a retry, or new content under a
// key — is stored article by article in its transaction, as Ingest stores
// one: those are rare, and their order matters.

// groupBuilder collects the items of the next group: it says when an item
// does not fit — it would take the group beyond budget locks
// (locks_budget.go), or
// its key is in the group already (a group inserts its articles at once, and
// two of one key would collide: the second must see the first stored).
type groupBuilder struct {
	budget int
	// limit, when not 0, is the most articles the group may hold; take
	// doubles it. A batch starts at one (IngestBatch), so that the first
	// group commits even when one article is all its time allows, and a
	// batch sent again after its deadline stores at least that one more.
	limit int
	items []*arrival
	locks int
	keys  map[ArticleKey]bool
}

// fits reports whether it may join the group; a group of none takes any.
func (b *groupBuilder) fits(it *arrival) bool {
	if len(b.items) == 0 {
		return true
	}
	return b.locks+len(it.locks()) <= b.budget && !b.keys[it.key()] && b.items[0].stored == it.stored &&
		(b.limit == 0 || len(b.items) < b.limit)
}

// add puts it in the group.
func (b *groupBuilder) add(it *arrival) {
	if b.keys == nil {
		b.keys = make(map[ArticleKey]bool)
	}
	b.items = append(b.items, it)
	b.locks += len(it.locks())
	b.keys[it.key()] = true
}

// take returns the group and starts a new one.
func (b *groupBuilder) take() []*arrival {
	g := b.items
	*b = groupBuilder{budget: b.budget, limit: 2 * b.limit}
	return g
}

// storeGroup stores a group and sets each item's verdict or error, but
// for the items it sets aside around the other groups being stored
// (locks_held.go), once its turn has come: those it returns unstored, for
// the caller's next group. When the group's transaction fails for another
// reason than an unreachable database, one article may be at fault: each is
// then stored on its own, so that its error is its own. It returns the
// error that stopped the group (KindUnavailable, or the context's), which
// the items left unstored carry too.
func (s *Service) storeGroup(ctx context.Context, g []*arrival) (later []*arrival, err error) {
	release, err := takeTurn(ctx, s.groupTurns)
	if err != nil {
		failGroup(g, err)
		return nil, err
	}
	defer release()
	g, later = s.held.setAside(g)
	defer s.held.hold(g)()
	return later, s.storeGroupInTurn(ctx, g)
}

// storeGroupInTurn is storeGroup once the group's turn has come.
func (s *Service) storeGroupInTurn(ctx context.Context, g []*arrival) error {
	s.learnLockBudget(ctx)
	err := s.saveGroup(ctx, g)
	if err == nil {
		return nil
	}
	if errors.Is(err, ErrUnavailable) || ctx.Err() != nil {
		failGroup(g, err)
		return err
	}
	for i, it := range g {
		it.verdict, it.err = s.save(ctx, it.in, it.fp, it.opts)
		if errors.Is(it.err, ErrUnavailable) {
			failGroup(g[i+1:], it.err)
			return it.err
		}
	}
	return nil
}

// failGroup marks items as not stored, for err.
func failGroup(g []*arrival, err error) {
	for _, it := range g {
		it.verdict, it.err = Verdict{}, err
	}
}

// groupLockBudget is the budget of the next group: what the server's lock
// table allows, once known, or defaultGroupLockBudget.
func (s *Service) groupLockBudget() int {
	if b := s.budget.known.Load(); b > 0 {
		return int(b)
	}
	return defaultGroupLockBudget
}

// learnLockBudget asks the server for its lock table's size, once it has
// answered; when it cannot, the default stays and the next group asks again.
func (s *Service) learnLockBudget(ctx context.Context) {
	if s.budget.known.Load() > 0 {
		return
	}
	if n, err := s.store.LockTableSize(ctx); err == nil && n > 0 {
		s.budget.known.Store(int64(budgetFor(n, cap(s.groupTurns))))
	}
}
