package service

import (
	"context"
	"errors"
	"time"
)

// The changes between members of a cluster, as the editors' page and the
// API show them: the diff of any two (DiffMembers), and how each member
// differs from the cluster's original (Differences).

// MemberDiff is the diff of two members of a cluster: the runs that turn
// From's headline and text, as a reader sees them, into To's.
type MemberDiff struct {
	From, To    Article
	Title, Body []DiffRun
	Difference  Difference // Difference.Truncated: Body spells the texts' starts only
	// Against is the earlier version of From that To copied, which the
	// diff is of, when To still carries what From corrected since; nil
	// when the diff is of From's current content.
	Against *CopiedVersion
}

// MaxDifferences is the most members of a cluster whose difference from
// the original Differences reads: each costs a diff of two texts.
const MaxDifferences = 60

// DiffMembers diffs two members of the cluster headed by clusterID.
// KindNotFound when either is not a member of it.
func (s *Service) DiffMembers(ctx context.Context, clusterID, from, to int64) (MemberDiff, error) {
	var arts [2]Article
	for i, id := range []int64{from, to} {
		a, err := s.store.Article(ctx, id)
		if errors.Is(err, ErrNotFound) || (err == nil && a.ClusterID != clusterID) {
			return MemberDiff{}, &Error{Kind: KindNotFound, Message: "article " + itoa(id) + " is not a member of cluster " + itoa(clusterID)}
		}
		if err != nil {
			return MemberDiff{}, err
		}
		arts[i] = a
	}
	bodies, err := s.store.Bodies(ctx, []int64{from, to})
	if err != nil {
		return MemberDiff{}, err
	}
	fromText := readable(Text{Title: arts[0].Title, Body: bodies[from], ContentType: arts[0].ContentType})
	toText := readable(Text{Title: arts[1].Title, Body: bodies[to], ContentType: arts[1].ContentType})
	versions, err := s.store.ArticleVersions(ctx, from, maxVersionsMatched)
	if err != nil {
		return MemberDiff{}, err
	}
	d := MemberDiff{From: arts[0], To: arts[1]}
	fromTitle := arts[0].Title
	if len(versions) > 0 {
		if cv, ok := newHistory(versions, fromText).copied(toText); ok {
			d.Against, fromText, fromTitle = &cv, cv.text, cv.Title
		}
	}
	title, err := DiffWithin(ctx, fromTitle, arts[1].Title)
	if err != nil {
		return MemberDiff{}, err
	}
	body, err := DiffWithin(ctx, fromText, toText)
	if err != nil {
		return MemberDiff{}, err
	}
	d.Title, d.Body = title.Runs, body.Runs
	d.Difference = summarize(headlineChanged(fromTitle, arts[1].Title), body)
	if d.Against != nil {
		d.Difference.AgainstVersion = d.Against.Version
	}
	return d, nil
}

// differencesBudget is the most time Differences spends diffing, and at
// most half what is left of its context's: the members it has not reached
// by then are left out (the page and the API say so), so that a cluster
// of long members still answers in time.
const differencesBudget = time.Second

// Differences says how each member the view lists differs from the
// cluster's original: the first MaxDifferences of them, the original
// excepted, as many as differencesBudget allows (the others are not in the
// map); a member that copied an earlier version (corr.Copied) differs from
// that one. It returns ctx's error once ctx is done.
func (s *Service) Differences(ctx context.Context, v ClusterView, corr Corrections) (map[int64]Difference, error) {
	orig, ok := v.Member(v.Original.ID)
	if !ok {
		a, err := s.store.Article(ctx, v.Original.ID)
		if err != nil {
			return nil, err
		}
		orig = Member{Article: a}
	}
	ids := []int64{orig.ID}
	var members []Member
	for _, m := range v.Members {
		if m.ID != orig.ID && len(members) < MaxDifferences {
			members = append(members, m)
			ids = append(ids, m.ID)
		}
	}
	if len(members) == 0 {
		return map[int64]Difference{}, nil
	}
	bodies, err := s.store.Bodies(ctx, ids)
	if err != nil {
		return nil, err
	}
	budget := differencesBudget
	if d, ok := ctx.Deadline(); ok {
		budget = min(budget, time.Until(d)/2)
	}
	diffCtx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	from := readable(Text{Body: bodies[orig.ID], ContentType: orig.ContentType})
	out := make(map[int64]Difference, len(members))
	for _, m := range members {
		to := readable(Text{Body: bodies[m.ID], ContentType: m.ContentType})
		fromText, fromTitle, version := from, orig.Title, 0
		if cv, ok := corr.Copied[m.ID]; ok {
			fromText, fromTitle, version = cv.text, cv.Title, cv.Version
		}
		d, err := DiffWithin(diffCtx, fromText, to)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err != nil { // the budget is spent: the members diffed so far
			break
		}
		sum := summarize(headlineChanged(fromTitle, m.Title), d)
		sum.AgainstVersion = version
		out[m.ID] = sum
	}
	return out, nil
}
