package service

import (
	"context"
	"slices"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// Corrections. News is corrected all day — a new headline, a correction
// line, a fixed typo — and the stories corrected most are the ones copied
// most. New content under a stored key that is still a duplicate of the old
// (an exact, near or partial one, as rules_links.go measures, with
// the service's default options) corrects the article: it keeps its place,
// its time of ingestion and so its order before its copies, its cluster
// and its role as head. It is judged against the articles ingested before
// it, as it was when it arrived; its dependants keep linking to it,
// measured against the new content (keepDependants). New content that is
// another story replaces the article as before: its dependants leave it
// (leave) and it is judged as the latest article.
//
// One case keeps the old way: a stored copy of the new text in a cluster
// the corrected article would not be in. Kept in its place, the article
// could not link to a copy ingested after it, and two articles with one
// text would sit in two clusters.

// correct stores new content fp under stored article x, read under its
// cluster's lock, as a correction, and returns its verdict; ok is false,
// nothing stored, when the content is not a correction of x's.
func (s *Service) correct(ctx context.Context, tx Tx, locks *clusterLocks, x Article, in *ArticleInput, fp fingerprint.Fingerprint,
	opts Options, unlocked []uint64) (v Verdict, ok bool, err error) {
	if fp.Version != x.FingerprintVersion {
		return Verdict{}, false, nil
	}
	old, err := tx.ArticleTexts(ctx, []int64{x.ID}, false)
	if err != nil {
		return Verdict{}, false, err
	}
	was := x.fingerprint()
	was.Sentences = old[x.ID].Sentences
	next := newArticle(in, fp, Link{ID: x.ID})
	next.IngestedAt = x.IngestedAt
	if linkTo(memberOf(next, fp), memberOf(x, was), s.defaults).best == nil {
		return Verdict{}, false, nil
	}

	d, candidates, err := s.judge(ctx, tx, fp, in.PublishedAt, scope{exclude: x.ID, before: x.IngestedAt, self: x.ID, unlocked: unlocked}, opts)
	if err != nil {
		return Verdict{}, false, err
	}
	if err := notIntoSubtree(ctx, tx, x, &d); err != nil {
		return Verdict{}, false, err
	}
	if d.best != nil {
		if err := lockMatch(ctx, tx, locks, d.best); err != nil {
			return Verdict{}, false, err
		}
	}
	l, err := placedLink(ctx, tx, x.ID, d, fp.Shingles)
	if err != nil {
		return Verdict{}, false, err
	}
	if ok, err := s.copiesFollow(ctx, tx, x, fp, l); err != nil || !ok {
		return Verdict{}, false, err
	}

	next = newArticle(in, fp, l)
	if err := tx.Correct(ctx, &next, in.Body); err != nil {
		return Verdict{}, false, err
	}
	if next.ClusterID != x.ClusterID { // it links elsewhere now: its subtree follows it
		if err := tx.Relink(ctx, l); err != nil {
			return Verdict{}, false, err
		}
	}
	if err := s.keepDependants(ctx, tx, locks, memberOf(next, fp), x.ClusterID); err != nil {
		return Verdict{}, false, err
	}
	// Its own credit, judged again: the new text may add or drop a credit
	// line, or link elsewhere.
	if err := s.recredit(ctx, tx, []Link{l}); err != nil {
		return Verdict{}, false, err
	}
	v = verdictOf(next, d.matches)
	v.Created, v.Candidates = true, candidates
	return v, true, nil
}

// copiesFollow reports whether every stored copy of text fp (x left out)
// is in the cluster article x will be in once linked by l, or moves there
// with it: its cluster is that one, or it is in x's subtree.
func (s *Service) copiesFollow(ctx context.Context, tx Tx, x Article, fp fingerprint.Fingerprint, l Link) (bool, error) {
	copies, err := tx.ExactMatches(ctx, []ExactQuery{{ContentHash: fp.ContentHash, Version: fp.Version, ExcludeID: x.ID, Limit: CandidateCap}})
	if err != nil {
		return false, err
	}
	cluster := l.ClusterID
	if l.DuplicateOf == 0 {
		cluster = x.ID
	}
	var subtree []int64
	for _, c := range copies[0] {
		switch {
		case c.ClusterID == cluster:
			continue
		case c.ClusterID != x.ClusterID:
			return false, nil
		case x.ClusterID == x.ID: // x heads its cluster: all of it is x's subtree
			continue
		case subtree == nil:
			if subtree, err = tx.Subtree(ctx, x.ID); err != nil {
				return false, err
			}
		}
		if !slices.Contains(subtree, c.ID) {
			return false, nil
		}
	}
	return true, nil
}
