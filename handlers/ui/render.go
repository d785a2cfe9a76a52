package ui

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/newsdedup/newsdedup/service"
)

//go:embed templates/*.html static/*
var assets embed.FS

// views are the parsed templates, one per page, each with the layout.
type views struct {
	pages map[string]*template.Template
}

var funcs = template.FuncMap{
	"when": func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.UTC().Format("2006-01-02 15:04")
	},
	"pct":   func(r float64) string { return fmt.Sprintf("%.0f%%", 100*r) },
	"ratio": func(r float64) string { return fmt.Sprintf("%.2f", r) },
	"join":  func(s []string) string { return strings.Join(s, ", ") },
	"statuses": func(ss []service.Status) string {
		out := make([]string, len(ss))
		for i, s := range ss {
			out[i] = string(s)
		}
		return strings.Join(out, ", ")
	},
	"clusterURL": func(id int64) string { return fmt.Sprintf("/ui/clusters/%d", id) },
	"compareURL": func(cluster, member int64) string {
		return fmt.Sprintf("/ui/clusters/%d?with=%d#side", cluster, member)
	},
	"splitURL": func(cluster, member int64) string {
		return fmt.Sprintf("/ui/clusters/%d/split?article=%d", cluster, member)
	},
	"eq64": func(a, b int64) bool { return a == b },
	"member": func(v service.ClusterView, id int64) *service.Member {
		if m, ok := v.Member(id); ok {
			return &m
		}
		return nil
	},
	"likeness": func(v service.ClusterView, id int64) *service.Likeness {
		if l, ok := v.Likeness[id]; ok {
			return &l
		}
		return nil
	},
	"dateValue": func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.UTC().Format(time.DateOnly)
	},
}

func parseViews() (*views, error) {
	vs := &views{pages: map[string]*template.Template{}}
	for _, name := range []string{"signin", "clusters", "cluster", "split", "error"} {
		t, err := template.New(name).Funcs(funcs).ParseFS(assets, "templates/layout.html", "templates/"+name+".html")
		if err != nil {
			return nil, err
		}
		vs.pages[name] = t
	}
	return vs, nil
}

// render writes a page. It renders into a buffer first, so that a
// template's failure is an error page, not half a page.
func (p *page) render(c echo.Context, status int, name string, data any) error {
	var b bytes.Buffer
	if err := p.views.pages[name].ExecuteTemplate(&b, "layout", data); err != nil {
		return fmt.Errorf("render %s: %w", name, err)
	}
	return c.HTMLBlob(status, b.Bytes())
}

// layout is what every page's frame shows.
type layout struct {
	Title  string
	Editor string // the signed-in editor; "" on the sign-in page
	CSRF   string
	Open   bool // no API keys: the page is open
}

func (p *page) layout(c echo.Context, title string) layout {
	s := sessionOf(c)
	return layout{Title: title, Editor: s.Editor, CSRF: csrfToken(s), Open: p.keys.open}
}

type signinView struct {
	layout
	CSRF  string // the sign-in form's own token
	Next  string
	Name  string
	Error string
}

type errorView struct {
	layout
	Status     int
	StatusText string
	Message    string
}

func newErrorView(status int, message string) errorView {
	return errorView{layout: layout{Title: http.StatusText(status)}, Status: status, StatusText: http.StatusText(status), Message: message}
}

type listView struct {
	layout
	Form     filters
	Statuses []service.Status
	Policy   string
	Clusters []service.ClusterSummary
	NextURL  string
	FirstURL string
	Paged    bool
	Error    string
}

// filters are the list's filters as the form shows them back.
type filters struct {
	Source, From, To, Status, MinSize, MaxSize string
}

func filterForm(q url.Values) filters {
	return filters{Source: q.Get("source"), From: q.Get("from"), To: q.Get("to"), Status: q.Get("status"),
		MinSize: q.Get("min_size"), MaxSize: q.Get("max_size")}
}

type clusterView struct {
	layout
	Headline  string // the head's title
	Cluster   service.ClusterView
	Side      *service.SideBySide
	LeftText  []segment
	RightText []segment
	Done      string
}

type splitView struct {
	layout
	ClusterID int64
	Preview   service.SplitPreview
}

// segment is a run of a text, marked when the other article shares it.
type segment struct {
	Text string
	Mark bool
}

// maxShownBytes bounds how much of a text the page shows.
const maxShownBytes = 60_000

// segments cuts text into runs at the spans to mark: the one place that
// turns spans into what the page shows, for the shared keywords today and
// the shared sentences when the sentence index lands. Spans out of order,
// overlapping, out of range or off a character's boundary are skipped or
// cut to fit. The template escapes every run.
func segments(text string, spans []service.Span) []segment {
	cut := len(text)
	if cut > maxShownBytes {
		cut = maxShownBytes
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
	}
	shown := text[:cut]
	var out []segment
	at := 0
	for _, s := range spans {
		start, end := max(s.Start, at), min(s.End, len(shown))
		if start >= end || !boundary(shown, start) || !boundary(shown, end) {
			continue
		}
		if start > at {
			out = append(out, segment{Text: shown[at:start]})
		}
		out = append(out, segment{Text: shown[start:end], Mark: true})
		at = end
	}
	if at < len(shown) {
		out = append(out, segment{Text: shown[at:]})
	}
	if cut < len(text) {
		out = append(out, segment{Text: fmt.Sprintf("\n… (%d more characters not shown)", utf8.RuneCountInString(text[cut:]))})
	}
	return out
}

// boundary reports whether i is at the start of a character of s, or its
// end.
func boundary(s string, i int) bool {
	return i == len(s) || (i >= 0 && i < len(s) && utf8.RuneStart(s[i]))
}
