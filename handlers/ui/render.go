package ui

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/newsdedup/newsdedup/service"
)

//go:embed templates/*.html static/*
var assets embed.FS

// views are the parsed templates, one set per language (locale.index),
// each page with the layout and the shared parts.
type views struct {
	pages []map[string]*template.Template
}

// pageNames are the pages, each a template of its own.
var pageNames = []string{"signin", "clusters", "cluster", "split", "search", "copies", "timeline", "decisions", "deliveries", "error"}

// funcs are the templates' functions that speak no language.
var funcs = template.FuncMap{
	"utc":        func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
	"pct":        func(r float64) string { return fmt.Sprintf("%.0f%%", 100*r) },
	"ratio":      func(r float64) string { return fmt.Sprintf("%.2f", r) },
	"join":       func(s []string) string { return strings.Join(s, ", ") },
	"clusterURL": func(id int64) string { return fmt.Sprintf("/ui/clusters/%d", id) },
	"memberURL":  memberURL,
	"delay":      delay,
	"compareURL": func(cluster, member int64) string {
		return fmt.Sprintf("/ui/clusters/%d?with=%d#side", cluster, member)
	},
	"diffURL": func(cluster, from, to int64) string {
		return fmt.Sprintf("/ui/clusters/%d?base=%d&with=%d#diff", cluster, from, to)
	},
	"splitURL": func(cluster, member int64) string {
		return fmt.Sprintf("/ui/clusters/%d/split?article=%d", cluster, member)
	},
	"sourceURL": func(source string) string { return "/ui/?" + url.Values{"source": {source}}.Encode() },
	"eq64":      func(a, b int64) bool { return a == b },
	"deref":     func(t *time.Time) time.Time { return *t },
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
}

// localeFuncs are the templates' functions that speak l's language.
func localeFuncs(l *locale) template.FuncMap {
	return template.FuncMap{
		"t":    l.t,
		"num":  l.num,
		"when": l.when,
		"verdict": func(s service.Status) (string, error) {
			return l.t("verdict." + string(s))
		},
		"verdicts": func(ss []service.Status) (string, error) {
			out := make([]string, len(ss))
			for i, s := range ss {
				v, err := l.t("verdict." + string(s))
				if err != nil {
					return "", err
				}
				out[i] = v
			}
			return strings.Join(out, l.must("list.sep")), nil
		},
		"rule":       func(r service.KeepRule) (string, error) { return l.t("rule." + string(r)) },
		"action":     func(a service.Action) (string, error) { return l.t("decisions." + string(a)) }, // a decision in the log
		"sortName":   func(s service.ClusterSort) (string, error) { return l.t("sort." + string(s)) },
		"matchName":  func(m service.SearchMatch) (string, error) { return l.t("match." + string(m)) },
		"keepReason": l.keepReason,
		"policy":     l.policy,
	}
}

func parseViews(locales []*locale) (*views, error) {
	vs := &views{pages: make([]map[string]*template.Template, len(locales))}
	for i, l := range locales {
		vs.pages[i] = map[string]*template.Template{}
		for _, name := range pageNames {
			t, err := template.New(name).Funcs(funcs).Funcs(localeFuncs(l)).ParseFS(assets,
				"templates/layout.html", "templates/parts.html", "templates/overview.html", "templates/"+name+".html")
			if err != nil {
				return nil, err
			}
			vs.pages[i][name] = t
		}
	}
	return vs, nil
}

// render writes a page in the request's language. It renders into a
// buffer first, so that a template's failure (a message missing, say) is
// an error page, not half a page.
func (p *page) render(c echo.Context, status int, name string, data any) error {
	var b bytes.Buffer
	if err := p.views.pages[p.localeOf(c).index][name].ExecuteTemplate(&b, "layout", data); err != nil {
		return fmt.Errorf("render %s: %w", name, err)
	}
	return c.HTMLBlob(status, b.Bytes())
}

// layout is what every page's frame shows.
type layout struct {
	Title     string
	Editor    string // the signed-in editor; "" on the sign-in page
	CSRF      string
	Open      bool // no API keys: the page is open
	Locale    *locale
	Languages []languageLink
	Query     string // the search box's text
}

// languageLink is a language of the switch.
type languageLink struct {
	Lang, Name, URL string
	Current         bool
}

// languageNames name each language in itself, as switches do.
var languageNames = map[string]string{"zh-Hans": "中文", "en": "English"}

// layout is the frame of a page titled by message titleID.
func (p *page) layout(c echo.Context, titleID string, args ...any) layout {
	s := sessionOf(c)
	l := p.localeOf(c)
	out := layout{Title: l.must(titleID, args...), Editor: s.Editor, CSRF: csrfToken(s), Open: p.keys.open, Locale: l}
	if s.token == "" {
		out.CSRF = ""
	}
	for _, o := range p.locales {
		out.Languages = append(out.Languages, languageLink{Lang: o.Lang(), Name: languageNames[o.Lang()], URL: switchURL(o, c), Current: o == l})
	}
	return out
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
	Field      string // the parameter that is wrong, if one is
}

