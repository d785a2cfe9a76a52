package handlers_test

import (
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestRepetitiveClusterAnswers: GET /v1/clusters/{id} of issue 44's two
// members, each a word repeated hundreds of thousands of times and stored
// through the API, answers 200 within the test's deadline, the member's
// difference marked truncated (it cost a minute of CPU and a dropped
// connection).
func TestRepetitiveClusterAnswers(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	first := s.ingest(t, article("e-1", "经济", "丙"+strings.Repeat("经济", 240000)+"戊"), http.StatusCreated)
	second := s.ingest(t, article("e-2", "经济", strings.Repeat("经济", 120000)+"丁"), http.StatusCreated)
	head := *first.ID

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.URL+"/v1/clusters/"+strconv.FormatInt(head, 10), nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Client().Do(req)
	if err != nil {
		t.Fatalf("GET /v1/clusters/%d within the test's deadline: %v", head, err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	r := response{status: res.StatusCode, header: res.Header, body: body}
	wantStatus(t, "GET /v1/clusters/{id}", r, http.StatusOK)
	c := decode[struct {
		Members []struct {
			ID         int64 `json:"id"`
			Difference *struct {
				Truncated bool `json:"truncated"`
			} `json:"difference"`
		} `json:"members"`
	}](t, r)
	if len(c.Members) != 2 || c.Members[1].ID != *second.ID {
		t.Fatalf("cluster %d has members %+v, want %d and %d", head, c.Members, head, *second.ID)
	}
	if d := c.Members[1].Difference; d == nil || !d.Truncated {
		t.Errorf("member %d's difference = %+v, want one, truncated", *second.ID, d)
	}
}
