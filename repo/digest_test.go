package repo_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/newsdedup/newsdedup/internal/corpus"
	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// digestOfStories returns three cuts of the novel and a digest of them —
// each under its headline, one after the other — whose fingerprint is
// within 3 bits of one of them, as real digests' often are (issue 33): the
// digest's heaviest words are that story's.
func digestOfStories(t *testing.T) (stories []corpus.Article, digest corpus.Article, near int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(33, 2))
	nv := novel(t)
	for range 200 {
		stories = nv.Originals(rng, 3, 300, 900)
		var parts []string
		for _, s := range stories {
			parts = append(parts, s.Title+"\n"+s.Body)
		}
		digest = corpus.Article{Title: "今日要闻", Body: strings.Join(parts, "\n\n")}
		d := mustFingerprint(t, digest)
		for i, s := range stories {
			if fingerprint.Distance(d.Simhash, mustFingerprint(t, s).Simhash) <= fingerprint.MaxIndexedDistance {
				return stories, digest, i
			}
		}
	}
	t.Fatal("no digest of three cuts within 3 bits of one of them")
	return nil, corpus.Article{}, 0
}

// TestDigestIsAPartialDuplicateNeverKept stores three stories, then a
// digest of them whose fingerprint is within 3 bits of one: the digest is a
// partial duplicate of one of its stories, holding all of it, never a near
// duplicate; compared with that story it is no near duplicate; and in the
// cluster it joins, it is not the member kept as the most complete.
func TestDigestIsAPartialDuplicateNeverKept(t *testing.T) {
	st := newStore(t, 4)
	svc := newService(t, st)
	ctx := context.Background()
	stories, digest, near := digestOfStories(t)

	ids := map[int64]bool{}
	for i, s := range stories {
		v, err := svc.Ingest(ctx, input(fmt.Sprintf("story-%d", i), s), svc.Defaults())
		if err != nil {
			t.Fatal(err)
		}
		if v.Status != service.StatusUnique {
			t.Fatalf("story %d is %s: the stories must be unrelated", i, v.Status)
		}
		ids[v.ID] = true
	}
	c, err := svc.Compare(ctx, service.Text{Title: digest.Title, Body: digest.Body}, service.Text{Title: stories[near].Title, Body: stories[near].Body})
	if err != nil {
		t.Fatal(err)
	}
	if c.NearDuplicate {
		t.Errorf("compare(digest, story %d) = near duplicate at distance %d, overlap %.2f and %.2f; a digest is no near duplicate of its story",
			near, c.Distance, c.Overlap, c.LongerOverlap)
	}

	v, err := svc.Ingest(ctx, input("digest", digest), svc.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	if v.Status != service.StatusPartialDuplicate || v.DuplicateOf == nil || !ids[v.DuplicateOf.ID] {
		t.Fatalf("the digest is %s of %+v, want a partial duplicate of one of its stories", v.Status, v.DuplicateOf)
	}
	if cov := v.DuplicateOf.Coverage; cov.That < 0.9 || cov.This > 0.5 {
		t.Errorf("the digest's coverage is %+v: it holds all of its story (that) and its story is a third of it (this)", cov)
	}
	view, err := svc.Cluster(ctx, v.ClusterID)
	if err != nil {
		t.Fatal(err)
	}
	if view.Kept.ID == v.ID {
		t.Errorf("the cluster keeps the digest: %s", view.Kept.Reason)
	}
	var keptID int64
	if err := st.Pool().QueryRow(ctx, `SELECT kept_id FROM cluster_kept WHERE cluster_id = $1`, v.ClusterID).Scan(&keptID); err != nil {
		t.Fatal(err)
	}
	if keptID != view.Kept.ID {
		t.Errorf("the view cluster_kept keeps %d, the service %d", keptID, view.Kept.ID)
	}
}
