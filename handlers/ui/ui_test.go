package ui_test

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/newsdedup/newsdedup/handlers"
	"github.com/newsdedup/newsdedup/internal/samples"
	"github.com/newsdedup/newsdedup/repo"
	"github.com/newsdedup/newsdedup/repo/dbtest"
	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

var dict *fingerprint.Dictionary

func TestMain(m *testing.M) {
	d, err := fingerprint.Load(fingerprint.DefaultDictDir())
	if err != nil {
		fmt.Fprintln(os.Stderr, "load dictionary:", err)
		os.Exit(1)
	}
	dict = d
	code := m.Run()
	d.Close()
	os.Exit(code)
}

// stack is the real service and API, the page included, over a fresh
// database, served over HTTP.
type stack struct {
	*httptest.Server
	svc *service.Service
	st  *repo.Store
}

func newStack(t *testing.T, keys ...string) *stack {
	t.Helper()
	return newStackOn(t, dbtest.URL(t), keys...)
}

func newStackOn(t *testing.T, dbURL string, keys ...string) *stack {
	t.Helper()
	return newStackWith(t, dbURL, handlers.Config{APIKeys: keys})
}

// newStackWith serves the stack with cfg, its logger and registry set.
func newStackWith(t *testing.T, dbURL string, cfg handlers.Config) *stack {
	t.Helper()
	st, err := repo.Open(context.Background(), dbURL, repo.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	svc, err := service.New(st, fingerprint.NewWeighted(dict, fingerprint.DefaultWeightedParams), service.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Logger, cfg.Registry = slog.New(slog.NewTextHandler(io.Discard, nil)), prometheus.NewRegistry()
	e, err := handlers.New(svc, cfg)
	if err != nil {
		t.Fatal(err)
	}
	s := &stack{Server: httptest.NewServer(e), svc: svc, st: st}
	t.Cleanup(s.Close)
	return s
}

// browser is a client with a cookie jar that does not follow redirects.
// It asks for the English page (lang, "en" unless set), as the tests that
// read the page's words were written in English; TestLanguages reads the
// Chinese one.
type browser struct {
	lang string
	t    *testing.T
	s    *stack
	c    *http.Client
	jar  *cookiejar.Jar
}

func (s *stack) browser(t *testing.T) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t: t, s: s, jar: jar, c: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}}
}

type page struct {
	status int
	header http.Header
	body   string
}

func (b *browser) do(method, path string, form url.Values, header http.Header) page {
	b.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, b.s.URL+path, body)
	if err != nil {
		b.t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	req.Header.Set("Accept-Language", cmp.Or(b.lang, "en"))
	for k, v := range header {
		req.Header[k] = v
	}
	res, err := b.c.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer res.Body.Close()
	out, _ := io.ReadAll(res.Body)
	return page{status: res.StatusCode, header: res.Header, body: string(out)}
}

func (b *browser) get(path string) page { return b.do(http.MethodGet, path, nil, nil) }

var hiddenCSRF = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

// csrf is the token of the first form of a page.
func (b *browser) csrf(p page) string {
	b.t.Helper()
	m := hiddenCSRF.FindStringSubmatch(p.body)
	if m == nil {
		b.t.Fatalf("no csrf field in %s", p.body)
	}
	return m[1]
}

// signIn signs in through the form and returns the page it lands on.
func (b *browser) signIn(name, key string) page {
	b.t.Helper()
	form := b.get("/ui/signin?next=" + url.QueryEscape("/ui/"))
	return b.do(http.MethodPost, "/ui/signin", url.Values{"csrf": {b.csrf(form)}, "name": {name}, "key": {key}, "next": {"/ui/"}}, nil)
}

func (b *browser) cookie(name string) *http.Cookie {
	u, _ := url.Parse(b.s.URL + "/ui/")
	for _, c := range b.jar.Cookies(u) {
		if c.Name == name {
			return c
		}
	}
	return nil
}

