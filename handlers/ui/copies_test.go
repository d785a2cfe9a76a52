package ui_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/newsdedup/newsdedup/handlers"
	"github.com/newsdedup/newsdedup/internal/samples"
	"github.com/newsdedup/newsdedup/internal/webhook"
	"github.com/newsdedup/newsdedup/repo/dbtest"
)

// TestCopiesPage: the editors' page of who copied bjwb lists toutiao's
// copy among other outlets' and bjwb-app's among our own sections', links
// both downloads, which read back (encoding/csv, excelize) as the page's
// copies; an alert its receiver refused is shown, given up, with its error.
func TestCopiesPage(t *testing.T) {
	t.Parallel()
	w := &webhook.Worker{Desk: []string{"bjwb"}, MaxAttempts: 1}
	s := newStackWith(t, dbtest.URL(t), handlers.Config{Webhooks: w})
	w.Store = s.st
	st := samples.Stories[2]
	day := time.Date(2026, 6, 18, 0, 0, 0, 0, time.UTC)
	s.ingestAt(t, "bjwb", "b-1", st.Title, st.Body, day)
	own := s.ingestAt(t, "bjwb-app", "a-1", st.Title, st.Body, day.Add(10*time.Minute))
	other := s.ingestAt(t, "toutiao", "t-1", st.Title, st.Body, day.Add(2*time.Hour))

	refuse := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "no thanks", http.StatusForbidden)
	}))
	defer refuse.Close()
	w.Config = webhook.Config{Subscriptions: []webhook.Subscription{{Name: "legal-desk", URL: refuse.URL, Secret: "k", Format: webhook.FormatJSON}}}
	if _, err := w.Step(context.Background()); err != nil {
		t.Fatal(err)
	}

	b := s.browser(t)
	b.lang = "en"
	wantStatus(t, "sign in", b.signIn("王芳", ""), http.StatusSeeOther)
	p := b.get("/ui/copies?source=bjwb&from=2026-06-18&to=2026-06-18")
	wantStatus(t, "copies", p, http.StatusOK)
	others, ownPart, _ := strings.Cut(p.body[strings.Index(p.body, "Other outlets"):], "Our own sections")
	if !strings.Contains(others, "toutiao") || strings.Contains(others, "bjwb-app") {
		t.Errorf("other outlets' copies do not list toutiao's alone:\n%s", others)
	}
	if !strings.Contains(ownPart, "bjwb-app") || !strings.Contains(ownPart, "10m") {
		t.Errorf("our own sections' copies do not list bjwb-app's, 10 minutes after")
	}
	if !strings.Contains(p.body, "legal-desk") || !strings.Contains(p.body, "given up") || !strings.Contains(p.body, "403") {
		t.Errorf("the refused alert is not shown with its subscription, state and error")
	}

	links := regexp.MustCompile(`class="download-(csv|xlsx)" href="([^"]+)"`).FindAllStringSubmatch(p.body, -1)
	if len(links) != 2 {
		t.Fatalf("download links: %q, want csv and xlsx", links)
	}
	for _, l := range links {
		d := b.get(strings.ReplaceAll(l[2], "&amp;", "&"))
		wantStatus(t, l[1], d, http.StatusOK)
		var rows [][]string
		if l[1] == "csv" {
			body, ok := bytes.CutPrefix([]byte(d.body), []byte("\xEF\xBB\xBF"))
			if !ok {
				t.Fatalf("csv without a BOM")
			}
			var err error
			if rows, err = csv.NewReader(bytes.NewReader(body)).ReadAll(); err != nil {
				t.Fatal(err)
			}
		} else {
			f, err := excelize.OpenReader(strings.NewReader(d.body))
			if err != nil {
				t.Fatal(err)
			}
			if rows, err = f.GetRows("Sheet1"); err != nil {
				t.Fatal(err)
			}
			f.Close()
		}
		if len(rows) != 3 {
			t.Fatalf("%s: %d rows, want a header and 2 copies: %q", l[1], len(rows), rows)
		}
		got := map[string]string{}
		for _, r := range rows[1:] {
			got[r[0]] = r[1] + " " + r[2]
		}
		for _, v := range []struct {
			id     int64
			source string
		}{{own.ID, "bjwb-app"}, {other.ID, "toutiao"}} {
			if want := v.source + " " + st.Title; got[itoa(v.id)] != want {
				t.Errorf("%s: copy %d is %q, want %q", l[1], v.id, got[itoa(v.id)], want)
			}
		}
	}
	// No source and no desk: the page says so.
	wantStatus(t, "no desk", b.get("/ui/copies"), http.StatusUnprocessableEntity)
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
