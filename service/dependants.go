package service

import (
	"cmp"
	"context"
	"crypto/sha256"
	"slices"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// Dependants. When an article changes or leaves (deleted, its key given
// another story or a correction, refingerprinted, split off), the articles
// that link to it must go on linking to a real match or to none. They are
// read, measured in memory (rules_links.go), the unmatched judged against
// the stored articles together, and their links and credit written, in a
// bounded number of statements however many they are: the steps are in
// docs/design-notes.md, "service: dependants judged together".

// readGroup reads the dependants of article x as a group, nil when it has
// none.
func (s *Service) readGroup(ctx context.Context, r ArticleReader, x int64) (*group, error) {
	deps, err := r.Dependants(ctx, x)
	if err != nil || len(deps) == 0 {
		return nil, err
	}
	textOf := make(map[[sha256.Size]byte]int64)
	ids := make([]int64, 0, len(deps)+1)
	var texts []int64
	for _, d := range deps {
		ids = append(ids, d.ID)
		if _, ok := textOf[d.ContentHash]; !ok {
			textOf[d.ContentHash] = d.ID
			texts = append(texts, d.ID)
		}
	}
	stored, err := r.ArticleTexts(ctx, texts, false)
	if err != nil {
		return nil, err
	}
	pairs, err := r.SeparatedPairs(ctx, append(ids, x))
	if err != nil {
		return nil, err
	}
	apart := make(map[int64]separations)
	for _, p := range pairs {
		for k := range 2 {
			if apart[p[k]] == nil {
				apart[p[k]] = make(separations)
			}
			apart[p[k]][p[1-k]] = true
		}
	}
	members := make([]*member, len(deps))
	for i, d := range deps {
		fp := d.fingerprint()
		fp.Sentences = stored[textOf[d.ContentHash]].Sentences
		members[i] = &member{Article: d, fp: fp, textOf: textOf[d.ContentHash]}
	}
	return newGroup(members, apart, s.defaults), nil
}

// readDependants reads the dependants of article x, whose cluster's lock
// is held, as a group. The dependants heading clusters of their own
// (rules_drift.go) are in clusters that lock does not cover: it locks
// those too, and reads the group again once it holds them.
func (s *Service) readDependants(ctx context.Context, tx Tx, locks *clusterLocks, x int64) (*group, error) {
	g, err := s.readGroup(ctx, tx, x)
	if err != nil || g == nil {
		return g, err
	}
	var heads []int64
	for _, m := range g.members {
		if m.IsDriftHead() {
			heads = append(heads, m.ID)
		}
	}
	if len(heads) == 0 {
		return g, nil
	}
	slices.Sort(heads)
	for _, h := range heads {
		if err := locks.lock(ctx, tx, h); err != nil {
			return nil, err
		}
	}
	return s.readGroup(ctx, tx, x)
}

// leave prepares article x, read under its cluster's lock, to leave: its
// dependants stay together, headed by the earliest of them — which is
// judged again against the articles ingested before it, x left out, and
// may link to one — each of the others linking to a dependant before it
// that it matches, or judged again against the stored articles.
func (s *Service) leave(ctx context.Context, tx Tx, locks *clusterLocks, x Article) error {
	g, err := s.readDependants(ctx, tx, locks, x.ID)
	if err != nil || g == nil {
		return err
	}
	p := newRelinks(g, x.ClusterID)
	head, err := s.rejudge(ctx, tx, locks, g.members[0].Article, x.ID)
	if err != nil {
		return err
	}
	p.set(0, head, true)
	var rest []int
	for i := 1; i < len(g.members); i++ {
		if d := g.within(i); d.best != nil {
			p.set(i, link(g.members[i].ID, d), true)
		} else {
			rest = append(rest, i)
		}
	}
	if err := s.judgeRest(ctx, tx, locks, p, rest, x.ID); err != nil {
		return err
	}
	return s.relinkAll(ctx, tx, p)
}

// keepDependants measures the dependants of article next, whose corrected
// content was just stored in its place (correct.go), against that
// content: each whose link still holds keeps it, with its measures and
// status anew (an exact copy of the old text is a near duplicate of the
// new); the others link to a dependant before them that they match, or
// are judged again against the stored articles. was is the cluster next
// was in before.
func (s *Service) keepDependants(ctx context.Context, tx Tx, locks *clusterLocks, next *member, was int64) error {
	g, err := s.readDependants(ctx, tx, locks, next.ID)
	if err != nil || g == nil {
		return err
	}
	p := newRelinks(g, was, next.ClusterID)
	type measured struct {
		text    [sha256.Size]byte
		version fingerprint.Version
		within  bool
	}
	memo := make(map[measured]decision) // a text measured once against next, in or out of its window
	var rest []int
	for i, m := range g.members {
		key := measured{m.ContentHash, m.fp.Version, inWindow(next.PublishedAt, m.PublishedAt, g.opts)}
		d, ok := memo[key]
		if !ok {
			d = linkTo(m, next, g.opts)
			memo[key] = d
		}
		if d.best == nil {
			d = g.within(i)
		}
		if d.best == nil {
			rest = append(rest, i)
		} else {
			p.set(i, link(m.ID, d), true)
		}
	}
	if err := s.judgeRest(ctx, tx, locks, p, rest, 0); err != nil {
		return err
	}
	return s.relinkAll(ctx, tx, p)
}

// relinkAll writes the links of p that changed and judges again the
// credit of those that lead to another article than before (recredit).
func (s *Service) relinkAll(ctx context.Context, tx Tx, p *relinks) error {
	ls := p.changed()
	if err := tx.RelinkMany(ctx, ls); err != nil {
		return err
	}
	var retargeted []Link
	for _, l := range ls {
		if p.g.members[p.index[l.ID]].DuplicateOf != l.DuplicateOf {
			retargeted = append(retargeted, l)
		}
	}
	return s.recredit(ctx, tx, retargeted)
}

// judgeRest judges the members rest of p's group in bulk (judgeStored) and
// sets their links.
func (s *Service) judgeRest(ctx context.Context, tx Tx, locks *clusterLocks, p *relinks, rest []int, exclude int64) error {
	judged, err := s.judgeStored(ctx, tx, locks, p.g, rest, exclude)
	if err != nil {
		return err
	}
	for k, i := range rest {
		l := judged[k]
		if l.DuplicateOf != 0 && !slices.Contains(p.reshaped, l.ClusterID) {
			if err := placeLink(ctx, tx, &l, p.g.members[i].fp.Shingles); err != nil {
				return err
			}
		}
		p.set(i, l, false)
	}
	return nil
}

// relinks are the new links of a group's members, and the clusters they
// go to: a member linking to another goes where that one goes; one
// linking to none heads its own; one linking elsewhere goes to that
// article's cluster, unless that cluster is being reshaped (the clusters
// of the article that changes, before and after), where the database
// finds the head once every link is set (RelinkMany).
type relinks struct {
	g        *group
	links    []Link
	trusted  []bool
	index    map[int64]int
	reshaped []int64
}

func newRelinks(g *group, reshaped ...int64) *relinks {
	p := &relinks{g: g, links: make([]Link, len(g.members)), trusted: make([]bool, len(g.members)),
		index: make(map[int64]int, len(g.members)), reshaped: reshaped}
	for i, m := range g.members {
		p.index[m.ID] = i
	}
	return p
}

// set gives member i link l; trusted says that l.ClusterID, when l links
// outside the group, is where the member goes, whatever cluster it is.
func (p *relinks) set(i int, l Link, trusted bool) {
	p.links[i], p.trusted[i] = l, trusted
}

// changed returns the links to write: those of the members whose verdict
// or cluster changes, with the cluster each goes to (0 when the database
// is to find it).
func (p *relinks) changed() []Link {
	var out []Link
	for i, m := range p.g.members {
		l := &p.links[i]
		j, inGroup := p.index[l.DuplicateOf]
		switch {
		case l.DuplicateOf == 0:
			l.ClusterID = 0
		case m.IsDriftHead() || l.ClusterID == m.ID:
			// It heads a cluster of its own though linked (rules_drift.go),
			// and goes on heading it: a relink never merges two clusters.
			l.ClusterID = m.ID
		case inGroup:
			l.ClusterID = p.links[j].ClusterID
			if p.links[j].DuplicateOf == 0 {
				l.ClusterID = p.g.members[j].ID
			}
		case !p.trusted[i] && slices.Contains(p.reshaped, l.ClusterID):
			l.ClusterID = 0
		}
		cluster := cmp.Or(l.ClusterID, m.ID)
		if l.DuplicateOf != 0 && l.ClusterID == 0 || cluster != m.ClusterID || !sameLink(m.Article, *l) {
			out = append(out, *l)
		}
	}
	return out
}

// relink judges stored article d again against the articles ingested before
// it, with the service's default options (a request's own options are not
// stored), leaving out article exclude, and stores the new link: to its best
// match, moving the articles that link to d along, or none, d heading a
// cluster of its own.
func (s *Service) relink(ctx context.Context, tx Tx, locks *clusterLocks, d Article, exclude int64) error {
	return s.relinkWithin(ctx, tx, locks, d, scope{exclude: exclude, before: d.IngestedAt, self: d.ID})
}

// relinkWithin is relink judging d against the stored articles within sc.
func (s *Service) relinkWithin(ctx context.Context, tx Tx, locks *clusterLocks, d Article, sc scope) error {
	l, err := s.rejudgeWithin(ctx, tx, locks, d, sc)
	if err != nil {
		return err
	}
	if err := tx.Relink(ctx, l); err != nil || l.DuplicateOf == d.DuplicateOf {
		return err
	}
	return s.recredit(ctx, tx, []Link{l})
}

// rejudge is relink's judgement: the link stored article d gets, its match
// locked and checked.
func (s *Service) rejudge(ctx context.Context, tx Tx, locks *clusterLocks, d Article, exclude int64) (Link, error) {
	return s.rejudgeWithin(ctx, tx, locks, d, scope{exclude: exclude, before: d.IngestedAt, self: d.ID})
}

// rejudgeWithin is rejudge within sc; with sc.notAfter, a partial match
// that appeared after d (one heading its cluster, which d would head
// arriving) links it to none.
func (s *Service) rejudgeWithin(ctx context.Context, tx Tx, locks *clusterLocks, d Article, sc scope) (Link, error) {
	fp, err := storedFingerprint(ctx, tx, d)
	if err != nil {
		return Link{}, err
	}
	dec, _, err := s.judge(ctx, tx, fp, d.PublishedAt, sc, s.defaults)
	if err != nil {
		return Link{}, err
	}
	if !sc.notAfter.IsZero() && dec.best != nil && sc.notAfter.Before(appeared(dec.best.PublishedAt, dec.best.ingestedAt)) {
		dec.best, dec.status = nil, StatusUnique
	}
	if err := notIntoSubtree(ctx, tx, d, &dec); err != nil {
		return Link{}, err
	}
	if dec.best != nil {
		if err := lockMatch(ctx, tx, locks, dec.best); err != nil {
			return Link{}, err
		}
	}
	return placedLink(ctx, tx, d.ID, dec, fp.Shingles)
}
