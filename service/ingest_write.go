package service

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// save runs saveTx until it does not collide with a concurrent writer.
func (s *Service) save(ctx context.Context, in *ArticleInput, fp fingerprint.Fingerprint, opts Options) (Verdict, error) {
	if in.PublishedAt.IsZero() {
		in.PublishedAt, in.arrived = s.now(), true
	}
	var v Verdict
	err := s.withRetry(ctx, func(tx Tx) error {
		var err error
		v, err = s.saveTx(ctx, tx, in, fp, opts)
		return err
	})
	return v, err
}

// saveTx is one attempt to store an article, step by step:
//
//  1. lock its key and read what is stored under it;
//  2. lock its family-A blocks and its sentences (but known boilerplate,
//     which judge confirms), so that a near or partial duplicate arriving
//     at the same instant waits for this one (or this one for it);
//  3. if the key holds the same content, answer its stored verdict; if it
//     holds a text the new content corrects, correct it in its place
//     (correct.go); if another story, that content leaves: the articles
//     linking to it are measured again (dependants.go);
//  4. judge the article against the stored ones;
//  5. lock the cluster of its best match and check the match still holds
//     what it was judged against;
//  6. insert the article, or replace the key's content, with its link;
//  7. judge again the links made on a sentence of it that has just become
//     boilerplate (dependants_boilerplate.go).
func (s *Service) saveTx(ctx context.Context, tx Tx, in *ArticleInput, fp fingerprint.Fingerprint, opts Options) (Verdict, error) {
	if err := tx.Lock(ctx, []LockKey{keyLock(in.Source, in.ExternalID)}); err != nil {
		return Verdict{}, err
	}
	existing, err := tx.ArticleByKey(ctx, in.Source, in.ExternalID)
	replacing := err == nil
	if err != nil && !errors.Is(err, ErrNotFound) {
		return Verdict{}, err
	}
	content, unlocked := contentLocks(fp, &s.boilerplate)
	if err := tx.Lock(ctx, content); err != nil {
		return Verdict{}, err
	}

	var locks clusterLocks
	if replacing {
		if existing, err = lockCluster(ctx, tx, &locks, existing.ID, existing.ClusterID); err != nil {
			return Verdict{}, err
		}
		if existing.ContentHash == fp.ContentHash && existing.FingerprintVersion == fp.Version {
			return s.storedVerdict(ctx, tx, existing, opts)
		}
		if v, ok, err := s.correct(ctx, tx, &locks, existing, in, fp, opts, unlocked); err != nil || ok {
			return v, err
		}
		if err := s.leave(ctx, tx, &locks, existing); err != nil {
			return Verdict{}, err
		}
	}

	d, candidates, err := s.judge(ctx, tx, fp, in.PublishedAt, scope{exclude: existing.ID, self: existing.ID, unlocked: unlocked, heads: !replacing && !in.arrived}, opts)
	if err != nil {
		return Verdict{}, err
	}
	if d.best != nil {
		if err := lockMatch(ctx, tx, &locks, d.best); err != nil {
			return Verdict{}, err
		}
	}
	if !replacing && promotes(effectivePublished(in.PublishedAt, s.now()), in.arrived, d) {
		a, err := s.saveAsHead(ctx, tx, &locks, in, fp, d, opts)
		if err != nil {
			return Verdict{}, err
		}
		if err := s.relinkBoilerplateLinks(ctx, tx, &locks, []int64{a.ID}, []fingerprint.Fingerprint{fp}, []decision{d}); err != nil {
			return Verdict{}, err
		}
		v := verdictOf(a, d.matches)
		v.Created, v.Candidates = true, candidates
		return v, nil
	}

	l, err := placedLink(ctx, tx, existing.ID, d, fp.Shingles)
	if err != nil {
		return Verdict{}, err
	}
	a := newArticle(in, fp, l)
	if replacing {
		err = tx.Replace(ctx, &a, in.Body)
	} else {
		err = tx.Insert(ctx, &a, in.Body)
	}
	if err != nil {
		return Verdict{}, err
	}
	if err := s.setCredits(ctx, tx, []*Article{&a}); err != nil {
		return Verdict{}, err
	}
	if !replacing && !in.arrived {
		if err := s.relinkLaterCopies(ctx, tx, &locks, a, effectivePublished(in.PublishedAt, s.now()), d, opts); err != nil {
			return Verdict{}, err
		}
	}
	if err := s.relinkBoilerplateLinks(ctx, tx, &locks, []int64{a.ID}, []fingerprint.Fingerprint{fp}, []decision{d}); err != nil {
		return Verdict{}, err
	}
	v := verdictOf(a, d.matches)
	v.Created, v.Candidates = true, candidates
	return v, nil
}

