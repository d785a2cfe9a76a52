package service

import (
	"context"
	"errors"

	"github.com/newsdedup/newsdedup/service/fingerprint"
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

// groupItem is an article of a group: what was sent, its fingerprint, and
// once stored, its verdict, or the error it met.
type groupItem struct {
	in      *ArticleInput
	fp      fingerprint.Fingerprint
	opts    Options
	verdict Verdict
	err     error
	lockSet []LockKey // locks' result, once computed
	// setAside: the item was left for the batch's next group once
	// (ingest_group_held.go), and is not again.
	setAside bool
	// stored: the key held an article when the batch began. A group is all
	// stored keys or all new ones, so that a batch sent again after its
	// deadline answers the stored ones on their own (article by article,
	// cheaply) and the new ones still go in groups: a resend makes progress.
	stored bool

	// unlocked are the sentences the current attempt to store the group
	// left unlocked as known boilerplate (ingest_locks_boilerplate.go).
	unlocked []uint64
}

// locks are the locks an item may take, known boilerplate included: what
// the group's budget counts.
func (it *groupItem) locks() []LockKey {
	if it.lockSet == nil {
		it.lockSet, _ = it.lockPlan(nil)
	}
	return it.lockSet
}

// lockPlan is what an item locks, its key and its content, and the
// sentences it leaves unlocked as boilerplate known (contentLocks).
func (it *groupItem) lockPlan(known *knownBoilerplate) (locks []LockKey, unlocked []uint64) {
	content, unlocked := contentLocks(it.fp, known)
	return append([]LockKey{keyLock(it.in.Source, it.in.ExternalID)}, content...), unlocked
}

// groupBuilder collects the items of the next group: it says when an item
// does not fit — it would take the group beyond budget locks
// (ingest_locks_budget.go), or
// its key is in the group already (a group inserts its articles at once, and
// two of one key would collide: the second must see the first stored).
type groupBuilder struct {
	budget int
	// limit, when not 0, is the most articles the group may hold; take
	// doubles it. A batch starts at one (IngestBatch), so that the first
	// group commits even when one article is all its time allows, and a
	// batch sent again after its deadline stores at least that one more.
	limit int
	items []*groupItem
	locks int
	keys  map[ArticleKey]bool
}

// fits reports whether it may join the group; a group of none takes any.
func (b *groupBuilder) fits(it *groupItem) bool {
	if len(b.items) == 0 {
		return true
	}
	return b.locks+len(it.locks()) <= b.budget && !b.keys[it.key()] && b.items[0].stored == it.stored &&
		(b.limit == 0 || len(b.items) < b.limit)
}

// add puts it in the group.
func (b *groupBuilder) add(it *groupItem) {
	if b.keys == nil {
		b.keys = make(map[ArticleKey]bool)
	}
	b.items = append(b.items, it)
	b.locks += len(it.locks())
	b.keys[it.key()] = true
}

// take returns the group and starts a new one.
func (b *groupBuilder) take() []*groupItem {
	g := b.items
	*b = groupBuilder{budget: b.budget, limit: 2 * b.limit}
	return g
}

func (it *groupItem) key() ArticleKey {
	return ArticleKey{Source: it.in.Source, ExternalID: it.in.ExternalID}
}

// storeGroup stores a group and sets each item's verdict or error, but
// for the items it sets aside around the other groups being stored
// (ingest_group_held.go), once its turn has come: those it returns unstored, for
// the caller's next group. When the group's transaction fails for another
// reason than an unreachable database, one article may be at fault: each is
// then stored on its own, so that its error is its own. It returns the
// error that stopped the group (KindUnavailable, or the context's), which
// the items left unstored carry too.
func (s *Service) storeGroup(ctx context.Context, g []*groupItem) (later []*groupItem, err error) {
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
func (s *Service) storeGroupInTurn(ctx context.Context, g []*groupItem) error {
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
func failGroup(g []*groupItem, err error) {
	for _, it := range g {
		it.verdict, it.err = Verdict{}, err
	}
}
