package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"
)

// Issue 36: is the member kept the original, and do clusters stay one
// story? After every other figure, the reposts are stored too (POST
// /v1/articles/batch, published repostDelay after their source, each under
// a source named for its edit), and each source's cluster is read back
// (GET /v1/clusters/{id}): which member it names the original, which it
// keeps, and when that is not the original, by which step of the rule and
// which edit made the kept member. Drift is measured on the clusters the
// corpora formed alone, before the reposts: the members sharing less than
// driftShare of their 5-grams with their cluster's earliest published
// article.

// driftShare is the share of its 5-grams a member must share with its
// cluster's original not to count as drifted.
const driftShare = 0.3

// keptResult is what the clusters of the stored reposts said.
type keptResult struct {
	Clusters       int            `json:"clusters"`        // sources' clusters read back
	OriginalSource int            `json:"original_source"` // their original is the source
	KeptOriginal   int            `json:"kept_original"`   // their kept member is their original
	NotOriginal    map[string]int `json:"not_original"`    // why not: the rule, and what the kept member is
	Drift          driftResult    `json:"drift"`
	Seconds        float64        `json:"seconds"`
}

// driftResult counts the members of the corpora's own clusters by how much
// of their 5-grams their cluster's original holds.
type driftResult struct {
	Clusters int `json:"clusters"`
	Members  int `json:"members"` // members other than the original
	Drifted  int `json:"drifted"` // sharing less than driftShare with the original
	// Kinds counts the drifted members by driftKind.
	Kinds map[string]int `json:"kinds,omitempty"`
}

// clusterJSON is the part of GET /v1/clusters/{id} read here.
type clusterJSON struct {
	ID   int64 `json:"id"`
	Kept struct {
		ID   int64  `json:"id"`
		Rule string `json:"rule"`
	} `json:"kept"`
	Original struct {
		ID int64 `json:"id"`
	} `json:"original"`
	Members []struct {
		ID     int64  `json:"id"`
		Source string `json:"source"`
	} `json:"members"`
}

// measureDrift counts drifted members of the clusters in st.
func measureDrift(s *newsSet, st *stored) driftResult {
	byCluster := map[int64][]int{}
	for i, a := range st.Articles {
		if a.ID != 0 {
			byCluster[a.ClusterID] = append(byCluster[a.ClusterID], i)
		}
	}
	r := driftResult{Kinds: map[string]int{}}
	for _, members := range byCluster {
		if len(members) < 2 {
			continue
		}
		r.Clusters++
		orig := slices.MinFunc(members, func(a, b int) int {
			if c := s.Articles[a].Published.Compare(s.Articles[b].Published); c != 0 {
				return c
			}
			return a - b
		})
		for _, m := range members {
			if m == orig {
				continue
			}
			r.Members++
			if g := s.Grams[m]; len(g) == 0 || float64(g.shared(s.Grams[orig])) < driftShare*float64(len(g)) {
				r.Drifted++
				r.Kinds[driftKind(s, st, m, orig)]++
			}
		}
	}
	return r
}

// checkKept stores the reposts and reads their sources' clusters back.
func checkKept(ctx context.Context, c *client, articles []newsArticle, st *stored, reposts []repost, progress io.Writer) (keptResult, error) {
	start := time.Now()
	r := keptResult{NotOriginal: map[string]int{}}
	for from := 0; from < len(reposts); from += ingestBatchSize {
		to := min(from+ingestBatchSize, len(reposts))
		batch := make([]articleJSON, 0, to-from)
		for i := from; i < to; i++ {
			rp := &reposts[i]
			src := &articles[rp.Source]
			a := articleJSON{ExternalID: fmt.Sprintf("repost-%d", i), Source: "repost-" + rp.Edit, Title: rp.Title, Body: rp.Body,
				PublishedAt: src.Published.Add(repostDelay).Format(time.RFC3339)}
			batch = append(batch, a)
		}
		if _, err := c.ingestBatch(ctx, batch); err != nil {
			return r, fmt.Errorf("store reposts %d to %d: %w", from, to, err)
		}
	}
	fmt.Fprintf(progress, "  stored %d reposts (%v)\n", len(reposts), time.Since(start).Round(time.Second))
	sources := map[int]bool{}
	for _, rp := range reposts {
		sources[rp.Source] = true
	}
	seen := map[int64]bool{}
	for _, i := range slices.Sorted(func(yield func(int) bool) {
		for k := range sources {
			if !yield(k) {
				return
			}
		}
	}) {
		id := st.Articles[i].ID
		if id == 0 {
			continue
		}
		var a struct {
			ClusterID int64 `json:"cluster_id"`
		}
		if err := c.do(ctx, "GET", fmt.Sprintf("/v1/articles/%d", id), nil, &a); err != nil {
			return r, fmt.Errorf("article %d: %w", id, err)
		}
		if seen[a.ClusterID] {
			continue
		}
		seen[a.ClusterID] = true
		var cl clusterJSON
		err := c.do(ctx, "GET", fmt.Sprintf("/v1/clusters/%d", a.ClusterID), nil, &cl)
		var se *statusError
		if errors.As(err, &se) && se.Status == 404 {
			continue
		}
		if err != nil {
			return r, fmt.Errorf("cluster %d: %w", a.ClusterID, err)
		}
		if len(cl.Members) < 2 {
			continue
		}
		r.Clusters++
		if cl.Original.ID == id {
			r.OriginalSource++
		}
		if cl.Kept.ID == cl.Original.ID {
			r.KeptOriginal++
			continue
		}
		what := "another article of the corpora"
		if cl.Kept.ID == id {
			what = "the source, the original being an article of the corpora published before it"
		}
		for _, m := range cl.Members {
			if edit, ok := strings.CutPrefix(m.Source, "repost-"); ok && m.ID == cl.Kept.ID {
				what = "a repost, " + edit
			}
		}
		r.NotOriginal[cl.Kept.Rule+": "+what]++
	}
	r.Seconds = time.Since(start).Seconds()
	return r, nil
}

