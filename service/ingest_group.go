package service

import (
	"context"
	"errors"
	"slices"

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
	// (group_held.go), and is not again.
	setAside bool

	// unlocked are the sentences the current attempt to store the group
	// left unlocked as known boilerplate (boilerplate_locks.go).
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
// (lockbudget.go), or
// its key is in the group already (a group inserts its articles at once, and
// two of one key would collide: the second must see the first stored).
type groupBuilder struct {
	budget int
	items  []*groupItem
	locks  int
	keys   map[ArticleKey]bool
}

// fits reports whether it may join the group; a group of none takes any.
func (b *groupBuilder) fits(it *groupItem) bool {
	if len(b.items) == 0 {
		return true
	}
	return b.locks+len(it.locks()) <= b.budget && !b.keys[it.key()]
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
	*b = groupBuilder{budget: b.budget}
	return g
}

func (it *groupItem) key() ArticleKey {
	return ArticleKey{Source: it.in.Source, ExternalID: it.in.ExternalID}
}

// storeGroup stores a group and sets each item's verdict or error, but
// for the items it sets aside around the other groups being stored
// (group_held.go), once its turn has come: those it returns unstored, for
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

// saveGroup stores a group, running its transaction again after a conflict
// between concurrent writers.
func (s *Service) saveGroup(ctx context.Context, g []*groupItem) error {
	for _, it := range g {
		if it.in.PublishedAt.IsZero() {
			it.in.PublishedAt = s.now()
		}
	}
	return s.withRetry(ctx, func(tx Tx) error { return s.saveGroupTx(ctx, tx, g) })
}

// saveGroupTx is one attempt to store a group, step by step:
//
//  1. lock every key and content of the group, in ascending order (known
//     boilerplate left out, and confirmed in step 4: boilerplate_locks.go);
//  2. if a key is stored already, store the group article by article;
//  3. find the stored copies and near duplicates of every article, and
//     judge each against them and the articles before it in the group;
//  4. look up the sentences of the articles that are no duplicate, and
//     judge those for partial duplicates the same way;
//  5. lock the clusters of the stored articles linked to, and check they
//     still hold what they were judged against;
//  6. write the articles and their sentences.
func (s *Service) saveGroupTx(ctx context.Context, tx Tx, g []*groupItem) error {
	if len(g) == 1 { // a lone article: as Ingest has always stored one
		return s.saveOneByOne(ctx, tx, g)
	}
	var locks []LockKey
	keys := make([]ArticleKey, len(g))
	for i, it := range g {
		taken, unlocked := it.lockPlan(&s.boilerplate)
		locks = append(locks, taken...)
		keys[i], it.unlocked = it.key(), unlocked
	}
	slices.Sort(locks)
	if err := tx.Lock(ctx, slices.Compact(locks)); err != nil {
		return err
	}
	stored, err := tx.ArticlesByKeys(ctx, keys)
	if err != nil {
		return err
	}
	if len(stored) > 0 {
		return s.saveOneByOne(ctx, tx, g)
	}

	ids, err := tx.NextIDs(ctx, len(g))
	if err != nil {
		return err
	}
	decisions, candidates, err := s.judgeGroup(ctx, tx, g, ids)
	if err != nil {
		return err
	}
	if err := checkGroupMatches(ctx, tx, decisions, ids); err != nil {
		return err
	}

	articles := make([]*Article, len(g))
	bodies := make([]string, len(g))
	for i, it := range g {
		d := decisions[i]
		if d.best != nil && isGroupID(d.best.ID, ids) {
			d.best.clusterID = articles[slices.Index(ids, d.best.ID)].ClusterID
		}
		a := newArticle(it.in, it.fp, link(ids[i], d))
		if a.ClusterID == 0 {
			a.ClusterID = a.ID // heads its cluster; InsertMany writes no cluster_head for it
		}
		articles[i], bodies[i] = &a, it.in.Body
	}
	if err := tx.InsertMany(ctx, articles, bodies); err != nil {
		return err
	}
	for i, it := range g {
		it.verdict = verdictOf(*articles[i], decisions[i].matches)
		it.verdict.Created, it.verdict.Candidates = true, candidates[i]
	}
	return nil
}

// saveOneByOne stores the articles of a group in turn, as Ingest stores
// one, in the group's transaction (whose locks they take again: a
// transaction holds an advisory lock as many times as it takes it).
func (s *Service) saveOneByOne(ctx context.Context, tx Tx, g []*groupItem) error {
	for _, it := range g {
		v, err := s.saveTx(ctx, tx, it.in, it.fp, it.opts)
		if err != nil {
			return err
		}
		it.verdict = v
	}
	return nil
}

// checkGroupMatches locks the clusters of the stored articles the group's
// articles link to, ascending (the transaction holds no cluster lock yet,
// so it may wait for each), and checks that each still holds what it was
// judged against and is still in that cluster; if not, ErrConflict, and the
// group is judged again.
func checkGroupMatches(ctx context.Context, tx Tx, decisions []decision, ids []int64) error {
	var matched, clusters []int64
	for _, d := range decisions {
		if d.best != nil && !isGroupID(d.best.ID, ids) {
			matched = append(matched, d.best.ID)
			clusters = append(clusters, d.best.clusterID)
		}
	}
	if len(matched) == 0 {
		return nil
	}
	slices.Sort(clusters)
	keys := make([]LockKey, 0, len(clusters))
	for _, c := range slices.Compact(clusters) {
		keys = append(keys, ClusterLockKey(c))
	}
	if err := tx.Lock(ctx, keys); err != nil {
		return err
	}
	slices.Sort(matched)
	current, err := tx.Candidates(ctx, slices.Compact(matched))
	if err != nil {
		return err
	}
	now := make(map[int64]Candidate, len(current))
	for _, c := range current {
		now[c.ID] = c
	}
	for _, d := range decisions {
		if d.best == nil || isGroupID(d.best.ID, ids) {
			continue
		}
		c, ok := now[d.best.ID]
		if !ok || c.Simhash != d.best.simhash || c.ContentHash != d.best.contentHash || c.ClusterID != d.best.clusterID {
			return &Error{Kind: KindConflict, Message: "an article a batch links to changed meanwhile"}
		}
	}
	return nil
}
