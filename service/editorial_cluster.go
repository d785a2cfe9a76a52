package service

import (
	"context"
	"errors"
	"slices"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// Member is a member of a cluster as its view shows it.
type Member struct {
	Article
	TextLength int       // characters of its text (an HTML body without markup)
	Kept       *Decision // the editor's choice in force on it, if any
}

// Likeness is how a member compares with its cluster's kept member.
type Likeness struct {
	Similarity
	// Coverage is the share of the member's text found in the kept
	// member's; KeptCoverage the share of the kept member's found in the
	// member's.
	Coverage, KeptCoverage float64
}

// ClusterView is a cluster with its members, its kept member and the
// decisions made in it.
type ClusterView struct {
	ID       int64 // its head's id
	Size     int
	Members  []Member // at most MaxClusterMembers, earliest ingested first
	Kept     Kept
	Original Original // the member the others derive from (rules_original.go)
	// Compilations are the members that hold most of the text of two
	// stories or more (isCompilation), never kept by completeness.
	Compilations map[int64]bool
	Likeness     map[int64]Likeness // of each member but the kept one, with the kept one
	Decisions    []Decision         // in this cluster or about its members, latest first
	Policy       KeepPolicy
}

// Member returns the member with this id, if the view lists it.
func (v *ClusterView) Member(id int64) (Member, bool) {
	i := slices.IndexFunc(v.Members, func(m Member) bool { return m.ID == id })
	if i < 0 {
		return Member{}, false
	}
	return v.Members[i], true
}

// Cluster returns the cluster headed by article id. KindNotFound when no
// such article heads a cluster; the error of an article that is a member of
// another cluster names that cluster.
func (s *Service) Cluster(ctx context.Context, id int64) (ClusterView, error) {
	if err := s.ensureKeepPolicy(ctx); err != nil {
		return ClusterView{}, err
	}
	if err := s.isHead(ctx, s.store, id); err != nil {
		return ClusterView{}, err
	}
	candidates, err := s.store.KeepCandidates(ctx, []int64{id})
	if err != nil {
		return ClusterView{}, err
	}
	if len(candidates) == 0 {
		return ClusterView{}, noCluster(id)
	}
	members, err := s.store.Members(ctx, id, MaxClusterMembers)
	if err != nil {
		return ClusterView{}, err
	}
	v := ClusterView{ID: id, Size: len(candidates), Members: members, Policy: s.editorial.policy,
		Kept: keep(candidates, s.editorial.policy), Original: originalOf(candidates), Compilations: map[int64]bool{}}
	for _, c := range candidates {
		if isCompilation(c) {
			v.Compilations[c.ID] = true
		}
	}

	kept, ok := v.Member(v.Kept.ID)
	if !ok { // beyond the members listed
		a, err := s.store.Article(ctx, v.Kept.ID)
		if err != nil {
			return ClusterView{}, err
		}
		kept = Member{Article: a}
	}
	v.Likeness = make(map[int64]Likeness, len(members))
	for _, m := range members {
		if m.ID != kept.ID {
			v.Likeness[m.ID] = likeness(&m.Article, &kept.Article)
		}
	}

	ids := make([]int64, len(members))
	for i, m := range members {
		ids[i] = m.ID
	}
	if v.Decisions, err = s.store.Decisions(ctx, id, ids, maxDecisionsShown); err != nil {
		return ClusterView{}, err
	}
	return v, nil
}

// likeness compares two stored articles by their stored fingerprints.
func likeness(m, kept *Article) Likeness {
	mInK, kInM := fingerprint.Coverage(m.Shingles, kept.Shingles)
	return Likeness{
		Similarity:   similarity(m.fingerprint(), kept.Simhash, kept.Words, kept.Shingles),
		Coverage:     mInK,
		KeptCoverage: kInM,
	}
}

// isHead checks that article id exists and heads its cluster.
func (s *Service) isHead(ctx context.Context, r ArticleReader, id int64) error {
	a, err := r.Article(ctx, id)
	switch {
	case errors.Is(err, ErrNotFound):
		return noCluster(id)
	case err != nil:
		return err
	case a.ClusterID != id:
		return &Error{Kind: KindNotFound, Message: "no such cluster: article " + itoa(id) + " is a member of cluster " + itoa(a.ClusterID)}
	}
	return nil
}

func noCluster(id int64) error {
	return &Error{Kind: KindNotFound, Message: "no such cluster: no article " + itoa(id)}
}
