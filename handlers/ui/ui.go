// Package ui is the editors' page, served by dedupd at /ui/: the day at a
// glance (overview.go's charts), a list of clusters with filters and
// orders, one search box for headlines, CMS ids and URLs, and a cluster's
// members side by side with the shared text marked, the kept member, and
// buttons to keep another or split one out. It speaks the editors'
// language and clock (locale.go). It is server-rendered HTML
// (html/template, assets embedded), works without JavaScript and runs
// none.
//
// It speaks HTTP only: the keep rule, the decisions and the splits are the
// service's. Sign-in, cookies and CSRF tokens are in session.go; what the
// page shows of a text is escaped by html/template, the highlighting
// included (segments).
package ui

import (
	"cmp"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/newsdedup/newsdedup/handlers/clusterquery"
	"github.com/newsdedup/newsdedup/handlers/queryparam"
	"github.com/newsdedup/newsdedup/service"
)

// Config is what the page needs from the API that mounts it.
type Config struct {
	Service *service.Service
	// KeyDigests are the SHA-256 digests of DEDUP_API_KEYS; none means the
	// page is open, as the API is.
	KeyDigests [][sha256.Size]byte
	// Problem turns an error into the status and message to show, as the
	// API's error handler would (and logs the cause of a fault of ours).
	Problem func(c echo.Context, err error) (status int, message string)
	Logger  *slog.Logger
	// IdleTimeout ends a session unused for this long; DefaultIdleTimeout
	// when 0.
	IdleTimeout time.Duration
	// Location is the editors' time zone: times are shown in it and the
	// date filters cut days in it. DefaultZone when nil.
	Location *time.Location
	// Deliveries lists the alerts' deliveries, shown when some failed; nil
	// without webhooks.
	Deliveries Deliveries
}

// DefaultZone is the editors' time zone when Config does not say.
const DefaultZone = "Asia/Shanghai"

// page is the editors' page.
type page struct {
	svc     *service.Service
	keys    *keyring
	problem func(echo.Context, error) (int, string)
	log     *slog.Logger
	limits  service.SessionLimits
	views   *views
	locales []*locale
	zone    *time.Location
	glance  glanceCache
	// deliveries is nil without webhooks.
	deliveries Deliveries
}

// maxFormBytes bounds the body of the page's forms.
const maxFormBytes = 64 << 10

// Register mounts the page under /ui/ on e.
func Register(e *echo.Echo, cfg Config) error {
	if cfg.Service == nil || cfg.Problem == nil || cfg.Logger == nil {
		return errors.New("ui: Service, Problem and Logger are required")
	}
	if cfg.IdleTimeout < 0 {
		return errors.New("ui: IdleTimeout must not be negative")
	}
	zone := cfg.Location
	if zone == nil {
		z, err := time.LoadLocation(DefaultZone)
		if err != nil {
			return fmt.Errorf("ui: %w", err)
		}
		zone = z
	}
	locales, err := loadLocales(zone)
	if err != nil {
		return fmt.Errorf("ui: %w", err)
	}
	vs, err := parseViews(locales)
	if err != nil {
		return fmt.Errorf("ui: %w", err)
	}
	p := &page{svc: cfg.Service, keys: newKeyring(cfg.KeyDigests), problem: cfg.Problem, log: cfg.Logger, views: vs,
		locales: locales, zone: zone, deliveries: cfg.Deliveries,
		limits: service.SessionLimits{Lifetime: sessionLifetime, Idle: cmp.Or(cfg.IdleTimeout, DefaultIdleTimeout)}}

	g := e.Group("/ui", p.headers)
	get := func(path string, h handler, mw ...echo.MiddlewareFunc) {
		g.GET(path, p.serve(h), mw...)
		g.HEAD(path, p.serve(h), mw...)
	}
	e.GET("/ui", func(c echo.Context) error { return c.Redirect(http.StatusFound, "/ui/") }, p.headers)
	get("/static/:file", p.static)
	get("/signin", p.signinForm)
	get("/lang", p.switchLanguage)
	g.POST("/signin", p.serve(p.signin))
	get("/", p.clusters, p.signedIn)
	get("/search", p.search, p.signedIn)
	get("/copies", p.copies, p.signedIn)
	get("/copies/download", p.copiesDownload, p.signedIn)
	get("/decisions", p.decisions, p.signedIn)
	get("/decisions/download", p.decisionsDownload, p.signedIn)
	get("/deliveries", p.deliveriesPage, p.signedIn)
	get("/clusters/:id", p.cluster, p.signedIn)
	get("/clusters/:id/split", p.splitForm, p.signedIn)
	get("/clusters/:id/timeline", p.timeline, p.signedIn)
	g.POST("/clusters/:id/kept", p.serve(p.keep), p.signedIn, p.checkForm)
	g.POST("/clusters/:id/reset", p.serve(p.reset), p.signedIn, p.checkForm)
	g.POST("/clusters/:id/split", p.serve(p.split), p.signedIn, p.checkForm)
	g.POST("/clusters/:id/undo-split", p.serve(p.undoSplit), p.signedIn, p.checkForm)
	g.POST("/signout", p.serve(p.signout), p.signedIn, p.checkForm)
	g.Any("/*", p.serve(func(c echo.Context) error {
		return &service.Error{Kind: service.KindNotFound, Message: "no such page"}
	}))
	return nil
}