func wantStatus(t *testing.T, what string, p page, want int) {
	t.Helper()
	if p.status != want {
		body := p.body
		if len(body) > 800 {
			body = body[:800]
		}
		t.Fatalf("%s: status %d, want %d\n%s", what, p.status, want, body)
	}
}

// ingest stores an article through the service.
func (s *stack) ingest(t *testing.T, source, id, title, body, link string) service.Verdict {
	t.Helper()
	v, err := s.svc.Ingest(context.Background(), service.ArticleInput{
		Text: service.Text{Title: title, Body: body}, ExternalID: id, Source: source, URL: link,
		PublishedAt: time.Date(2026, 6, 18, 4, 30, 0, 0, time.UTC),
	}, s.svc.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestSignIn signs in with a key: the redirects, the cookies' attributes,
// and the refusals.
func TestSignIn(t *testing.T) {
	t.Parallel()
	// A key long enough that a session cookie's random base64 cannot
	// hold it by chance, as it held "k2" once.
	const secondKey = "second-editors-key"
	s := newStack(t, "k1", secondKey)
	b := s.browser(t)

	p := b.get("/ui/clusters/5?with=6")
	wantStatus(t, "a page before signing in", p, http.StatusSeeOther)
	if loc := p.header.Get("Location"); loc != "/ui/signin?next="+url.QueryEscape("/ui/clusters/5?with=6") {
		t.Errorf("redirect to %q", loc)
	}
	form := b.get("/ui/signin")
	wantStatus(t, "sign-in form", form, http.StatusOK)
	if !strings.Contains(form.body, `name="key"`) || strings.Contains(form.body, "open to anyone") {
		t.Errorf("sign-in form with keys: %s", form.body)
	}
	for _, h := range []string{"Content-Security-Policy", "X-Frame-Options", "Cache-Control"} {
		if form.header.Get(h) == "" {
			t.Errorf("sign-in form: no %s header", h)
		}
	}
	csrf := b.csrf(form)
	post := func(v url.Values) page { return b.do(http.MethodPost, "/ui/signin", v, nil) }

	wantStatus(t, "a wrong key", post(url.Values{"csrf": {csrf}, "name": {"王芳"}, "key": {"nope"}}), http.StatusUnauthorized)
	wantStatus(t, "no name", post(url.Values{"csrf": {csrf}, "name": {" "}, "key": {secondKey}}), http.StatusUnprocessableEntity)
	wantStatus(t, "no form token", post(url.Values{"name": {"王芳"}, "key": {secondKey}}), http.StatusForbidden)
	wantStatus(t, "a form from another site", b.do(http.MethodPost, "/ui/signin", url.Values{"csrf": {b.csrf(b.get("/ui/signin"))}, "name": {"王芳"}, "key": {secondKey}},
		http.Header{"Origin": {"https://evil.example"}}), http.StatusForbidden)
	if b.cookie("newsdedup_session") != nil {
		t.Fatal("a session after refused sign-ins")
	}

	p = b.signIn("王芳", secondKey)
	wantStatus(t, "sign in", p, http.StatusSeeOther)
	if loc := p.header.Get("Location"); loc != "/ui/" {
		t.Errorf("after sign-in, redirect to %q", loc)
	}
	raw := p.header.Values("Set-Cookie")
	var session string
	for _, c := range raw {
		if strings.HasPrefix(c, "newsdedup_session=") {
			session = c
		}
	}
	for _, attr := range []string{"Path=/ui/", "HttpOnly", "SameSite=Strict", "Max-Age=43200"} {
		if !strings.Contains(session, attr) {
			t.Errorf("session cookie %q lacks %s", session, attr)
		}
	}
	if strings.Contains(session, "Secure") || strings.Contains(session, secondKey) {
		t.Errorf("session cookie over plain HTTP: %q (no Secure, never the key)", session)
	}
	home := b.get("/ui/")
	wantStatus(t, "the list, signed in", home, http.StatusOK)
	if !strings.Contains(home.body, "Signed in as <b>王芳</b>") {
		t.Errorf("the list does not say who is signed in")
	}

	// Behind a proxy that ends TLS, the cookie is Secure.
	b2 := s.browser(t)
	f2 := b2.get("/ui/signin")
	p2 := b2.do(http.MethodPost, "/ui/signin", url.Values{"csrf": {b2.csrf(f2)}, "name": {"李明"}, "key": {"k1"}, "next": {"/ui/"}},
		http.Header{"X-Forwarded-Proto": {"https"}})
	if c := strings.Join(p2.header.Values("Set-Cookie"), "\n"); !strings.Contains(c, "Secure") {
		t.Errorf("session cookie over TLS: %q, want Secure", c)
	}

	// A tampered cookie, or one another server's keys signed, is no session.
	ck := b.cookie("newsdedup_session")
	for name, value := range map[string]string{
		"tampered":  strings.Replace(ck.Value, ck.Value[:4], "eyJu", 1) + "x",
		"truncated": ck.Value[:len(ck.Value)-3],
		"garbage":   "not.a-session",
	} {
		b3 := s.browser(t)
		u, _ := url.Parse(s.URL + "/ui/")
		b3.jar.SetCookies(u, []*http.Cookie{{Name: "newsdedup_session", Value: value, Path: "/ui/"}})
		if p := b3.get("/ui/"); p.status != http.StatusSeeOther {
			t.Errorf("%s session cookie: status %d, want a redirect to sign in", name, p.status)
		}
	}
	other := newStack(t, "k3")
	b4 := other.browser(t)
	u, _ := url.Parse(other.URL + "/ui/")
	b4.jar.SetCookies(u, []*http.Cookie{{Name: "newsdedup_session", Value: ck.Value, Path: "/ui/"}})
	if p := b4.get("/ui/"); p.status != http.StatusSeeOther {
		t.Errorf("a session of a key this server does not have: status %d, want a redirect", p.status)
	}

	// Sign out.
	p = b.do(http.MethodPost, "/ui/signout", url.Values{"csrf": {b.csrf(home)}}, nil)
	wantStatus(t, "sign out", p, http.StatusSeeOther)
	if b.cookie("newsdedup_session") != nil {
		t.Error("a session after signing out")
	}
}

// TestNoOpenRedirect: after signing in, the page goes to its own paths
// only.
func TestNoOpenRedirect(t *testing.T) {
	t.Parallel()
	s := newStack(t, "k1")
	for next, want := range map[string]string{
		"/ui/clusters/7?with=8": "/ui/clusters/7?with=8",
		"//evil.example/ui/":    "/ui/",
		"https://evil.example":  "/ui/",
		"/ui/\\evil":            "/ui/",
		"/v1/articles":          "/ui/",
		"/ui//evil.example":     "/ui/",
		"javascript:alert(1)":   "/ui/",
	} {
		b := s.browser(t)
		form := b.get("/ui/signin")
		p := b.do(http.MethodPost, "/ui/signin", url.Values{"csrf": {b.csrf(form)}, "name": {"王芳"}, "key": {"k1"}, "next": {next}}, nil)
		if loc := p.header.Get("Location"); loc != want {
			t.Errorf("next=%q: redirect to %q, want %q", next, loc, want)
		}
	}
}

// TestOpenPage: without API keys, the page says it is open and asks for a
// name only.
func TestOpenPage(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	b := s.browser(t)
	form := b.get("/ui/signin")
	if strings.Contains(form.body, `name="key"`) || !strings.Contains(form.body, "open to anyone") {
		t.Errorf("open sign-in form: %s", form.body)
	}
	wantStatus(t, "sign in with a name", b.signIn("王芳", ""), http.StatusSeeOther)
	p := b.get("/ui/")
	wantStatus(t, "the list", p, http.StatusOK)
	if !strings.Contains(p.body, "DEDUP_API_KEYS is empty") {
		t.Error("the open page does not say it is open")
	}
}

// TestHostileArticlesAreEscaped stores articles whose every field tries to
// inject markup, and reads every page that shows them: nothing comes
// through as markup.
func TestHostileArticlesAreEscaped(t *testing.T) {
	t.Parallel()
	s := newStack(t, "k1")
	st := samples.Stories[0]
	head := s.ingest(t, "xinhua", "x-1", st.Title, st.Body, "https://news.example.com/x-1")
	hostileSource := `"><svg onload=window.__pwned=1>`
	v := s.ingest(t, hostileSource, `"><img src=x onerror=alert(1)>`, samples.HostileTitle, st.Hostile(), "javascript:window.__pwned=1")
	if v.ClusterID != head.ID {
		t.Fatalf("the hostile repost is in cluster %d, want %d", v.ClusterID, head.ID)
	}
	// An editor's name and note try it too.
	if _, err := s.svc.Keep(context.Background(), head.ID, v.ID, service.DecisionInput{Editor: `<b>王芳</b>`, Note: `</td><script>window.__pwned=1</script>`}); err != nil {
		t.Fatal(err)
	}

	b := s.browser(t)
	wantStatus(t, "sign in", b.signIn(`<i>x</i>"'`, "k1"), http.StatusSeeOther)
	pages := map[string]page{
		"list":          b.get("/ui/"),
		"list filtered": b.get("/ui/?source=" + url.QueryEscape(hostileSource)),
		"cluster":       b.get(fmt.Sprintf("/ui/clusters/%d?with=%d", head.ID, head.ID)),
		"kept side":     b.get(fmt.Sprintf("/ui/clusters/%d", head.ID)),
		"split form":    b.get(fmt.Sprintf("/ui/clusters/%d/split?article=%d", head.ID, v.ID)),
		"an error":      b.get("/ui/clusters/999999"),
		"bad filter":    b.get("/ui/?from=" + url.QueryEscape(`"><script>x</script>`)),
		"search":        b.get("/ui/search?q=" + url.QueryEscape("洪水 <script>")),
		"search words":  b.get("/ui/search?q=" + url.QueryEscape("洪水")),
		"bad search":    b.get("/ui/search?q=" + url.QueryEscape(`"><script>x</script>`+strings.Repeat("x", 300))),
	}
	for name, p := range pages {
		if p.status >= 500 {
			t.Errorf("%s: status %d", name, p.status)
		}
		for _, bad := range []string{"<script>window", "<img src=x", "<svg onload", `href="javascript:`, "<b>王芳", "<i>x</i>", `"><script>x`} {
			if strings.Contains(p.body, bad) {
				t.Errorf("%s: the page holds %q as markup", name, bad)
			}
		}
	}
	cluster := pages["kept side"].body
	for _, want := range []string{"&lt;script&gt;window.__pwned=1&lt;/script&gt;", "&#34;&gt;&lt;img src=x onerror=window.__pwned=1&gt;", "&lt;b&gt;王芳&lt;/b&gt;", "#ZgotmplZ"} {
		if !strings.Contains(cluster, want) {
			t.Errorf("cluster page: %q is not shown escaped", want)
		}
	}
	if !strings.Contains(pages["list filtered"].body, "&#34;&gt;&lt;svg onload=window.__pwned=1&gt;") {
		t.Error("the list does not show the hostile source escaped in its filter")
	}
}

// TestForms keeps and splits through the page's forms, and refuses forms
// without the session's token or from another site.
func TestForms(t *testing.T) {
	t.Parallel()
	s := newStack(t, "k1")
	st := samples.Stories[1]
	head := s.ingest(t, "xinhua", "x-1", st.Title, st.Body, "")
	repost := s.ingest(t, "portal", "w-1", st.Title, st.Repost(), "")
	short := s.ingest(t, "people", "p-1", st.Title, st.Shortened(), "")
	for _, v := range []service.Verdict{repost, short} {
		if v.ClusterID != head.ID {
			t.Fatalf("%s in cluster %d, want %d", v.ExternalID, v.ClusterID, head.ID)
		}
	}
	b := s.browser(t)
	wantStatus(t, "sign in", b.signIn("王芳", "k1"), http.StatusSeeOther)
	clusterPath := fmt.Sprintf("/ui/clusters/%d", head.ID)
	p := b.get(clusterPath)
	wantStatus(t, "cluster", p, http.StatusOK)
	csrf := b.csrf(p)
	if !strings.Contains(p.body, "<mark>") {
		t.Error("the cluster page marks no shared text")
	}

	keep := func(token string, h http.Header) page {
		return b.do(http.MethodPost, clusterPath+"/kept", url.Values{"csrf": {token}, "article_id": {fmt.Sprint(short.ID)}}, h)
	}
	wantStatus(t, "keep without a token", keep("", nil), http.StatusForbidden)
	wantStatus(t, "keep with a wrong token", keep(csrf+"x", nil), http.StatusForbidden)
	wantStatus(t, "keep from another site", keep(csrf, http.Header{"Origin": {"https://evil.example"}}), http.StatusForbidden)
	wantStatus(t, "keep from a sibling site", keep(csrf, http.Header{"Sec-Fetch-Site": {"same-site"}}), http.StatusForbidden)
	if view, _ := s.svc.Cluster(context.Background(), head.ID); view.Kept.Rule == service.KeepByEditor {
		t.Fatal("a refused form kept an article")
	}
	// Another session's token is not this one's.
	b2 := s.browser(t)
	b2.signIn("李明", "k1")
	wantStatus(t, "keep with another session's token", keep(b2.csrf(b2.get(clusterPath)), nil), http.StatusForbidden)

	p = keep(csrf, http.Header{"Origin": {s.URL}, "Sec-Fetch-Site": {"same-origin"}})
	wantStatus(t, "keep", p, http.StatusSeeOther)
	view, err := s.svc.Cluster(context.Background(), head.ID)
	if err != nil || view.Kept.ID != short.ID || view.Kept.By == nil || view.Kept.By.Editor != "王芳" {
		t.Fatalf("after keep: %+v, %v", view.Kept, err)
	}
	p = b.get(p.header.Get("Location"))
	if !strings.Contains(p.body, fmt.Sprintf("Article %d is now the kept member", short.ID)) || !strings.Contains(p.body, "Return to the keep rule") {
		t.Errorf("the page after keep does not say so")
	}

	// Split the repost out: the confirmation, then the form.
	confirm := b.get(fmt.Sprintf("%s/split?article=%d", clusterPath, repost.ID))
	wantStatus(t, "split confirmation", confirm, http.StatusOK)
	p = b.do(http.MethodPost, clusterPath+"/split", url.Values{"csrf": {b.csrf(confirm)}, "article_id": {fmt.Sprint(repost.ID)}, "note": {"转载稿另案处理"}}, nil)
	wantStatus(t, "split", p, http.StatusSeeOther)
	if a, _ := s.svc.FindArticle(context.Background(), repost.ID); a.ClusterID != repost.ID {
		t.Errorf("after the split, the repost is in cluster %d", a.ClusterID)
	}
	// A member's id redirects to its cluster.
	p = b.get(fmt.Sprintf("/ui/clusters/%d", short.ID))
	if p.status != http.StatusSeeOther || p.header.Get("Location") != fmt.Sprintf("%s?with=%d", clusterPath, short.ID) {
		t.Errorf("a member's page: %d to %q", p.status, p.header.Get("Location"))
	}
	// Errors are pages.
	p = b.do(http.MethodPost, clusterPath+"/kept", url.Values{"csrf": {csrf}, "article_id": {"999999"}}, nil)
	if p.status != http.StatusNotFound || !strings.Contains(p.header.Get("Content-Type"), "text/html") {
		t.Errorf("keep a missing article: %d %s", p.status, p.header.Get("Content-Type"))
	}
	if p := b.get("/ui/nothing-here"); p.status != http.StatusNotFound || !strings.Contains(p.body, "<h1>404") {
		t.Errorf("an unknown page: %d", p.status)
	}
	if p := b.get("/ui/static/ui.css"); p.status != 200 || !strings.HasPrefix(p.header.Get("Content-Type"), "text/css") {
		t.Errorf("the style sheet: %d %s", p.status, p.header.Get("Content-Type"))
	}
}
