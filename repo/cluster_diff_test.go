package repo_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/service"
)

// hostileMembers stores issue 44's two members, each a word repeated
// hundreds of thousands of times, and returns their cluster's view.
func hostileMembers(t *testing.T, ctx context.Context, svc *service.Service) service.ClusterView {
	t.Helper()
	day := time.Date(2026, 11, 28, 8, 0, 0, 0, time.UTC)
	var ids []int64
	for i, body := range []string{"丙" + strings.Repeat("经济", 240000) + "戊", strings.Repeat("经济", 120000) + "丁"} {
		v, err := svc.Ingest(ctx, service.ArticleInput{Text: service.Text{Title: "经济", Body: body},
			ExternalID: "e-" + string(rune('a'+i)), Source: "portal", PublishedAt: day.Add(time.Duration(i) * time.Hour)}, svc.Defaults())
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, v.ClusterID)
	}
	if ids[0] != ids[1] {
		t.Fatalf("the two members are in clusters %d and %d, want one", ids[0], ids[1])
	}
	v, err := svc.Cluster(ctx, ids[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Members) != 2 {
		t.Fatalf("cluster %d has %d members, want 2", v.ID, len(v.Members))
	}
	return v
}

// within runs f and fails the test should ctx end first: the test times
// the call by its context, not by the clock.
func within(t *testing.T, ctx context.Context, what string, f func() error) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	case <-ctx.Done():
		t.Fatalf("%s did not finish within the test's deadline", what)
	}
}

// TestClusterOfRepetitiveMembersOpens: a cluster of two members that
// repeat one word, whose diff cost a minute of CPU (issue 44), opens
// within the test's deadline: its differences and the diff of its two
// members, truncated and saying so; a canceled context stops the diff.
func TestClusterOfRepetitiveMembersOpens(t *testing.T) {
	st := newStore(t, 4)
	svc := newService(t, st)
	v := hostileMembers(t, context.Background(), svc)
	from, to := v.Members[0].ID, v.Members[1].ID

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	within(t, ctx, "Differences", func() error {
		diffs, err := svc.Differences(ctx, v, service.Corrections{})
		if err == nil && len(diffs) == 1 && !diffs[to].Truncated {
			t.Errorf("Differences = %+v, want member %d's, truncated", diffs, to)
		}
		return err
	})
	within(t, ctx, "DiffMembers", func() error {
		d, err := svc.DiffMembers(ctx, v.ID, from, to)
		if err == nil && (!d.Difference.Truncated || len(d.Body) == 0) {
			t.Errorf("DiffMembers: %d runs, difference %+v; want runs, truncated", len(d.Body), d.Difference)
		}
		return err
	})

	// The client leaves: the diff stops, with the context's error.
	grace, stop := context.WithTimeout(context.Background(), 5*time.Second)
	defer stop()
	left, leave := context.WithCancel(context.Background())
	time.AfterFunc(20*time.Millisecond, leave)
	within(t, grace, "Differences of a client that left", func() error {
		for left.Err() == nil {
			if _, err := svc.Differences(left, v, service.Corrections{}); err != nil && !errors.Is(err, context.Canceled) {
				return err
			}
		}
		_, err := svc.DiffMembers(left, v.ID, from, to)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("DiffMembers with a canceled context = %v, want context.Canceled", err)
		}
		return nil
	})
}
