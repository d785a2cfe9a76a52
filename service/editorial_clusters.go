package service

import (
	"context"
	"crypto/rand"
	"slices"
	"sync"
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
	if page.Clusters, err = s.summaries(ctx, rows); err != nil {
		return ClusterPage{}, err
	}
	return page, nil
}

// exportChunk is how many clusters an export summarises at once: a few
// statements for a thousand, where a page of MaxClusterPage took as many.
// exportAhead is how many chunks are read ahead of the one being written.
const (
	exportChunk = 1000
	exportAhead = 2
)

// EachCluster calls fn with each cluster q asks for (q.Limit is ignored),
// from q.After, at most MaxExportRows, for an export; it says whether the
// list was cut there. The list is read by one statement, then summarised
// exportChunk clusters at a time. KindInvalid for a query out of range.
func (s *Service) EachCluster(ctx context.Context, q ClusterQuery, fn func(ClusterSummary) error) (truncated bool, err error) {
	q.Limit = 1
	if err := q.validate(); err != nil {
		return false, err
	}
	if err := s.ensureKeepPolicy(ctx); err != nil {
		return false, err
	}
	if q.SourcePrefix != "" {
		if q.Sources, err = s.store.Sources(ctx, q.SourcePrefix, MaxSources); err != nil || len(q.Sources) == 0 {
			return false, err
		}
	}
	q.Limit = MaxExportRows + 1
	rows, err := s.store.ListClusters(ctx, q)
	if err != nil {
		return false, err
	}
	if len(rows) > MaxExportRows {
		rows, truncated = rows[:MaxExportRows], true
	}
	return truncated, s.eachSummary(ctx, rows, fn)
}

// eachSummary calls fn with the summary of each of rows, in order. The
// chunks after the one fn is given are summarised meanwhile, exportAhead
// at most: the database reads the next while the file is written.
func (s *Service) eachSummary(ctx context.Context, rows []ClusterRow, fn func(ClusterSummary) error) error {
	type summarised struct {
		sums []ClusterSummary
		err  error
	}
	chunks := slices.Collect(slices.Chunk(rows, exportChunk))
	done := make([]chan summarised, len(chunks))
	for i := range done {
		done[i] = make(chan summarised, 1)
	}
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel() // before the wait: the readers still running stop
	slots := make(chan struct{}, exportAhead)
	wg.Go(func() {
		for i, c := range chunks {
			select {
			case slots <- struct{}{}:
			case <-ctx.Done():
				for _, d := range done[i:] {
					d <- summarised{err: ctx.Err()}
				}
				return
			}
			wg.Go(func() {
				sums, err := s.summaries(ctx, c)
				done[i] <- summarised{sums, err}
			})
		}
	})
	for _, d := range done {
		r := <-d
		if r.err != nil {
			return r.err
		}
		for _, c := range r.sums {
			if err := fn(c); err != nil {
				return err
			}
		}
		<-slots
	}
	return nil
}

// summaries gives each of rows its original, its kept member and its
// count of other coverage, in three statements.
func (s *Service) summaries(ctx context.Context, rows []ClusterRow) ([]ClusterSummary, error) {
	ids := make([]int64, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	candidates, err := s.store.KeepCandidates(ctx, ids)
	if err != nil {
		return nil, err
	}
	byCluster := map[int64][]KeepCandidate{}
	for _, c := range candidates {
		byCluster[c.ClusterID] = append(byCluster[c.ClusterID], c)
	}
	out := make([]ClusterSummary, 0, len(rows))
	asked := make(map[int64][]KeepCandidate, len(rows)) // the original and the kept member of each
	for _, r := range rows {
		members := byCluster[r.ID]
		if len(members) == 0 { // it changed between the two reads: shown as the list read it
			out = append(out, ClusterSummary{ClusterRow: r})
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
		out = append(out, ClusterSummary{ClusterRow: r, Kept: k, KeptMember: members[i], Original: o})
	}
	counts, err := s.otherCoverageCounts(ctx, asked)
	if err != nil {
		return nil, err
	}
	for i := range out {
		out[i].OtherCoverage = counts[out[i].ID]
	}
	return out, nil
}
