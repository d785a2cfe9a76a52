package handlers_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/newsdedup/newsdedup/internal/samples"
)

// TestClusterCopiedVersion: after the original is corrected, GET
// /v1/clusters/{id} marks the copy of its first version as carrying the
// superseded text, names the version it copied with the correction side
// by side, and measures it against that version (the same text, not an
// edit of its own); the copy made after the correction is measured
// against the current content. Both answers hold to the contract.
func TestClusterCopiedVersion(t *testing.T) {
	t.Parallel()
	s := newServer(t, withKeys("k1"))
	schema := loadSchemas(t)
	st := samples.Stories[2]
	first := strings.SplitN(st.Body, "\n", 2)
	old := first[0] + "\n现场观众约3万人，创下新高。\n" + first[1]
	fixed := strings.Replace(old, "约3万人", "约4万人", 1)
	head := s.ingest(t, storyArticle("xinhua", "x-1", st.Title, old), http.StatusCreated)
	before := s.ingest(t, storyArticle("portal", "w-1", st.Title, old), http.StatusCreated)
	if v := s.ingest(t, storyArticle("xinhua", "x-1", st.Title, fixed), http.StatusCreated); *v.ID != *head.ID {
		t.Fatalf("the correction is article %d, want %d", *v.ID, *head.ID)
	}
	after := s.ingest(t, storyArticle("people", "p-1", st.Title, fixed), http.StatusCreated)

	r := s.get(t, fmt.Sprintf("/v1/clusters/%d", *head.ID))
	wantStatus(t, "cluster", r, http.StatusOK)
	schema.check(t, "Cluster", r)
	c := decode[copiedCluster](t, r)
	seen := 0
	for _, m := range c.Members {
		switch m.ID {
		case *before.ID:
			seen++
			if !m.CarriesSuperseded || m.CopiedVersion == nil || m.CopiedVersion.Version != 1 || len(m.CopiedVersion.Carries) != 1 ||
				!strings.Contains(m.CopiedVersion.Carries[0].Superseded, "约3万人") || !strings.Contains(m.CopiedVersion.Carries[0].Corrected, "约4万人") {
				t.Errorf("the copy of the first version: carries %v, copied version %+v; want version 1, the crowd before and after", m.CarriesSuperseded, m.CopiedVersion)
			}
			if d := m.Difference; d == nil || !d.Same || d.OtherEdits != 0 || d.AgainstVersion == nil || *d.AgainstVersion != 1 {
				t.Errorf("the copy of the first version differs %+v, want the same as version 1", d)
			}
		case *after.ID:
			seen++
			if m.CarriesSuperseded || m.CopiedVersion != nil {
				t.Errorf("the copy made after the correction: carries %v, copied version %+v; want neither", m.CarriesSuperseded, m.CopiedVersion)
			}
			if d := m.Difference; d == nil || !d.Same || d.AgainstVersion != nil {
				t.Errorf("the copy made after the correction differs %+v, want the same as the current content", d)
			}
		}
	}
	if seen != 2 {
		t.Fatalf("%d of the two copies listed: %s", seen, r.body)
	}
}

// copiedCluster is what TestClusterCopiedVersion reads of a cluster.
type copiedCluster struct {
	Members []struct {
		ID                int64 `json:"id"`
		CarriesSuperseded bool  `json:"carries_superseded"`
		Difference        *struct {
			Same           bool `json:"same"`
			OtherEdits     int  `json:"other_edits"`
			AgainstVersion *int `json:"against_version"`
		} `json:"difference"`
		CopiedVersion *struct {
			Version int `json:"version"`
			Carries []struct {
				Superseded string `json:"superseded"`
				Corrected  string `json:"corrected"`
			} `json:"carries"`
		} `json:"copied_version"`
	} `json:"members"`
}