// newArticle is the row of an article with its fingerprint and link.
func newArticle(in *ArticleInput, fp fingerprint.Fingerprint, l Link) Article {
	return Article{
		ID:                 l.ID,
		ExternalID:         in.ExternalID,
		Source:             in.Source,
		Title:              in.Title,
		URL:                in.URL,
		ContentType:        in.ContentType,
		PublishedAt:        in.PublishedAt,
		Simhash:            fp.Simhash,
		FingerprintVersion: fp.Version,
		Words:              fp.Words,
		ContentHash:        fp.ContentHash,
		Shingles:           fp.Shingles,
		Sentences:          fp.Sentences,
		PlainBody:          fp.PlainBody,
		Status:             l.Status,
		DuplicateOf:        l.DuplicateOf,
		ClusterID:          l.ClusterID,
		Similarity:         l.Similarity,
	}
}

// verdictOf is the verdict of stored article a, whose link names the
// article it links to, with the matches it was judged on.
func verdictOf(a Article, matches []Match) Verdict {
	v := Verdict{
		ID:         a.ID,
		ExternalID: a.ExternalID,
		Source:     a.Source,
		Status:     a.Status,
		ClusterID:  a.ClusterID,
		Matches:    matches,
		Simhash:    a.Simhash,
	}
	if a.DuplicateOf != 0 {
		v.DuplicateOf = &Reference{ID: a.DuplicateOf, Similarity: a.Similarity}
		for _, m := range matches {
			if m.ID == a.DuplicateOf {
				v.DuplicateOf.ExternalID = m.ExternalID
				break
			}
		}
	}
	return v
}

// storedVerdict is the verdict of an article already stored with the same
// content: its stored status and link, and its matches among the articles
// ingested before it.
func (s *Service) storedVerdict(ctx context.Context, r Reader, a Article, opts Options) (Verdict, error) {
	fp, err := storedFingerprint(ctx, r, a)
	if err != nil {
		return Verdict{}, err
	}
	d, candidates, err := s.judge(ctx, r, fp, a.PublishedAt, scope{exclude: a.ID, before: a.IngestedAt, self: a.ID}, opts)
	if err != nil {
		return Verdict{}, err
	}
	v := verdictOf(a, d.matches)
	v.Candidates = candidates
	if v.DuplicateOf != nil && v.DuplicateOf.ExternalID == "" {
		// The link is not among this request's matches (its options differ
		// from the ones that judged the article): read its key.
		linked, err := r.Article(ctx, a.DuplicateOf)
		if err != nil {
			return Verdict{}, err
		}
		v.DuplicateOf.ExternalID = linked.ExternalID
	}
	return v, nil
}

// saveGroup stores a group, running its transaction again after a conflict
// between concurrent writers.
func (s *Service) saveGroup(ctx context.Context, g []*arrival) error {
	for _, it := range g {
		if it.in.PublishedAt.IsZero() {
			it.in.PublishedAt, it.in.arrived = s.now(), true
		}
	}
	return s.withRetry(ctx, func(tx Tx) error { return s.saveGroupTx(ctx, tx, g) })
}