func writeKept(w io.Writer, n *newsEvaluation) {
	r := &n.Kept
	if r.Clusters == 0 && r.Drift.Clusters == 0 {
		return
	}
	fmt.Fprintf(w, "## 3c. The original and the member kept (issue 36)\n\n")
	fmt.Fprintf(w, "Last, after every figure above, the reposts of section 3 are stored too (`POST /v1/articles/batch`, published %v after their source, under a source named for their edit), and each source's cluster is read back (`GET /v1/clusters/{id}`). ", repostDelay)
	fmt.Fprintf(w, "The original is the member published first that is not a digest of the others; the kept member is chosen by the keep rule (no preferred sources, no editor).\n\n")
	t := newTable("figure", "count", "share")
	share := func(hit, of int) string { return rate{Hit: hit, Of: of}.String() }
	t.add("clusters of a source and its reposts", fmt.Sprint(r.Clusters), "")
	t.add("original named = the source", fmt.Sprint(r.OriginalSource), share(r.OriginalSource, r.Clusters))
	t.add("kept = the original", fmt.Sprint(r.KeptOriginal), share(r.KeptOriginal, r.Clusters))
	t.write(w)
	if len(r.NotOriginal) > 0 {
		fmt.Fprintf(w, "When the kept member is not the original — the step of the rule that kept it, and what it is:\n\n")
		t := newTable("why", "clusters").leftAligned(1)
		keys := make([]string, 0, len(r.NotOriginal))
		for k := range r.NotOriginal {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			t.add(k, fmt.Sprint(r.NotOriginal[k]))
		}
		t.write(w)
	}
	writeDrift(w, r.Drift)
	fmt.Fprintf(w, "Reading them back took %.0f s.\n\n", r.Seconds)
}

// writeDrift writes the drift paragraph, and the drifted members by kind.
func writeDrift(w io.Writer, d driftResult) {
	fmt.Fprintf(w, "**Drift.** Of the %d members (original excepted) of the %d clusters the corpora formed alone, %d share less than %.0f %% of their 5-grams with their cluster's earliest published article: %s.\n\n",
		d.Members, d.Clusters, d.Drifted, 100*driftShare, rate{Hit: d.Drifted, Of: d.Members}.String())
	if len(d.Kinds) == 0 {
		return
	}
	fmt.Fprintf(w, "The drifted members by verdict; by the member their link names (the original, or another member: a chain); by what they are to that member (holding %.0f %% or more of its 5-grams: an expansion or a compilation; %.0f %% or more of theirs held by it: an excerpt); and, for partial duplicates, the service's coverage of the link (this: the share of the member found in its match; that: the share of its match found in the member; by tenths, rounded down):\n\n", 100*holdsShare, 100*holdsShare)
	t := newTable("drifted member", "count").leftAligned(1)
	keys := slices.Sorted(maps.Keys(d.Kinds))
	for _, k := range keys {
		t.add(k, fmt.Sprint(d.Kinds[k]))
	}
	t.write(w)
}

// goals are issue 36's: drift ≤ 1 %; how often the kept member is the
// original has no target, and is shown as a figure.
func (r keptResult) goals() []goalRow {
	var rows []goalRow
	if d := r.Drift; d.Members > 0 {
		v := rate{Hit: d.Drifted, Of: d.Members}
		met := v.Value() <= 0.01
		rows = append(rows, goalRow{Issue: 36, What: "cluster members sharing < 30 % of their 5-grams with their cluster's original", Target: "≤ 1 %",
			Figure: fmt.Sprintf("%s (%d of %d)", pct(v.Value()), v.Hit, v.Of), Met: &met})
	}
	if r.Clusters > 0 {
		v := rate{Hit: r.KeptOriginal, Of: r.Clusters}
		rows = append(rows, goalRow{Issue: 36, What: "clusters of a source and its stored reposts keeping the original", Target: "shown",
			Figure: fmt.Sprintf("%s (%d of %d)", pct(v.Value()), v.Hit, v.Of)})
	}
	return rows
}
