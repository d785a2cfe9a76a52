package ui_test

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/internal/samples"
)

// TestCreditAndCorrection: the cluster page marks how each copy credits
// the original, says when the original was corrected and what changed,
// and marks the copies that still carry the superseded text.
func TestCreditAndCorrection(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	st := samples.Stories[1]
	day := time.Date(2026, 6, 18, 0, 0, 0, 0, time.UTC)
	first := strings.SplitN(st.Body, "\n", 2)[0]
	old := "本报记者 李立\n" + st.Body
	fixed := strings.Replace(old, first, first+"（数据已更新）", 1)
	original := s.ingestAt(t, "bjwb", "b-1", st.Title, old, day)
	credited := s.ingestAt(t, "sohu", "s-1", st.Title, st.Body+"\n来源：bjwb", day.Add(time.Hour))
	stripped := s.ingestAt(t, "toutiao", "t-1", st.Title, st.Body, day.Add(2*time.Hour))
	if v := s.ingestAt(t, "bjwb", "b-1", st.Title, fixed, day); v.ID != original.ID {
		t.Fatalf("the correction is article %d, want %d", v.ID, original.ID)
	}
	b := s.browser(t)
	b.lang = "en"
	wantStatus(t, "sign in", b.signIn("王芳", ""), http.StatusSeeOther)
	p := b.get(fmt.Sprintf("/ui/clusters/%d", original.ID))
	wantStatus(t, "cluster", p, http.StatusOK)
	if r := row(t, p.body, credited.ID); !strings.Contains(r, `class="credit credited"`) {
		t.Errorf("the credited copy's row has no credited mark:\n%s", r)
	}
	if r := row(t, p.body, stripped.ID); !strings.Contains(r, `class="credit uncredited"`) || !strings.Contains(r, "byline or credit removed") {
		t.Errorf("the copy that dropped the byline is not marked uncredited, byline removed:\n%s", r)
	}
	if !strings.Contains(p.body, `class="corrected"`) || !strings.Contains(p.body, "（数据已更新）") {
		t.Errorf("the page does not say the original was corrected, and what changed")
	}
	for _, id := range []int64{credited.ID, stripped.ID} {
		if r := row(t, p.body, id); !strings.Contains(r, `class="superseded"`) {
			t.Errorf("copy %d of the text before the correction is not marked as carrying it:\n%s", id, r)
		}
		if r := row(t, p.body, id); !strings.Contains(r, "against the original&#39;s version 1") {
			t.Errorf("copy %d's difference does not say it is measured against the version it copied:\n%s", id, r)
		}
	}
	// The diff of the original into a copy of its first version is of that
	// version, with the correction the copy still carries side by side.
	d := b.get(fmt.Sprintf("/ui/clusters/%d?with=%d", original.ID, stripped.ID))
	wantStatus(t, "cluster diff", d, http.StatusOK)
	diff := section(d.body, "diff")
	against := regexp.MustCompile(`(?s)<div class="corrections against">.*?</div>`).FindString(diff)
	if !strings.Contains(against, "version 1") || !strings.Contains(against, "<ins>") || !strings.Contains(against, "（数据已更新）") {
		t.Errorf("the diff into the copy of the first version does not say so, with the correction it carries:\n%s", diff)
	}
	if strings.Contains(diff, "</span>（数据已更新）</del>") {
		t.Errorf("the diff shows the correction as the copy's own deletion:\n%s", diff)
	}
}