// handler is a page's handler: it renders, redirects, or returns an error
// that serve shows as a page.
type handler func(c echo.Context) error

// serve shows an error a handler returns as an HTML page with the status
// the API would answer, so that the API's JSON error handler never sees
// the page's errors.
func (p *page) serve(h handler) echo.HandlerFunc {
	return func(c echo.Context) error {
		err := h(c)
		if err == nil || c.Response().Committed {
			return nil
		}
		return p.problemPage(c, err)
	}
}

// problemPage shows an error as a page: the status the API would answer,
// and what went wrong in the editor's language.
func (p *page) problemPage(c echo.Context, err error) error {
	status, _ := p.problem(c, err)
	return p.errorPage(c, status, p.localeOf(c).errorText(err, status), fieldOf(err))
}

// headers sets the page's security headers: a Content-Security-Policy that
// runs no script at all and loads nothing from elsewhere (should an
// escaping ever fail, nothing it let through runs), no framing, no
// caching of pages that hold articles, no referrer beyond the page.
func (p *page) headers(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set("Content-Security-Policy", "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("Cache-Control", "no-store")
		return next(c)
	}
}

// sessionKey is where signedIn puts the session in the echo context.
const sessionKey = "ui.session"

// signedIn requires a session in force, which it marks used: a page
// without one redirects to the sign-in page (back here after), a form is
// refused.
func (p *page) signedIn(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if ck, err := c.Cookie(sessionCookie); err == nil && ck.Value != "" {
			s, err := p.svc.Session(c.Request().Context(), ck.Value, p.limits.Idle)
			switch {
			case err == nil && p.keys.signs(s.KeyID):
				c.Set(sessionKey, session{Session: s, token: ck.Value})
				return next(c)
			case err != nil && !errors.Is(err, service.ErrNotFound):
				return p.problemPage(c, err)
			}
		}
		if c.Request().Method == http.MethodGet || c.Request().Method == http.MethodHead {
			return c.Redirect(http.StatusSeeOther, "/ui/signin?next="+url.QueryEscape(c.Request().URL.RequestURI()))
		}
		return p.errorPage(c, http.StatusUnauthorized, p.localeOf(c).must("error.session"))
	}
}

// checkForm reads a form (readForm) and refuses one sent by another site,
// or without the session's CSRF token in its body, or with a field given
// twice.
func (p *page) checkForm(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		form, err := p.readForm(c)
		if form == nil {
			return err
		}
		if crossSite(c.Request()) || !checkCSRF(sessionOf(c), form.Get("csrf")) {
			return p.errorPage(c, http.StatusForbidden, p.localeOf(c).must("error.csrf"))
		}
		if err := queryparam.Once(form, "csrf", "article_id", "note"); err != nil {
			return p.problemPage(c, err)
		}
		return next(c)
	}
}

