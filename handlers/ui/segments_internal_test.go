package ui

import (
	"reflect"
	"strings"
	"testing"

	"github.com/newsdedup/newsdedup/service"
)

func TestSegments(t *testing.T) {
	t.Parallel()
	text := "长江洪水<b>" // 长 江 洪 水 are 3 bytes each
	tests := []struct {
		name  string
		spans []service.Span
		want  []segment
	}{
		{"none", nil, []segment{{Text: text}}},
		{"one", []service.Span{{Start: 3, End: 9}}, []segment{{Text: "长"}, {Text: "江洪", Mark: true}, {Text: "水<b>"}}},
		{"at both ends", []service.Span{{Start: 0, End: 3}, {Start: 12, End: 15}}, []segment{{Text: "长", Mark: true}, {Text: "江洪水"}, {Text: "<b>", Mark: true}}},
		{"off a character's boundary: skipped", []service.Span{{Start: 1, End: 6}}, []segment{{Text: text}}},
		{"out of range: cut", []service.Span{{Start: 12, End: 99}}, []segment{{Text: "长江洪水"}, {Text: "<b>", Mark: true}}},
		{"overlapping and out of order: the later ones cut", []service.Span{{Start: 3, End: 9}, {Start: 6, End: 12}, {Start: 0, End: 3}}, []segment{{Text: "长"}, {Text: "江洪", Mark: true}, {Text: "水", Mark: true}, {Text: "<b>"}}},
		{"empty and negative", []service.Span{{Start: 4, End: 4}, {Start: -3, End: 0}}, []segment{{Text: text}}},
	}
	for _, tt := range tests {
		if got, cut := segments(text, tt.spans); !reflect.DeepEqual(got, tt.want) || cut != 0 {
			t.Errorf("%s: segments(%q, %v) = %+v, %d, want %+v, 0", tt.name, text, tt.spans, got, cut, tt.want)
		}
	}
	long := strings.Repeat("洪", maxShownBytes) // three times the bytes shown
	got, cut := segments(long, []service.Span{{Start: 0, End: 3}, {Start: len(long) - 3, End: len(long)}})
	if n := len(got); n != 2 || !got[0].Mark || got[1].Mark || cut != maxShownBytes*2/3 {
		t.Errorf("a long text: %d segments, %d characters cut, want the marked start, the rest shown, and %d cut", n, cut, maxShownBytes*2/3)
	}
	if shown := len(got[0].Text) + len(got[1].Text); shown > maxShownBytes {
		t.Errorf("a long text: %d bytes shown, want at most %d", shown, maxShownBytes)
	}
}
