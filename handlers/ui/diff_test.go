package ui_test

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/internal/samples"
	"github.com/newsdedup/newsdedup/service"
)

// ingestAt stores an article published at the given time.
func (s *stack) ingestAt(t *testing.T, source, id, title, body string, published time.Time) service.Verdict {
	t.Helper()
	v, err := s.svc.Ingest(context.Background(), service.ArticleInput{
		Text: service.Text{Title: title, Body: body}, ExternalID: id, Source: source, PublishedAt: published,
	}, s.svc.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// row is the members' table row of article id.
func row(t *testing.T, body string, id int64) string {
	t.Helper()
	m := regexp.MustCompile(fmt.Sprintf(`(?s)<tr id="m%d"[^>]*>.*?</tr>`, id)).FindString(body)
	if m == "" {
		t.Fatalf("no row for article %d", id)
	}
	return m
}

// TestOriginalAndDiff: the member published first is named the original
// though it was ingested later, each copy's row says how it differs from
// it, and the diff marks an added byline in <ins> and a dropped paragraph
// in <del>.
func TestOriginalAndDiff(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	st := samples.Stories[0]
	day := time.Date(2026, 6, 18, 0, 0, 0, 0, time.UTC)
	paragraphs := strings.Split(st.Body, "\n")
	repost := s.ingestAt(t, "portal", "w-1", st.Title, "【搜狐新闻】"+st.Body, day.Add(3*time.Hour))
	original := s.ingestAt(t, "xinhua", "x-1", st.Title, st.Body, day)
	dropped := s.ingestAt(t, "people", "p-1", st.Title, paragraphs[0]+"\n"+paragraphs[2], day.Add(time.Hour))
	for _, v := range []service.Verdict{original, dropped} {
		if v.ClusterID != repost.ID {
			t.Fatalf("%s in cluster %d, want %d", v.ExternalID, v.ClusterID, repost.ID)
		}
	}
	b := s.browser(t)
	b.lang = "en"
	wantStatus(t, "sign in", b.signIn("王芳", ""), http.StatusSeeOther)
	path := fmt.Sprintf("/ui/clusters/%d", repost.ID)
	p := b.get(path)
	wantStatus(t, "cluster", p, http.StatusOK)

	if r := row(t, p.body, original.ID); !strings.Contains(r, `class="original"`) || !strings.Contains(r, "2 copies") {
		t.Errorf("the original's row has no mark or no count of copies:\n%s", r)
	}
	for _, id := range []int64{repost.ID, dropped.ID} {
		if strings.Contains(row(t, p.body, id), `class="original"`) {
			t.Errorf("article %d, a copy, is marked as the original", id)
		}
	}
	if r := row(t, p.body, repost.ID); !strings.Contains(r, "byline or editor&#39;s line added") {
		t.Errorf("the repost's row does not say a byline was added:\n%s", r)
	}
	if r := row(t, p.body, dropped.ID); !strings.Contains(r, "1 paragraph dropped") {
		t.Errorf("the shortened copy's row does not say a paragraph was dropped:\n%s", r)
	}

	// By default the first copy is diffed with the original.
	if !strings.Contains(p.body, `<ins><span class="sr">added: </span>【搜狐新闻】</ins>`) {
		t.Errorf("the byline is not inserted in the diff:\n%s", section(p.body, "diff"))
	}
	p = b.get(fmt.Sprintf("%s?base=%d&with=%d", path, original.ID, dropped.ID))
	wantStatus(t, "diff", p, http.StatusOK)
	del := regexp.MustCompile(`(?s)<del><span class="sr">deleted: </span>(.*?)</del>`).FindStringSubmatch(p.body)
	if del == nil || !strings.Contains(del[1], strings.TrimSpace(paragraphs[1])[:60]) {
		t.Errorf("the dropped paragraph is not deleted in the diff:\n%s", section(p.body, "diff"))
	}
	// Any two members: the repost into the shortened copy.
	p = b.get(fmt.Sprintf("%s?base=%d&with=%d", path, repost.ID, dropped.ID))
	if !strings.Contains(p.body, `<del><span class="sr">deleted: </span>【搜狐新闻】</del>`) {
		t.Errorf("the repost's byline is not deleted in its diff with the shortened copy:\n%s", section(p.body, "diff"))
	}
}

// section is the page's section with this id, for a failure's message.
func section(body, id string) string {
	return regexp.MustCompile(`(?s)<section id="` + id + `".*?</section>`).FindString(body)
}