// readForm reads a POST's form from its body alone, at most maxFormBytes,
// into the request's PostForm, and refuses a POST whose address carries a
// query: a field, and above all a security token, in an address ends up in
// proxies' logs and browsers' history, and the page's forms never put one
// there. It returns nil when it refused the form, with the error of
// writing the page that says why.
func (p *page) readForm(c echo.Context) (url.Values, error) {
	req := c.Request()
	if req.URL.RawQuery != "" {
		return nil, p.errorPage(c, http.StatusBadRequest, p.localeOf(c).must("error.query"))
	}
	req.Body = http.MaxBytesReader(c.Response().Writer, req.Body, maxFormBytes)
	if err := req.ParseForm(); err != nil {
		var mbe *http.MaxBytesError
		if !errors.As(err, &mbe) {
			err = &service.Error{Kind: service.KindInvalid, Field: "form", Message: "the form could not be read", Err: err}
		}
		return nil, p.problemPage(c, err)
	}
	return req.PostForm, nil
}

func sessionOf(c echo.Context) session {
	s, _ := c.Get(sessionKey).(session)
	return s
}

// signinForm is GET /ui/signin.
func (p *page) signinForm(c echo.Context) error {
	if err := queryparam.Once(c.QueryParams(), "next"); err != nil {
		return err
	}
	token, err := p.newSigninToken(c)
	if err != nil {
		return err
	}
	return p.render(c, http.StatusOK, "signin", signinView{layout: p.layout(c, "signin.title"),
		CSRF: token, Next: localNext(c.QueryParam("next"))})
}

// newSigninToken sets a fresh sign-in cookie (a random nonce) and returns
// the form's token for it, which the server alone can make: a client
// cannot sign in with a cookie and token of its own choosing.
func (p *page) newSigninToken(c echo.Context) (string, error) {
	nonce := randomToken()
	token, err := p.svc.SigninToken(c.Request().Context(), nonce)
	if err != nil {
		return "", err
	}
	setCookie(c, signinCookie, nonce, time.Hour)
	return token, nil
}

// signin is POST /ui/signin: a name, and a key when DEDUP_API_KEYS is set.
func (p *page) signin(c echo.Context) error {
	req := c.Request()
	form, err := p.readForm(c)
	if form == nil {
		return err
	}
	l := p.localeOf(c)
	v := signinView{layout: p.layout(c, "signin.title"), Next: localNext(form.Get("next")), Name: form.Get("name")}
	nonce := ""
	if ck, err := c.Cookie(signinCookie); err == nil {
		nonce = ck.Value
	}
	ok, err := p.svc.CheckSigninToken(req.Context(), nonce, form.Get("csrf"))
	if err != nil {
		return err
	}
	if crossSite(req) || !ok {
		if v.CSRF, err = p.newSigninToken(c); err != nil {
			return err
		}
		v.Error = l.must("signin.expired")
		return p.render(c, http.StatusForbidden, "signin", v)
	}
	v.CSRF = form.Get("csrf")
	name, err := service.CheckEditor(form.Get("name"))
	if err != nil {
		v.Error = l.errorText(err, http.StatusUnprocessableEntity)
		return p.render(c, http.StatusUnprocessableEntity, "signin", v)
	}
	keyID, ok := p.keys.keyFor(form.Get("key"))
	if !ok {
		v.Error = l.must("signin.badkey")
		return p.render(c, http.StatusUnauthorized, "signin", v)
	}
	token, _, err := p.svc.StartSession(req.Context(), name, keyID, p.limits)
	if err != nil {
		return err
	}
	setCookie(c, sessionCookie, token, sessionLifetime)
	setCookie(c, signinCookie, "", 0)
	p.log.InfoContext(req.Context(), "editor signed in", "editor", name, "key_id", keyID)
	return c.Redirect(http.StatusSeeOther, v.Next)
}

// signout is POST /ui/signout: the session ends on the server, for every
// copy of its cookie.
func (p *page) signout(c echo.Context) error {
	if err := p.svc.EndSession(c.Request().Context(), sessionOf(c).token); err != nil {
		return err
	}
	setCookie(c, sessionCookie, "", 0)
	return c.Redirect(http.StatusSeeOther, "/ui/signin")
}

// localNext is where to go after signing in: a path of this page, never
// another site.
func localNext(next string) string {
	u, err := url.Parse(next)
	if err != nil || next == "" || u.Scheme != "" || u.Host != "" || u.User != nil ||
		!strings.HasPrefix(u.Path, "/ui/") || strings.Contains(next, "//") || strings.ContainsAny(next, "\\\r\n") {
		return "/ui/"
	}
	return u.RequestURI()
}

