package service

import (
	"context"
	"errors"
	"time"
	"unicode/utf8"
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

// MaxReadRunes is how much of each body a cluster's page and its API read
// (BodyHeads): the start a diff may pass as shared, then the MaxDiffRunes
// it compares. A longer body is read, diffed and shown in its start only,
// and the diff says it was truncated (issue 44). The store keeps the first
// 40,000 characters of a longer body apart (migration 00047): no more
// than that may be asked for.
const MaxReadRunes = 2 * MaxDiffRunes

// diffHeads diffs the starts of two bodies read cut at MaxReadRunes, as
// readers see them, whose whole texts are fromLength and toLength
// characters long (Member.TextLength): when one was cut, the diff is
// truncated, its end the texts may share unknown, and the characters
// never read are counted in FromRest and ToRest.
func diffHeads(ctx context.Context, from, to string, fromCut, toCut bool, fromLength, toLength int) (TextDiff, error) {
	if !fromCut && !toCut {
		return DiffWithin(ctx, from, to)
	}
	d, err := diffWithin(ctx, from, to, false)
	if err != nil {
		return d, err
	}
	unread := func(text string, cut bool, length int) int {
		if !cut {
			return 0
		}
		return max(length-utf8.RuneCountInString(text), 0)
	}
	if !d.Truncated { // the starts read were diffed whole
		d.Truncated, d.FromRest, d.ToRest = true, 0, 0
	}
	d.FromRest += unread(from, fromCut, fromLength)
	d.ToRest += unread(to, toCut, toLength)
	d.SharedEnd = 0
	return d, nil
}

// DiffMembers diffs two members of the cluster headed by clusterID.
// KindNotFound when either is not a member of it.
func (s *Service) DiffMembers(ctx context.Context, clusterID, from, to int64) (MemberDiff, error) {
	var arts [2]Member
	for i, id := range []int64{from, to} {
		a, err := s.store.Member(ctx, id)
		if errors.Is(err, ErrNotFound) || (err == nil && a.ClusterID != clusterID) {
			return MemberDiff{}, &Error{Kind: KindNotFound, Message: "article " + itoa(id) + " is not a member of cluster " + itoa(clusterID)}
		}
		if err != nil {
			return MemberDiff{}, err
		}
		arts[i] = a
	}
	bodies, err := s.store.BodyHeads(ctx, []int64{from, to}, MaxReadRunes)
	if err != nil {
		return MemberDiff{}, err
	}
	fromText := readable(Text{Title: arts[0].Title, Body: bodies[from].Body, ContentType: arts[0].ContentType})
	toText := readable(Text{Title: arts[1].Title, Body: bodies[to].Body, ContentType: arts[1].ContentType})
	versions, err := s.store.ArticleVersions(ctx, from, maxVersionsMatched)
	if err != nil {
		return MemberDiff{}, err
	}
	d := MemberDiff{From: arts[0].Article, To: arts[1].Article}
	fromTitle, fromCut := arts[0].Title, bodies[from].Cut
	if len(versions) > 0 {
		if cv, ok := newHistory(versions, fromText).copied(toText); ok {
			d.Against, fromText, fromTitle, fromCut = &cv, cv.text, cv.Title, false
		}
	}
	title, err := DiffWithin(ctx, fromTitle, arts[1].Title)
	if err != nil {
		return MemberDiff{}, err
	}
	body, err := diffHeads(ctx, fromText, toText, fromCut, bodies[to].Cut, arts[0].TextLength, arts[1].TextLength)
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
		var err error
		if orig, err = s.store.Member(ctx, v.Original.ID); err != nil {
			return nil, err
		}
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
	bodies, err := s.store.BodyHeads(ctx, ids, MaxReadRunes)
	if err != nil {
		return nil, err
	}
	budget := differencesBudget
	if d, ok := ctx.Deadline(); ok {
		budget = min(budget, time.Until(d)/2)
	}
	diffCtx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	from := readable(Text{Body: bodies[orig.ID].Body, ContentType: orig.ContentType})
	out := make(map[int64]Difference, len(members))
	for _, m := range members {
		to := readable(Text{Body: bodies[m.ID].Body, ContentType: m.ContentType})
		fromText, fromTitle, fromCut, version := from, orig.Title, bodies[orig.ID].Cut, 0
		if cv, ok := corr.Copied[m.ID]; ok {
			fromText, fromTitle, fromCut, version = cv.text, cv.Title, false, cv.Version
		}
		d, err := diffHeads(diffCtx, fromText, to, fromCut, bodies[m.ID].Cut, orig.TextLength, m.TextLength)
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