// errorPage renders the error page: status, and what went wrong.
func (p *page) errorPage(c echo.Context, status int, message string, field ...string) error {
	id := "status." + strconv.Itoa(status)
	if _, err := p.localeOf(c).t(id); err != nil {
		id = "status.other"
	}
	v := errorView{layout: p.layout(c, id), Status: status, Message: message}
	if len(field) > 0 {
		v.Field = field[0]
	}
	v.StatusText = v.Title
	return p.render(c, status, "error", v)
}

type listView struct {
	layout
	Overview     *overviewView // on the first page
	Form         filters
	Statuses     []service.Status
	Sorts        []service.ClusterSort
	KnownSources []string
	SourceNote   string // what a source that is no known source was taken for
	Policy       string
	Total        service.ClusterTotal
	Clusters     []service.ClusterSummary
	NextURL      string
	FirstURL     string
	Paged        bool
	Error        string
	ErrorField   string
}

// filters are the list's filters as the form shows them back.
type filters struct {
	Source, From, To, Active, Status, MinSize, MaxSize, Sort string
}

func filterForm(q url.Values) filters {
	return filters{Source: q.Get("source"), From: q.Get("from"), To: q.Get("to"), Active: q.Get("active_from"), Status: q.Get("status"),
		MinSize: q.Get("min_size"), MaxSize: q.Get("max_size"), Sort: q.Get("sort")}
}

type searchView struct {
	layout
	Query      string
	Result     service.SearchResult
	Groups     []service.SearchGroup // Result's hits by cluster
	Error      string
	ErrorField string
}

type clusterView struct {
	layout
	Headline  string // the head's title
	Cluster   service.ClusterView
	Side      *service.SideBySide
	LeftText  folded
	RightText folded
	Done      string
	DoneLink  string // after a split, the new cluster's page
	// Summaries say how each member differs from the original; Diff is the
	// diff of two members (DiffFrom into DiffTo).
	Summaries        map[int64]string
	Corrections      service.Corrections // what the original corrected, and who still carries it
	Diff             *diffView
	DiffFrom, DiffTo int64
	// Other are the articles outside the cluster that share sentences
	// with it, newest first.
	Other []service.SharedArticle
}

// ReadRunes is how much of a long text the side by side shows.
func (clusterView) ReadRunes() int { return service.MaxReadRunes }

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

// maxShownBytes bounds how much of a text the page shows: 40,000
// characters of Chinese.
const maxShownBytes = 120_000

// segments cuts text into runs at the spans to mark: the one place that
// turns spans into what the page shows, for the shared keywords and the
// shared sentences. Spans out of order, overlapping, out of range or off a
// character's boundary are skipped or cut to fit. It also returns how many
// characters past maxShownBytes are not shown. The template escapes every
// run.
func segments(text string, spans []service.Span) ([]segment, int) {
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
	return out, utf8.RuneCountInString(text[cut:])
}

// foldText is a text with its spans marked, folded after a screenful.
func foldText(text string, spans []service.Span) folded {
	runs, cut := segments(text, spans)
	return fold(runs, cut, screenful)
}

// fieldOf is the parameter an error names, if it names one.
func fieldOf(err error) string {
	var se *service.Error
	if errors.As(err, &se) {
		return se.Field
	}
	return ""
}

// memberURL is the address of a member in its cluster's page.
func memberURL(cluster, member int64) string {
	if cluster == member {
		return fmt.Sprintf("/ui/clusters/%d", cluster)
	}
	return fmt.Sprintf("/ui/clusters/%d?with=%d#m%d", cluster, member, member)
}

// screenful is about what a column of the side-by-side view shows before
// it folds the rest: some 40 lines of Chinese at a 1,400-pixel window.
const screenful = 1200

// folded is a text's runs cut after about a screenful: Head shown, Tail
// folded (Rest characters), Cut characters not shown at all.
type folded struct {
	Head, Tail []segment
	Rest, Cut  int
}

// fold cuts runs after about n characters, at the end of a line when one
// ends in the last fifth before, else after the nth character; a marked
// run cut in two stays marked on both sides.
func fold(runs []segment, cut, n int) folded {
	total := 0
	for _, r := range runs {
		total += utf8.RuneCountInString(r.Text)
	}
	out := folded{Cut: cut}
	if total <= n+n/5 { // not worth folding a few lines
		out.Head = runs
		return out
	}
	// The place to cut, in characters: a line's end near n, else n.
	at, seen := n, 0
	for _, r := range runs {
		for i, c := range []rune(r.Text) {
			pos := seen + i + 1
			if c == '\n' && pos >= n*4/5 && pos <= n {
				at = pos
			}
		}
		seen += utf8.RuneCountInString(r.Text)
	}
	seen = 0
	for _, r := range runs {
		k := utf8.RuneCountInString(r.Text)
		switch {
		case seen+k <= at:
			out.Head = append(out.Head, r)
		case seen >= at:
			out.Tail = append(out.Tail, r)
		default:
			rs := []rune(r.Text)
			out.Head = append(out.Head, segment{Text: string(rs[:at-seen]), Mark: r.Mark})
			out.Tail = append(out.Tail, segment{Text: string(rs[at-seen:]), Mark: r.Mark})
		}
		seen += k
	}
	out.Rest = total - at
	return out
}

// boundary reports whether i is at the start of a character of s, or its
// end.
func boundary(s string, i int) bool {
	return i == len(s) || (i >= 0 && i < len(s) && utf8.RuneStart(s[i]))
}