// clusters is GET /ui/: the day at a glance, and the list with its
// filters, order and totals. A source that is no known source stands for
// the sources it begins (sina: sina-testEdu, sina-sports…).
func (p *page) clusters(c echo.Context) error {
	ctx := c.Request().Context()
	l := p.localeOf(c)
	key := func() ([]byte, error) { return p.svc.CursorKey(ctx) }
	form := c.QueryParams()
	v := listView{layout: p.layout(c, "list.title"), Form: filterForm(form), Statuses: statusOptions, Sorts: service.ClusterSorts}
	var err error
	if v.Policy, err = l.policy(p.svc.KeepPolicy()); err != nil {
		return err
	}
	if v.KnownSources, err = p.svc.Sources(ctx, ""); err != nil {
		return err
	}
	q, err := clusterquery.ParseIn(form, key, p.zone)
	if err == nil && q.Source != "" && !slices.Contains(v.KnownSources, q.Source) {
		q.Source, q.SourcePrefix = "", q.Source
		matches, serr := p.svc.Sources(ctx, q.SourcePrefix)
		switch {
		case serr != nil:
			err = serr
		case len(matches) == 0:
			v.SourceNote = l.must("filter.nosource", "Source", q.SourcePrefix)
		default:
			v.SourceNote = l.must("filter.prefix", "Source", q.SourcePrefix, "Count", len(matches),
				"Sources", strings.Join(matches[:min(len(matches), 8)], l.must("list.sep")))
		}
	}
	var page service.ClusterPage
	if err == nil {
		page, err = p.svc.Clusters(ctx, q)
	}
	switch {
	case err == nil && q.After == nil && page.Next == nil: // all of them on this page: no need to count
		v.Total.Clusters = len(page.Clusters)
		for _, r := range page.Clusters {
			v.Total.Articles += r.Size
		}
	case err == nil:
		v.Total, err = p.svc.CountClustersUpTo(ctx, q, countUpTo)
	}
	if errors.Is(err, service.ErrInvalid) {
		v.Error, v.ErrorField = l.errorText(err, http.StatusUnprocessableEntity), fieldOf(err)
		return p.render(c, http.StatusUnprocessableEntity, "clusters", v)
	}
	if err != nil {
		return err
	}
	if q.After == nil {
		o, err := p.glance.get(ctx, func(ctx context.Context) (service.Overview, error) {
			return p.svc.Overview(ctx, p.zone, service.DefaultOverviewDays)
		})
		if err != nil {
			return err
		}
		v.Overview = l.overviewView(o)
	}
	v.Clusters = page.Clusters
	v.Paged = q.After != nil
	if page.Next != nil {
		next := url.Values{}
		for k, vs := range form {
			if k != "cursor" {
				next[k] = vs
			}
		}
		k, err := key()
		if err != nil {
			return err
		}
		next.Set("cursor", clusterquery.EncodeCursor(*page.Next, k))
		v.NextURL = "/ui/?" + next.Encode()
	}
	first := url.Values{}
	for k, vs := range form {
		if k != "cursor" {
			first[k] = vs
		}
	}
	v.FirstURL = "/ui/?" + first.Encode()
	return p.render(c, http.StatusOK, "clusters", v)
}

// leadsTo is the article a search leads straight to: the one its key,
// external id or URL names; the one its id names when no headline holds
// it as a word (2026 may be an id or a year); or the first found when all
// it found is one cluster.
func leadsTo(r service.SearchResult) (service.SearchHit, bool) {
	if h, ok := r.Exact(); ok {
		words := slices.ContainsFunc(r.Hits, func(h service.SearchHit) bool { return h.Match == service.MatchWords })
		if h.Match != service.MatchID || !words {
			return h, true
		}
	}
	if len(r.Hits) == 0 || r.More {
		return service.SearchHit{}, false
	}
	for _, h := range r.Hits {
		if h.ClusterID != r.Hits[0].ClusterID {
			return service.SearchHit{}, false
		}
	}
	return r.Hits[0], true
}

// statusOptions are the verdicts the list filters by.
var statusOptions = []service.Status{service.StatusNearDuplicate, service.StatusPartialDuplicate, service.StatusExactDuplicate}

