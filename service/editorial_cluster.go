package service

import (
	"context"
	"errors"
)

// Cluster returns the cluster headed by article id. KindNotFound when no
// such article heads a cluster; the error of an article that is a member of
// another cluster names that cluster.
func (s *Service) Cluster(ctx context.Context, id int64) (ClusterView, error) {
	if err := s.ensureKeepPolicy(ctx); err != nil {
		return ClusterView{}, err
	}
	// The head as its page reads it: not its whole shingles (issue 44).
	head, err := s.store.Member(ctx, id)
	if err := heads(id, head.Article, err); err != nil {
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
		if kept, err = s.store.Member(ctx, v.Kept.ID); err != nil {
			return ClusterView{}, err
		}
	}
	v.Likeness = make(map[int64]Likeness, len(members))
	for _, m := range members {
		if m.ID != kept.ID {
			v.Likeness[m.ID] = likeness(&m, &kept)
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

// isHead checks that article id exists and heads its cluster.
func (s *Service) isHead(ctx context.Context, r ArticleReader, id int64) error {
	a, err := r.Article(ctx, id)
	return heads(id, a, err)
}

// heads says whether a, found by id with err, heads its cluster.
func heads(id int64, a Article, err error) error {
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
