package service_test

import (
	"strings"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/service"
)

func TestParseSearch(t *testing.T) {
	t.Parallel()
	key := func(s, id string) *service.ArticleKey { return &service.ArticleKey{Source: s, ExternalID: id} }
	for _, tt := range []struct {
		q    string
		want service.SearchTerms
	}{
		{"洪水", service.SearchTerms{Text: "洪水", ExternalID: "洪水", Words: true}},
		{"  洪  ", service.SearchTerms{Text: "洪", ExternalID: "洪"}},
		{"洪 水", service.SearchTerms{Text: "洪 水", Key: key("洪", "水")}},
		{"12345", service.SearchTerms{Text: "12345", ID: 12345, ExternalID: "12345", Words: true}},
		{"+12", service.SearchTerms{Text: "+12", ExternalID: "+12", Words: true}},
		{"0", service.SearchTerms{Text: "0", ExternalID: "0", Words: true}},
		{"xwlb-20250715-14481", service.SearchTerms{Text: "xwlb-20250715-14481", ExternalID: "xwlb-20250715-14481", Words: true}},
		{"sina-testEdu a-1", service.SearchTerms{Text: "sina-testEdu a-1", Key: key("sina-testEdu", "a-1"), Words: true}},
		{"https://news.example.com/a", service.SearchTerms{Text: "https://news.example.com/a", ExternalID: "https://news.example.com/a", URL: "https://news.example.com/a", Words: true}},
		{"news.example.com/a?b=1", service.SearchTerms{Text: "news.example.com/a?b=1", ExternalID: "news.example.com/a?b=1", URL: "news.example.com/a?b=1", Words: true}},
		{"a/b", service.SearchTerms{Text: "a/b", ExternalID: "a/b", Words: true}},
		{"长江 洪水 防御", service.SearchTerms{Text: "长江 洪水 防御", Words: true}},
		{"。。", service.SearchTerms{Text: "。。", ExternalID: "。。"}},
	} {
		got, err := service.ParseSearch(tt.q)
		if err != nil {
			t.Errorf("ParseSearch(%q) = %v", tt.q, err)
			continue
		}
		if got.Text != tt.want.Text || got.ID != tt.want.ID || got.ExternalID != tt.want.ExternalID || got.URL != tt.want.URL ||
			got.Words != tt.want.Words || (got.Key == nil) != (tt.want.Key == nil) || (got.Key != nil && *got.Key != *tt.want.Key) {
			t.Errorf("ParseSearch(%q) = %+v (key %v), want %+v (key %v)", tt.q, got, got.Key, tt.want, tt.want.Key)
		}
	}
	for _, q := range []string{"", " \t ", "a\x01b", "\xff", strings.Repeat("长", service.MaxSearchLength+1)} {
		if _, err := service.ParseSearch(q); err == nil {
			t.Errorf("ParseSearch(%q) = nil error, want invalid", q)
		}
	}
}

func TestDayBounds(t *testing.T) {
	t.Parallel()
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	// The clocks go back on 25 October 2026 in Berlin: that day is 25 hours.
	b := service.DayBounds(time.Date(2026, 10, 26, 9, 30, 0, 0, berlin), 3)
	want := []string{"2026-10-24T00:00:00+02:00", "2026-10-25T00:00:00+02:00", "2026-10-26T00:00:00+01:00", "2026-10-27T00:00:00+01:00"}
	if len(b) != len(want) {
		t.Fatalf("DayBounds = %v, want %v", b, want)
	}
	for i := range b {
		if got := b[i].Format(time.RFC3339); got != want[i] {
			t.Errorf("DayBounds[%d] = %s, want %s", i, got, want[i])
		}
	}
	if d := b[2].Sub(b[1]); d != 25*time.Hour {
		t.Errorf("25 October is %v long, want 25h", d)
	}
}
