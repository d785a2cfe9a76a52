package service

import (
	"context"
	"crypto/rand"
	"slices"
)

// cursorKeyName names the key of the list's cursors in the SecretStore.
const cursorKeyName = "cluster_cursor"

// CursorKey returns the key that signs the cursors of the list of clusters
// (32 random bytes). It is made once and stored in the database, so that
// every instance on it accepts the others' cursors and a restart breaks no
// client's paging; it is read once a process.
func (s *Service) CursorKey(ctx context.Context) ([]byte, error) {
	if k := s.editorial.cursorKey.Load(); k != nil {
		return *k, nil
	}
	fresh := make([]byte, 32)
	rand.Read(fresh) // never fails (crypto/rand)
	k, err := s.store.Secret(ctx, cursorKeyName, fresh)
	if err != nil {
		return nil, err
	}
	s.editorial.cursorKey.Store(&k)
	return k, nil
}

// ClusterSummary is a cluster as the list shows it.
type ClusterSummary struct {
	ClusterRow
	Kept       Kept
	KeptMember KeepCandidate
	Original   Original
	// OtherCoverage counts the articles outside the cluster that share
	// sentences with it (OtherCoverage's), up to MaxOtherCoverageCounted.
	OtherCoverage OtherCoverageCount
}

// ClusterPage is a page of the list of clusters.
type ClusterPage struct {
	Clusters []ClusterSummary
	Next     *ClusterCursor // nil on the last page
}

// Clusters returns a page of the clusters of two or more articles, each
// with its kept member. KindInvalid for a query out of range.
func (s *Service) Clusters(ctx context.Context, q ClusterQuery) (ClusterPage, error) {
	if err := q.validate(); err != nil {
		return ClusterPage{}, err
	}
	err := s.ensureKeepPolicy(ctx)
	if err != nil {
		return ClusterPage{}, err
	}
	if q.SourcePrefix != "" {
		if q.Sources, err = s.store.Sources(ctx, q.SourcePrefix, MaxSources); err != nil || len(q.Sources) == 0 {
			return ClusterPage{}, err
		}
	}
	limit := q.Limit
	q.Limit++ // one more, to know whether a next page exists
	rows, err := s.store.ListClusters(ctx, q)
	if err != nil {
		return ClusterPage{}, err
	}
	var page ClusterPage
	if len(rows) > limit {
		rows = rows[:limit]
		last := rows[limit-1]
		page.Next = &ClusterCursor{Sort: q.Sort, PublishedAt: last.PublishedAt, Size: last.Size, LastIngested: last.LastIngested, ID: last.ID}
	}
	ids := make([]int64, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	candidates, err := s.store.KeepCandidates(ctx, ids)
	if err != nil {
		return ClusterPage{}, err
	}
	byCluster := map[int64][]KeepCandidate{}
	for _, c := range candidates {
		byCluster[c.ClusterID] = append(byCluster[c.ClusterID], c)
	}
	asked := make(map[int64][]KeepCandidate, len(rows)) // the original and the kept member of each
	for _, r := range rows {
		members := byCluster[r.ID]
		if len(members) == 0 { // it changed between the two reads: shown as the list read it
			page.Clusters = append(page.Clusters, ClusterSummary{ClusterRow: r})
			continue
		}
		k := keep(members, s.editorial.policy)
		o := originalOf(members)
		i := slices.IndexFunc(members, func(c KeepCandidate) bool { return c.ID == k.ID })
		j := slices.IndexFunc(members, func(c KeepCandidate) bool { return c.ID == o.ID })
		asked[r.ID] = []KeepCandidate{members[j]}
		if j != i {
			asked[r.ID] = append(asked[r.ID], members[i])
		}
		page.Clusters = append(page.Clusters, ClusterSummary{ClusterRow: r, Kept: k, KeptMember: members[i], Original: o})
	}
	counts, err := s.otherCoverageCounts(ctx, asked)
	if err != nil {
		return ClusterPage{}, err
	}
	for i := range page.Clusters {
		page.Clusters[i].OtherCoverage = counts[page.Clusters[i].ID]
	}
	return page, nil
}
