// Package ui is the editors' page, served by dedupd at /ui/: a list of
// recent clusters with filters, and a cluster's members side by side with
// the shared text marked, the kept member, and buttons to keep another or
// split one out. It is server-rendered HTML (html/template, assets
// embedded), works without JavaScript and runs none.
//
// It speaks HTTP only: the keep rule, the decisions and the splits are the
// service's. Sign-in, cookies and CSRF tokens are in session.go; what the
// page shows of a text is escaped by html/template, the highlighting
// included (segments).
package ui

import (
	"cmp"
	"crypto/sha256"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
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
}

// page is the editors' page.
type page struct {
	svc     *service.Service
	keys    *keyring
	problem func(echo.Context, error) (int, string)
	log     *slog.Logger
	limits  service.SessionLimits
	views   *views
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
	vs, err := parseViews()
	if err != nil {
		return fmt.Errorf("ui: %w", err)
	}
	p := &page{svc: cfg.Service, keys: newKeyring(cfg.KeyDigests), problem: cfg.Problem, log: cfg.Logger, views: vs,
		limits: service.SessionLimits{Lifetime: sessionLifetime, Idle: cmp.Or(cfg.IdleTimeout, DefaultIdleTimeout)}}

	g := e.Group("/ui", p.headers)
	get := func(path string, h handler, mw ...echo.MiddlewareFunc) {
		g.GET(path, p.serve(h), mw...)
		g.HEAD(path, p.serve(h), mw...)
	}
	e.GET("/ui", func(c echo.Context) error { return c.Redirect(http.StatusFound, "/ui/") }, p.headers)
	get("/static/:file", p.static)
	get("/signin", p.signinForm)
	g.POST("/signin", p.serve(p.signin))
	get("/", p.clusters, p.signedIn)
	get("/clusters/:id", p.cluster, p.signedIn)
	get("/clusters/:id/split", p.splitForm, p.signedIn)
	g.POST("/clusters/:id/kept", p.serve(p.keep), p.signedIn, p.checkForm)
	g.POST("/clusters/:id/reset", p.serve(p.reset), p.signedIn, p.checkForm)
	g.POST("/clusters/:id/split", p.serve(p.split), p.signedIn, p.checkForm)
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
		status, message := p.problem(c, err)
		return p.render(c, status, "error", newErrorView(status, message))
	}
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
				status, message := p.problem(c, err)
				return p.render(c, status, "error", newErrorView(status, message))
			}
		}
		if c.Request().Method == http.MethodGet || c.Request().Method == http.MethodHead {
			return c.Redirect(http.StatusSeeOther, "/ui/signin?next="+url.QueryEscape(c.Request().URL.RequestURI()))
		}
		return p.render(c, http.StatusUnauthorized, "error", newErrorView(http.StatusUnauthorized, "your session has ended: sign in again"))
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
			return p.render(c, http.StatusForbidden, "error", newErrorView(http.StatusForbidden,
				"this form did not come from this page (its security token is missing or stale): go back, reload and try again"))
		}
		if err := queryparam.Once(form, "csrf", "article_id", "note"); err != nil {
			status, message := p.problem(c, err)
			return p.render(c, status, "error", newErrorView(status, message))
		}
		return next(c)
	}
}

// formInAddress is what a POST whose address carries a query is told.
const formInAddress = "a form sends its fields, and its security token, in its body: this address must carry no query"

