package ui_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/repo/dbtest"
	"github.com/newsdedup/newsdedup/service"
)

// TestSigninTokenIsTheServers: a sign-in whose cookie and form token the
// client made up, without asking for the form, is refused; the form's own
// token signs in.
func TestSigninTokenIsTheServers(t *testing.T) {
	t.Parallel()
	s := newStack(t, "k1")
	b := s.browser(t)
	u, _ := url.Parse(s.URL + "/ui/")
	b.jar.SetCookies(u, []*http.Cookie{{Name: "newsdedup_signin", Value: "chosen", Path: "/ui/"}})
	p := b.do(http.MethodPost, "/ui/signin", url.Values{"csrf": {"chosen"}, "name": {"王芳"}, "key": {"k1"}}, nil)
	wantStatus(t, "a sign-in with a token of the client's choosing", p, http.StatusForbidden)
	if b.cookie("newsdedup_session") != nil {
		t.Error("a made-up token started a session")
	}
	// The refusal's page carries a token of the server's, which works.
	p = b.do(http.MethodPost, "/ui/signin", url.Values{"csrf": {b.csrf(p)}, "name": {"王芳"}, "key": {"k1"}}, nil)
	wantStatus(t, "a sign-in with the refusal page's token", p, http.StatusSeeOther)
}

// TestSessionsPerEditorAreCapped: signing in once more than
// DefaultSessionsPerEditor times ends the editor's oldest session alone.
func TestSessionsPerEditorAreCapped(t *testing.T) {
	t.Parallel()
	s := newStack(t, "k1")
	var browsers []*browser
	for range service.DefaultSessionsPerEditor + 1 {
		b := s.browser(t)
		wantStatus(t, "sign in", b.signIn("王芳", "k1"), http.StatusSeeOther)
		browsers = append(browsers, b)
	}
	wantStatus(t, "the oldest session, one over the cap", browsers[0].get("/ui/"), http.StatusSeeOther)
	for i, b := range browsers[1:] {
		if p := b.get("/ui/"); p.status != http.StatusOK {
			t.Errorf("session %d of %d: status %d, want 200", i+2, len(browsers), p.status)
		}
	}
	other := s.browser(t)
	wantStatus(t, "another editor signs in", other.signIn("李明", "k1"), http.StatusSeeOther)
	wantStatus(t, "another editor's session", other.get("/ui/"), http.StatusOK)
}

// TestSessionsInAllAreCapped: a sign-in ends everyone's oldest sessions
// beyond the total, and the ended ones, whoever they belong to.
func TestSessionsInAllAreCapped(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dbURL := dbtest.URL(t)
	s := newStackOn(t, dbURL, "k1")
	limits := service.SessionLimits{Lifetime: time.Hour, Idle: time.Hour, Total: 3}
	var tokens []string
	for i := range 5 {
		token, _, err := s.svc.StartSession(ctx, fmt.Sprintf("编辑%d", i), "k", limits)
		if err != nil {
			t.Fatal(err)
		}
		tokens = append(tokens, token)
	}
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var n int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM editor_sessions`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 3 {
		t.Errorf("%d live sessions after 5 sign-ins under a total of 3", n)
	}
	for i, token := range tokens {
		_, err := s.svc.Session(ctx, token, time.Hour)
		if live := err == nil; live != (i >= 2) {
			t.Errorf("session %d: live %v, want %v (the oldest end first)", i, live, i >= 2)
		}
	}
	// An ended session (past its end) goes at the next sign-in.
	if _, err := conn.Exec(ctx, `UPDATE editor_sessions SET expires_at = now() - interval '1 second' WHERE editor = '编辑4'`); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.svc.StartSession(ctx, "编辑5", "k", limits); err != nil {
		t.Fatal(err)
	}
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM editor_sessions WHERE editor = '编辑4'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Error("an ended session outlived the next sign-in")
	}
}