// search is GET /ui/search?q=…: the cluster of the article a query names,
// or a list of the articles it finds (leadsTo).
func (p *page) search(c echo.Context) error {
	ctx := c.Request().Context()
	params := c.QueryParams()
	if err := queryparam.Once(params, "q"); err != nil {
		return err
	}
	v := searchView{layout: p.layout(c, "search.page"), Query: params.Get("q")}
	v.layout.Query = v.Query
	r, err := p.svc.Search(ctx, v.Query, service.DefaultSearchLimit)
	if errors.Is(err, service.ErrInvalid) {
		v.Error, v.ErrorField = p.localeOf(c).errorText(err, http.StatusUnprocessableEntity), fieldOf(err)
		return p.render(c, http.StatusUnprocessableEntity, "search", v)
	}
	if err != nil {
		return err
	}
	if h, ok := leadsTo(r); ok {
		if h.Match == service.MatchWords { // the story: its cluster as it is
			h.ID = h.ClusterID
		}
		return c.Redirect(http.StatusSeeOther, memberURL(h.ClusterID, h.ID))
	}
	v.Result, v.Groups = r, r.ByCluster()
	return p.render(c, http.StatusOK, "search", v)
}

// cluster is GET /ui/clusters/{id}?with={member}: the cluster, the kept
// member side by side with another.
func (p *page) cluster(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := pathID(c)
	if err != nil {
		return err
	}
	view, err := p.svc.Cluster(ctx, id)
	if errors.Is(err, service.ErrNotFound) {
		// An article that is a member of a cluster: show its cluster, with it.
		if a, ferr := p.svc.FindArticle(ctx, id); ferr == nil && a.ClusterID != id {
			return c.Redirect(http.StatusSeeOther, fmt.Sprintf("/ui/clusters/%d?with=%d", a.ClusterID, id))
		}
	}
	if err != nil {
		return err
	}
	v := clusterView{layout: p.layout(c, "cluster.title", "ID", id), Cluster: view}
	v.Done, v.DoneLink = p.localeOf(c).doneMessage(c, view)
	if head, ok := view.Member(view.ID); ok {
		v.Title, v.Headline = head.Title, head.Title
	}
	right, _, err := queryparam.ID(c.QueryParams(), "with")
	if err != nil {
		return err
	}
	if right == 0 || right == view.Kept.ID {
		right = 0
		for _, m := range view.Members {
			if m.ID != view.Kept.ID {
				right = m.ID
				break
			}
		}
	}
	if err := p.differences(c, &v); err != nil {
		return err
	}
	if v.Other, err = p.svc.OtherCoverage(ctx, view); err != nil {
		return err
	}
	if right != 0 {
		sbs, err := p.svc.SideBySide(ctx, id, view.Kept.ID, right)
		if err != nil && !errors.Is(err, service.ErrNotFound) {
			return err
		}
		if err == nil {
			v.Side = &sbs
			v.LeftText = foldText(sbs.Left.Text, sbs.Left.Shared)
			v.RightText = foldText(sbs.Right.Text, sbs.Right.Shared)
		}
	}
	return p.render(c, http.StatusOK, "cluster", v)
}

// differences fills in how each member differs from the original, and the
// diff of two members: ?base= (the original when not given) into ?with=
// (the first other member when not given).
func (p *page) differences(c echo.Context, v *clusterView) error {
	ctx := c.Request().Context()
	l := p.localeOf(c)
	view := v.Cluster
	var err error
	if v.Corrections, err = p.svc.Corrections(ctx, view); err != nil {
		return err
	}
	diffs, err := p.svc.Differences(ctx, view, v.Corrections)
	if err != nil {
		return err
	}
	v.Summaries = make(map[int64]string, len(view.Members))
	for _, m := range view.Members {
		switch d, ok := diffs[m.ID]; {
		case m.ID == view.Original.ID:
		case ok:
			if v.Summaries[m.ID], err = l.difference(d); err != nil {
				return err
			}
		default:
			v.Summaries[m.ID] = l.must("diff.unread")
		}
	}
	params := c.QueryParams()
	from, _, err := queryparam.ID(params, "base")
	if err != nil {
		return err
	}
	to, _, err := queryparam.ID(params, "with")
	if err != nil {
		return err
	}
	if from == 0 {
		from = view.Original.ID
	}
	if to == 0 || to == from {
		to = 0
		for _, m := range view.Members {
			if m.ID != from {
				to = m.ID
				break
			}
		}
	}
	if to == 0 {
		return nil
	}
	d, err := p.svc.DiffMembers(ctx, view.ID, from, to)
	if errors.Is(err, service.ErrNotFound) {
		return nil // an address naming an article that left: the page without the diff
	}
	if err != nil {
		return err
	}
	v.DiffFrom, v.DiffTo = from, to
	v.Diff, err = newDiffView(l, d)
	return err
}