// readForm reads a POST's form from its body alone, at most maxFormBytes,
// into the request's PostForm, and refuses a POST whose address carries a
// query: a field, and above all a security token, in an address ends up in
// proxies' logs and browsers' history, and the page's forms never put one
// there. It returns nil when it refused the form, with the error of
// writing the page that says why.
func (p *page) readForm(c echo.Context) (url.Values, error) {
	req := c.Request()
	if req.URL.RawQuery != "" {
		return nil, p.render(c, http.StatusBadRequest, "error", newErrorView(http.StatusBadRequest, formInAddress))
	}
	req.Body = http.MaxBytesReader(c.Response().Writer, req.Body, maxFormBytes)
	if err := req.ParseForm(); err != nil {
		var mbe *http.MaxBytesError
		if !errors.As(err, &mbe) {
			err = &service.Error{Kind: service.KindInvalid, Field: "form", Message: "the form could not be read", Err: err}
		}
		status, message := p.problem(c, err)
		return nil, p.render(c, status, "error", newErrorView(status, message))
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
	token := randomToken()
	setCookie(c, signinCookie, token, time.Hour)
	return p.render(c, http.StatusOK, "signin", signinView{layout: layout{Title: "Sign in", Open: p.keys.open},
		CSRF: token, Next: localNext(c.QueryParam("next"))})
}

// signin is POST /ui/signin: a name, and a key when DEDUP_API_KEYS is set.
func (p *page) signin(c echo.Context) error {
	req := c.Request()
	form, err := p.readForm(c)
	if form == nil {
		return err
	}
	v := signinView{layout: layout{Title: "Sign in", Open: p.keys.open}, Next: localNext(form.Get("next")), Name: form.Get("name")}
	ck, err := c.Cookie(signinCookie)
	if crossSite(req) || err != nil || ck.Value == "" || form.Get("csrf") != ck.Value {
		v.CSRF = randomToken()
		setCookie(c, signinCookie, v.CSRF, time.Hour)
		v.Error = "The sign-in form expired or did not come from this page: try again."
		return p.render(c, http.StatusForbidden, "signin", v)
	}
	v.CSRF = ck.Value
	name, err := service.CheckEditor(form.Get("name"))
	if err != nil {
		var se *service.Error
		errors.As(err, &se)
		v.Error = "Your name " + strings.TrimPrefix(se.Message, "editor: ") + "."
		return p.render(c, http.StatusUnprocessableEntity, "signin", v)
	}
	keyID, ok := p.keys.keyFor(form.Get("key"))
	if !ok {
		v.Error = "That key is not one of this server's API keys."
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

// clusters is GET /ui/: the list, with its filters.
func (p *page) clusters(c echo.Context) error {
	ctx := c.Request().Context()
	key := func() ([]byte, error) { return p.svc.CursorKey(ctx) }
	form := c.QueryParams()
	v := listView{layout: p.layout(c, "Clusters"), Form: filterForm(form), Statuses: statusOptions, Policy: p.svc.KeepPolicy().Describe()}
	q, err := clusterquery.Parse(form, key)
	var page service.ClusterPage
	if err == nil {
		page, err = p.svc.Clusters(ctx, q)
	}
	if errors.Is(err, service.ErrInvalid) {
		v.Error = message(err)
		return p.render(c, http.StatusUnprocessableEntity, "clusters", v)
	}
	if err != nil {
		return err
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

// statusOptions are the verdicts the list filters by.
var statusOptions = []service.Status{service.StatusNearDuplicate, service.StatusPartialDuplicate, service.StatusExactDuplicate}

func message(err error) string {
	var se *service.Error
	if errors.As(err, &se) {
		return se.Message
	}
	return err.Error()
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
	v := clusterView{layout: p.layout(c, fmt.Sprintf("Cluster %d", id)), Cluster: view, Done: doneMessage(c, view)}
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
	if right != 0 {
		sbs, err := p.svc.SideBySide(ctx, id, view.Kept.ID, right)
		if err != nil && !errors.Is(err, service.ErrNotFound) {
			return err
		}
		if err == nil {
			v.Side = &sbs
			v.LeftText = segments(sbs.Left.Text, sbs.Left.Shared)
			v.RightText = segments(sbs.Right.Text, sbs.Right.Shared)
		}
	}
	return p.render(c, http.StatusOK, "cluster", v)
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
	return p.render(c, http.StatusOK, "split", splitView{layout: p.layout(c, "Split an article out"), ClusterID: id, Preview: preview})
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
	res, err := p.svc.Split(c.Request().Context(), id, article, p.decisionInput(c))
	if err != nil {
		return err
	}
	return done(c, res.Decision)
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
