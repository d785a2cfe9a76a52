package ui

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/newsdedup/newsdedup/service"
)

// Sessions. Signing in gives a cookie that holds a random token; the
// service keeps the session — the editor's name, which API key signed it
// in (an id derived from the key's hash, never the key), when it started,
// ends and was last used — in the database under the token's SHA-256
// (service.StartSession). So signing out ends the session on every
// instance, a session unused for the idle time (DEDUP_UI_IDLE_TIMEOUT)
// ends, every session ends after sessionLifetime, and one ends as soon as
// its key leaves DEDUP_API_KEYS. Without keys the page is open: anyone
// may sign in with a name.
//
// The cookie is HttpOnly (no script reads it), SameSite=Strict (no other
// site's page sends it: a link from elsewhere lands on the sign-in page)
// and Secure when the request came over TLS. Every form that changes
// something carries a CSRF token derived from the session's token, checked
// on each POST, and a POST whose Origin or Sec-Fetch-Site says another site
// sent it is refused whatever it carries.

const (
	sessionCookie   = "newsdedup_session"
	signinCookie    = "newsdedup_signin" // the sign-in form's own token, before any session
	sessionLifetime = 12 * time.Hour
	openKeyID       = "open"
)

// DefaultIdleTimeout is how long a session may go unused before it ends,
// when Config does not say.
const DefaultIdleTimeout = time.Hour

// session is a signed-in editor.
type session struct {
	service.Session
	token string // the cookie's value, which the CSRF token is derived from
}

// keyring knows the API keys editors may sign in with, by id.
type keyring struct {
	ids  map[string]bool // ids of DEDUP_API_KEYS
	open bool            // no API keys: anyone may sign in with a name
}

func newKeyring(keyDigests [][sha256.Size]byte) *keyring {
	k := &keyring{ids: map[string]bool{}, open: len(keyDigests) == 0}
	for _, d := range keyDigests {
		k.ids[keyID(d)] = true
	}
	return k
}

// keyID derives from an API key's SHA-256 digest a public id, which does
// not give the key.
func keyID(digest [sha256.Size]byte) string {
	sum := sha256.Sum256(append([]byte("newsdedup ui key id\x00"), digest[:]...))
	return hex.EncodeToString(sum[:8])
}

// keyFor returns the id of key, or of the open page when there are no
// keys; false when key is not one of DEDUP_API_KEYS.
func (k *keyring) keyFor(key string) (string, bool) {
	if k.open {
		return openKeyID, true
	}
	// Every configured key is compared, in constant time, as the API does.
	got := keyID(sha256.Sum256([]byte(key)))
	match := ""
	for candidate := range k.ids {
		if subtle.ConstantTimeCompare([]byte(candidate), []byte(got)) == 1 {
			match = candidate
		}
	}
	return match, match != ""
}

// signs reports whether sessions of key id keyID may still be used: the
// key is configured (or, for an open page's session, the page is still
// open).
func (k *keyring) signs(keyID string) bool {
	if k.open {
		return keyID == openKeyID
	}
	return k.ids[keyID]
}

// csrfToken is the token the session's forms carry: an HMAC under the
// session's token, which only its cookie holds.
func csrfToken(s session) string {
	mac := hmac.New(sha256.New, []byte(s.token))
	mac.Write([]byte("newsdedup ui csrf"))
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

// checkCSRF reports whether a form's token is the session's.
func checkCSRF(s session, token string) bool {
	return s.token != "" && subtle.ConstantTimeCompare([]byte(token), []byte(csrfToken(s))) == 1
}

func randomToken() string {
	b := make([]byte, 16)
	rand.Read(b) // never fails (crypto/rand)
	return base64.RawURLEncoding.EncodeToString(b)
}

// setCookie sets a cookie of the page: HttpOnly, SameSite=Strict, for /ui/
// alone, Secure when the request came over TLS (or, behind a proxy that
// ends TLS, says so in X-Forwarded-Proto: a client that lies about it only
// keeps its own cookie from being sent back over plain HTTP).
func setCookie(c echo.Context, name, value string, maxAge time.Duration) {
	req := c.Request()
	secure := req.TLS != nil || strings.EqualFold(req.Header.Get("X-Forwarded-Proto"), "https")
	ck := &http.Cookie{
		Name:     name,
		Value:    value,
		Path:     "/ui/",
		HttpOnly: true,
		SameSite: http.SameSiteStrictMode,
		Secure:   secure,
	}
	if maxAge > 0 {
		ck.MaxAge = int(maxAge.Seconds())
	} else {
		ck.MaxAge = -1
	}
	c.SetCookie(ck)
}

// crossSite reports a request another site's page sent: its Origin names
// another host, or Sec-Fetch-Site says cross-site or same-site (another
// subdomain). Browsers send one or both on every POST; tools send neither.
func crossSite(r *http.Request) bool {
	switch r.Header.Get("Sec-Fetch-Site") {
	case "cross-site", "same-site":
		return true
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		return false
	}
	if origin == "null" {
		return true
	}
	_, host, ok := strings.Cut(origin, "://")
	return !ok || !strings.EqualFold(host, r.Host)
}