// saveGroupTx is one attempt to store a group, step by step:
//
//  1. lock every key and content of the group, in ascending order (known
//     boilerplate left out, and confirmed in step 4: locks_boilerplate.go);
//  2. if a key is stored already, store the group article by article (as
//     when an article was published before the copy it matches, step 3);
//  3. find the stored copies and near duplicates of every article, and
//     judge each against them and the articles before it in the group;
//  4. look up the sentences of the articles that are no duplicate, and
//     judge those for partial duplicates the same way;
//  5. lock the clusters of the stored articles linked to, and check they
//     still hold what they were judged against;
//  6. write the articles and their sentences;
//  7. judge again the links made on a sentence that has just become
//     boilerplate (dependants_boilerplate.go).
func (s *Service) saveGroupTx(ctx context.Context, tx Tx, g []*arrival) error {
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
	shares := sharesWithLater(g, s.now())
	for i, it := range g {
		published := effectivePublished(it.in.PublishedAt, s.now())
		if promotes(published, it.in.arrived, decisions[i]) || (!it.in.arrived && len(headsCopies(published, decisions[i])) > 0) ||
			len(decisions[i].later) > 0 ||
			(!it.in.arrived && decisions[i].status == StatusPartialDuplicate && (laterMatch(decisions[i], published) || shares[i])) {
			// It heads the cluster of copies published after it, or relinks
			// partial copies stored before it (ingest_promote.go), or an
			// article published after it, stored or before it in the group,
			// may be such a copy — one left out as its partial match
			// (decision.later), or, for a partial duplicate, which looks for
			// its copies (judgeCopies), one of its matches or one of the
			// group sharing a sentence with it — which a group's single
			// write does not do: store one by one.
			return s.saveOneByOne(ctx, tx, g)
		}
	}
	if err := checkGroupMatches(ctx, tx, decisions, ids); err != nil {
		return err
	}

	origs, err := storedOriginals(ctx, tx, decisions, ids)
	if err != nil {
		return err
	}
	articles := make([]*Article, len(g))
	bodies := make([]string, len(g))
	for i, it := range g {
		d := decisions[i]
		if d.best != nil && isGroupID(d.best.ID, ids) {
			d.best.clusterID = articles[slices.Index(ids, d.best.ID)].ClusterID
		}
		l := link(ids[i], d)
		place(&l, it.fp.Shingles, origs)
		a := newArticle(it.in, it.fp, l)
		if a.ClusterID == 0 {
			a.ClusterID = a.ID // heads its cluster; InsertMany writes no cluster_head for it
		}
		noteOriginal(origs, &a)
		articles[i], bodies[i] = &a, it.in.Body
	}
	if err := tx.InsertMany(ctx, articles, bodies); err != nil {
		return err
	}
	if err := s.setCredits(ctx, tx, articles); err != nil {
		return err
	}
	fps := make([]fingerprint.Fingerprint, len(g))
	for i, it := range g {
		fps[i] = it.fp
	}
	if err := s.relinkBoilerplateLinks(ctx, tx, nil, ids, fps, decisions); err != nil {
		return err
	}
	for i, it := range g {
		it.verdict = verdictOf(*articles[i], decisions[i].matches)
		it.verdict.Created, it.verdict.Candidates = true, candidates[i]
	}
	return nil
}

// storedOriginals reads the originals of the stored clusters a group's
// articles link to, locked by checkGroupMatches, for the drift rule.
func storedOriginals(ctx context.Context, r ArticleReader, decisions []decision, ids []int64) (map[int64]ClusterOriginal, error) {
	var clusters []int64
	for _, d := range decisions {
		if d.best != nil && !isGroupID(d.best.ID, ids) {
			clusters = append(clusters, d.best.clusterID)
		}
	}
	if len(clusters) == 0 {
		return map[int64]ClusterOriginal{}, nil
	}
	slices.Sort(clusters)
	return r.ClusterOriginals(ctx, slices.Compact(clusters))
}

// noteOriginal records group article a, written before the group's later
// articles, as its cluster's original when it is one.
func noteOriginal(origs map[int64]ClusterOriginal, a *Article) {
	c := ClusterOriginal{ID: a.ID, PublishedAt: a.PublishedAt, Shingles: a.Shingles,
		HoldsMore: holdsMore(KeepCandidate{Status: a.Status, Coverage: a.Coverage})}
	if o, ok := origs[a.ClusterID]; !ok || earlierOriginal(c, o) {
		origs[a.ClusterID] = c
	}
}

// saveOneByOne stores the articles of a group in turn, as Ingest stores
// one, in the group's transaction (whose locks they take again: a
// transaction holds an advisory lock as many times as it takes it).
func (s *Service) saveOneByOne(ctx context.Context, tx Tx, g []*arrival) error {
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

// laterMatch reports whether one of d's matches was published after
// published.
func laterMatch(d decision, published time.Time) bool {
	return slices.ContainsFunc(d.matches, func(m Match) bool { return published.Before(m.published()) })
}

// sharesWithLater reports for each article of group g whether one before
// it in the group, published after it (effective times at now), shares a
// sentence with it: one pass, each sentence text with the latest
// publication of the articles before holding it.
func sharesWithLater(g []*arrival, now time.Time) []bool {
	latest := make(map[uint64]time.Time)
	out := make([]bool, len(g))
	for i, it := range g {
		published := effectivePublished(it.in.PublishedAt, now)
		for _, s := range it.fp.Sentences {
			if published.Before(latest[s.TextHash]) {
				out[i] = true
				break
			}
		}
		for _, s := range it.fp.Sentences {
			if published.After(latest[s.TextHash]) {
				latest[s.TextHash] = published
			}
		}
	}
	return out
}
