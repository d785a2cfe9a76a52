package ui_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/handlers"
	"github.com/newsdedup/newsdedup/internal/samples"
	"github.com/newsdedup/newsdedup/repo/dbtest"
)

// withCookie is a fresh browser of s that holds the session cookie value,
// as one that copied it would.
func withCookie(t *testing.T, s *stack, value string) *browser {
	t.Helper()
	b := s.browser(t)
	u, _ := url.Parse(s.URL + "/ui/")
	b.jar.SetCookies(u, []*http.Cookie{{Name: "newsdedup_session", Value: value, Path: "/ui/"}})
	return b
}

// TestSignOutEndsTheSession signs in on one instance, uses the session on
// another over the same database, signs out on the second, and then tries
// a copy of the cookie, with its form token, on both: the session is over
// everywhere, and a form sent with it records nothing.
func TestSignOutEndsTheSession(t *testing.T) {
	t.Parallel()
	dbURL := dbtest.URL(t)
	one, two := newStackOn(t, dbURL, "k1"), newStackOn(t, dbURL, "k1")
	st := samples.Stories[0]
	head := one.ingest(t, "xinhua", "x-1", st.Title, st.Body, "")
	repost := one.ingest(t, "portal", "w-1", st.Title, st.Repost(), "")
	cluster := fmt.Sprintf("/ui/clusters/%d", head.ID)

	b := one.browser(t)
	wantStatus(t, "sign in", b.signIn("王芳", "k1"), http.StatusSeeOther)
	token := b.cookie("newsdedup_session").Value
	csrf := b.csrf(b.get(cluster))
	copied := withCookie(t, two, token)
	wantStatus(t, "the session on another instance", copied.get(cluster), http.StatusOK)

	p := copied.do(http.MethodPost, "/ui/signout", url.Values{"csrf": {csrf}}, nil)
	wantStatus(t, "sign out on the other instance", p, http.StatusSeeOther)
	if copied.cookie("newsdedup_session") != nil {
		t.Error("the cookie is still set after signing out")
	}

	for name, s := range map[string]*stack{"the instance signed in on": one, "the instance signed out on": two} {
		c := withCookie(t, s, token)
		if p := c.get(cluster); p.status != http.StatusSeeOther {
			t.Errorf("%s: the signed-out session's cookie: status %d, want a redirect to sign in", name, p.status)
		}
		p := c.do(http.MethodPost, cluster+"/kept", url.Values{"csrf": {csrf}, "article_id": {fmt.Sprint(repost.ID)}}, nil)
		wantStatus(t, name+": a form with the signed-out session", p, http.StatusUnauthorized)
	}
	if view, _ := one.svc.Cluster(context.Background(), head.ID); view.Kept.By != nil {
		t.Errorf("a form of a signed-out session was recorded: %+v", view.Kept.By)
	}
}

// TestIdleSessionEnds: a session used within the idle time goes on, and
// each use starts the idle time again; one unused for longer ends, as does
// one past its 12 hours. The idle time is the server's setting: the same
// pause leaves a session of a server with the default hour in force.
func TestIdleSessionEnds(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dbURL := dbtest.URL(t)
	s := newStackWith(t, dbURL, handlers.Config{APIKeys: []string{"k1"}, UIIdleTimeout: 10 * time.Minute})
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	// idle makes every session look unused for the last d, as a clock
	// that moved on would.
	idle := func(d time.Duration) {
		t.Helper()
		if _, err := conn.Exec(ctx, `UPDATE editor_sessions SET last_seen_at = last_seen_at - $1::interval, started_at = started_at - $1::interval, expires_at = expires_at - $1::interval`, d); err != nil {
			t.Fatal(err)
		}
	}
	b := s.browser(t)
	wantStatus(t, "sign in", b.signIn("王芳", "k1"), http.StatusSeeOther)
	idle(9 * time.Minute)
	wantStatus(t, "after 9 idle minutes of 10", b.get("/ui/"), http.StatusOK)
	idle(9 * time.Minute)
	wantStatus(t, "after 9 more idle minutes, the session used in between", b.get("/ui/"), http.StatusOK)
	idle(11 * time.Minute)
	if p := b.get("/ui/"); p.status != http.StatusSeeOther {
		t.Errorf("after 11 idle minutes of 10: status %d, want a redirect to sign in", p.status)
	}
	csrf := b.csrf(b.get("/ui/signin"))
	wantStatus(t, "a form after 11 idle minutes", b.do(http.MethodPost, "/ui/signout", url.Values{"csrf": {csrf}}, nil), http.StatusUnauthorized)

	// The default idle time is an hour.
	otherURL := dbtest.URL(t)
	other := newStackOn(t, otherURL, "k1")
	b2 := other.browser(t)
	wantStatus(t, "sign in with the default idle time", b2.signIn("李明", "k1"), http.StatusSeeOther)
	conn2, err := pgx.Connect(ctx, otherURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn2.Close(ctx)
	if _, err := conn2.Exec(ctx, `UPDATE editor_sessions SET last_seen_at = last_seen_at - interval '59 minutes'`); err != nil {
		t.Fatal(err)
	}
	wantStatus(t, "after 59 idle minutes of the default hour", b2.get("/ui/"), http.StatusOK)

	// However busy, a session ends 12 hours after signing in.
	if _, err := conn2.Exec(ctx, `UPDATE editor_sessions SET expires_at = now() - interval '1 second'`); err != nil {
		t.Fatal(err)
	}
	if p := b2.get("/ui/"); p.status != http.StatusSeeOther {
		t.Errorf("past its 12 hours: status %d, want a redirect to sign in", p.status)
	}
	var left int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM editor_sessions`).Scan(&left); err != nil {
		t.Fatal(err)
	}
	b3 := s.browser(t)
	wantStatus(t, "sign in again", b3.signIn("王芳", "k1"), http.StatusSeeOther)
	var after int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM editor_sessions`).Scan(&after); err != nil {
		t.Fatal(err)
	}
	if left != 1 || after != 1 {
		t.Errorf("sessions stored: %d ended before a sign-in, %d after; want the ended one deleted by the sign-in", left, after)
	}
}
