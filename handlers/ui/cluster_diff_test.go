package ui_test

import (
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestRepetitiveClusterPage: the editors' page of issue 44's cluster, two
// members each a word repeated hundreds of thousands of times, answers
// within the test's deadline (it answered 503 after 14 s, blamed on the
// database), its diff saying it compared the texts' starts only.
func TestRepetitiveClusterPage(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	head := s.ingest(t, "portal", "e-1", "经济", "丙"+strings.Repeat("经济", 240000)+"戊", "")
	copied := s.ingest(t, "portal", "e-2", "经济", strings.Repeat("经济", 120000)+"丁", "")
	if copied.ClusterID != head.ClusterID {
		t.Fatalf("the two members are in clusters %d and %d, want one", head.ClusterID, copied.ClusterID)
	}
	b := s.browser(t)
	wantStatus(t, "sign in", b.signIn("王芳", ""), http.StatusSeeOther)

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.URL+"/ui/clusters/"+strconv.FormatInt(head.ClusterID, 10), nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept-Language", "en")
	res, err := b.c.Do(req)
	if err != nil {
		t.Fatalf("the cluster's page within the test's deadline: %v", err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	p := page{status: res.StatusCode, header: res.Header, body: string(body)}
	wantStatus(t, "the cluster's page", p, http.StatusOK)
	if !strings.Contains(p.body, "compared in the first") {
		t.Errorf("the cluster's page does not say its diff was truncated")
	}
}
