package handlers_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/newsdedup/newsdedup/internal/samples"
)

// TestDecisionNamesAndNotes: through the API too, an editor's name with a
// bidirectional control or a zero-width character is refused, and a note
// keeps its line breaks but refuses other control characters.
func TestDecisionNamesAndNotes(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	st := samples.Stories[0]
	head := s.ingest(t, storyArticle("xinhua", "x-1", st.Title, st.Body), http.StatusCreated)
	s.ingest(t, storyArticle("portal", "w-1", st.Title, st.Repost()), http.StatusCreated)
	kept := fmt.Sprintf("/v1/clusters/%d/kept", *head.ID)
	put := func(editor, note string) response {
		body, _ := json.Marshal(map[string]any{"article_id": *head.ID, "editor": editor, "note": note})
		return s.do(t, request{method: http.MethodPut, path: kept, body: strings.NewReader(string(body))})
	}
	for _, tt := range []struct{ editor, note, field string }{
		{"\u202egnp.exe", "", "editor"},
		{"王\u200b芳", "", "editor"},
		{"王芳", "a\tb", "note"},
		{"王芳", "a\u0007b", "note"},
		{"王芳", "a\rb", "note"},
	} {
		e := wantError(t, fmt.Sprintf("editor %+q, note %+q", tt.editor, tt.note), put(tt.editor, tt.note), http.StatusUnprocessableEntity, "invalid_argument")
		if e.Error.Field != tt.field {
			t.Errorf("editor %+q, note %+q: field %q, want %q", tt.editor, tt.note, e.Error.Field, tt.field)
		}
	}
	r := put("王芳", "第一行\r\n第二行\n第三行")
	wantStatus(t, "a note of three lines", r, http.StatusOK)
	if c := decode[cluster](t, r); len(c.Decisions) != 1 || c.Decisions[0].Note != "第一行\r\n第二行\n第三行" {
		t.Errorf("a note of three lines: decisions %+v, want the note as sent", c.Decisions)
	}
}