// splitForm is GET /ui/clusters/{id}/split?article={id}: what a split would
// do, and the form that does it.
func (p *page) splitForm(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	article, ok, err := queryparam.ID(c.QueryParams(), "article")
	if err != nil {
		return err
	}
	if !ok {
		return service.Invalid("article", "is required: the article to split out")
	}
	preview, err := p.svc.PreviewSplit(c.Request().Context(), id, article)
	if err != nil {
		return err
	}
	return p.render(c, http.StatusOK, "split", splitView{layout: p.layout(c, "split.page"), ClusterID: id, Preview: preview})
}

// keep is POST /ui/clusters/{id}/kept.
func (p *page) keep(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	article, err := formArticle(c)
	if err != nil {
		return err
	}
	d, err := p.svc.Keep(c.Request().Context(), id, article, p.decisionInput(c))
	if err != nil {
		return err
	}
	return done(c, d)
}

// reset is POST /ui/clusters/{id}/reset.
func (p *page) reset(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	d, err := p.svc.ResetKept(c.Request().Context(), id, p.decisionInput(c))
	if err != nil {
		return err
	}
	return done(c, d)
}

// split is POST /ui/clusters/{id}/split.
func (p *page) split(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	article, err := formArticle(c)
	if err != nil {
		return err
	}
	form := c.Request().PostForm
	if err := queryparam.Once(form, "scope"); err != nil {
		return err
	}
	split := p.svc.Split
	switch form.Get("scope") {
	case "", "subtree":
	case "alone":
		split = p.svc.SplitAlone
	default:
		return service.Invalid("scope", "must be subtree or alone")
	}
	res, err := split(c.Request().Context(), id, article, p.decisionInput(c))
	if err != nil {
		return err
	}
	return done(c, res.Decision)
}

// undoSplit is POST /ui/clusters/{id}/undo-split: decision_id, a split,
// is undone.
func (p *page) undoSplit(c echo.Context) error {
	if _, err := pathID(c); err != nil {
		return err
	}
	form := c.Request().PostForm
	if err := queryparam.Once(form, "decision_id"); err != nil {
		return err
	}
	id, ok, err := queryparam.ID(form, "decision_id")
	if err == nil && !ok {
		err = service.Invalid("decision_id", "is required: the split to undo")
	}
	if err != nil {
		return err
	}
	d, err := p.svc.UndoSplit(c.Request().Context(), id, p.decisionInput(c))
	if err != nil {
		return err
	}
	return done(c, d)
}

// formArticle is the form's article_id: an article id, required.
func formArticle(c echo.Context) (int64, error) {
	id, ok, err := queryparam.ID(c.Request().PostForm, "article_id")
	if err == nil && !ok {
		err = service.Invalid("article_id", "is required: the article the form is about")
	}
	return id, err
}

// decisionInput is who decides (the signed-in name) and their note.
func (p *page) decisionInput(c echo.Context) service.DecisionInput {
	return service.DecisionInput{Editor: sessionOf(c).Editor, Note: c.Request().PostForm.Get("note")}
}

// pathID is the {id} of the path; anything but a positive integer names no
// cluster.
func pathID(c echo.Context) (int64, error) {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id <= 0 || strings.HasPrefix(c.Param("id"), "+") {
		return 0, &service.Error{Kind: service.KindNotFound, Message: "no such cluster"}
	}
	return id, nil
}

// static serves the embedded style sheet.
func (p *page) static(c echo.Context) error {
	name := c.Param("file")
	b, err := assets.ReadFile("static/" + name)
	if err != nil || strings.Contains(name, "/") {
		return &service.Error{Kind: service.KindNotFound, Message: "no such file"}
	}
	c.Response().Header().Set("Cache-Control", "public, max-age=3600")
	ct := "application/octet-stream"
	if strings.HasSuffix(name, ".css") {
		ct = "text/css; charset=utf-8"
	}
	return c.Blob(http.StatusOK, ct, b)
}
