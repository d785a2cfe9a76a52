package ui

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/newsdedup/newsdedup/service"
)

func TestFold(t *testing.T) {
	t.Parallel()
	text := func(runs []segment) string {
		var b strings.Builder
		for _, r := range runs {
			b.WriteString(r.Text)
		}
		return b.String()
	}
	// A short text is not folded.
	short := foldText(strings.Repeat("长", screenful), nil)
	if len(short.Tail) != 0 || short.Rest != 0 {
		t.Errorf("a screenful is folded: %d runs and %d characters folded", len(short.Tail), short.Rest)
	}
	// A long one is cut after a screenful, at a line's end when one is near.
	para := strings.Repeat("洪", 99) + "\n"
	long := strings.Repeat(para, 200) // 20,000 characters
	marked := []service.Span{{Start: 0, End: 3}, {Start: len(long) - 4, End: len(long) - 1}}
	f := foldText(long, marked)
	head, tail := text(f.Head), text(f.Tail)
	if head+tail != long || f.Cut != 0 {
		t.Fatalf("the folded text is not the text: %d + %d characters, %d cut", utf8.RuneCountInString(head), utf8.RuneCountInString(tail), f.Cut)
	}
	if n := utf8.RuneCountInString(head); n != screenful || !strings.HasSuffix(head, "\n") {
		t.Errorf("the first %d characters are shown (ending %q), want %d, to a line's end", n, head[len(head)-3:], screenful)
	}
	if f.Rest != utf8.RuneCountInString(tail) {
		t.Errorf("Rest = %d, want %d", f.Rest, utf8.RuneCountInString(tail))
	}
	if !f.Head[0].Mark || !f.Tail[len(f.Tail)-2].Mark {
		t.Error("the marks at both ends are lost")
	}
	// A mark across the cut stays marked on both sides.
	across := foldText(strings.Repeat("水", 3*screenful), []service.Span{{Start: 3 * (screenful - 10), End: 3 * (screenful + 10)}})
	if last, first := across.Head[len(across.Head)-1], across.Tail[0]; !last.Mark || !first.Mark || utf8.RuneCountInString(last.Text) != 10 {
		t.Errorf("a mark across the cut: %+v | %+v", last, first)
	}
}

func TestLeadsTo(t *testing.T) {
	t.Parallel()
	hit := func(id, cluster int64, m service.SearchMatch) service.SearchHit {
		h := service.SearchHit{Match: m}
		h.ID, h.ClusterID = id, cluster
		return h
	}
	for _, tt := range []struct {
		name string
		r    service.SearchResult
		want int64 // 0: the list
	}{
		{"a key", service.SearchResult{Hits: []service.SearchHit{hit(5, 1, service.MatchExternalID), hit(9, 9, service.MatchWords)}}, 5},
		{"an id, and headlines that hold it", service.SearchResult{Hits: []service.SearchHit{hit(5, 1, service.MatchID), hit(9, 9, service.MatchWords)}}, 0},
		{"an id alone", service.SearchResult{Hits: []service.SearchHit{hit(5, 1, service.MatchID)}}, 5},
		{"words, one cluster", service.SearchResult{Hits: []service.SearchHit{hit(3, 1, service.MatchWords), hit(1, 1, service.MatchWords)}}, 3},
		{"words, two clusters", service.SearchResult{Hits: []service.SearchHit{hit(3, 1, service.MatchWords), hit(4, 4, service.MatchWords)}}, 0},
		{"words, one cluster but more", service.SearchResult{More: true, Hits: []service.SearchHit{hit(3, 1, service.MatchWords)}}, 0},
		{"nothing", service.SearchResult{}, 0},
	} {
		h, ok := leadsTo(tt.r)
		if got := map[bool]int64{true: h.ID}[ok]; got != tt.want {
			t.Errorf("%s: leads to %d (%v), want %d", tt.name, h.ID, ok, tt.want)
		}
	}
}
