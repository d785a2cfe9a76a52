package ui

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
)

// Sessions. Signing in gives a cookie that holds the editor's name, when
// the session ends and which API key signed it in (a digest's prefix, never
// the key), signed with HMAC-SHA256 under a secret derived from that key:
// so a session survives a restart and holds across replicas, and ends when
// its key leaves DEDUP_API_KEYS. Without keys the page is open; the secret
// is then random, one per process, and a session ends with the process.
//
// The cookie is HttpOnly (no script reads it), SameSite=Strict (no other
// site's page sends it: a link from elsewhere lands on the sign-in page)
// and Secure when the request came over TLS. Every form that changes
// something carries a CSRF token derived from the session, checked on each
// POST, and a POST whose Origin or Sec-Fetch-Site says another site sent it
// is refused whatever it carries.

const (
	sessionCookie   = "newsdedup_session"
	signinCookie    = "newsdedup_signin" // the sign-in form's own token, before any session
	sessionLifetime = 12 * time.Hour
	openKeyID       = "open"
)

// session is a signed-in editor.
type session struct {
	Name    string `json:"n"`
	Expires int64  `json:"e"` // Unix seconds
	KeyID   string `json:"k"`
	Nonce   string `json:"r"` // random: tokens differ from one sign-in to the next

	token string // the cookie's value, which the CSRF token is derived from
}

// keyring signs and verifies sessions.
type keyring struct {
	secrets map[string][]byte // key id → signing secret
	open    bool              // no API keys: anyone may sign in with a name
}

func newKeyring(keyDigests [][sha256.Size]byte) (*keyring, error) {
	k := &keyring{secrets: map[string][]byte{}, open: len(keyDigests) == 0}
	if k.open {
		secret := make([]byte, 32)
		if _, err := rand.Read(secret); err != nil {
			return nil, err
		}
		k.secrets[openKeyID] = secret
		return k, nil
	}
	for _, d := range keyDigests {
		id, secret := keyIdentity(d)
		k.secrets[id] = secret
	}
	return k, nil
}

// keyIdentity derives from an API key's SHA-256 digest a public id (to find
// the secret again) and a signing secret, neither of which gives the key.
func keyIdentity(digest [sha256.Size]byte) (id string, secret []byte) {
	sum := sha256.Sum256(append([]byte("newsdedup ui key id\x00"), digest[:]...))
	mac := hmac.New(sha256.New, digest[:])
	mac.Write([]byte("newsdedup ui session"))
	return hex.EncodeToString(sum[:8]), mac.Sum(nil)
}

// signIn returns a session for name, signed in with key (ignored when the
// page is open); false when the key is not one of DEDUP_API_KEYS.
func (k *keyring) signIn(name, key string, now time.Time) (session, bool) {
	id := openKeyID
	if !k.open {
		// Every configured key is compared, in constant time, as the API does.
		got, _ := keyIdentity(sha256.Sum256([]byte(key)))
		match := ""
		for candidate := range k.secrets {
			if subtle.ConstantTimeCompare([]byte(candidate), []byte(got)) == 1 {
				match = candidate
			}
		}
		if match == "" {
			return session{}, false
		}
		id = match
	}
	s := session{Name: name, Expires: now.Add(sessionLifetime).Unix(), KeyID: id, Nonce: randomToken()}
	payload, _ := json.Marshal(s)
	body := base64.RawURLEncoding.EncodeToString(payload)
	s.token = body + "." + base64.RawURLEncoding.EncodeToString(k.sign(id, "session", body))
	return s, true
}

// sign is the HMAC of a message of some purpose under key id's secret.
func (k *keyring) sign(id, purpose, message string) []byte {
	mac := hmac.New(sha256.New, k.secrets[id])
	mac.Write([]byte(purpose + "\x00" + message))
	return mac.Sum(nil)
}

// verify returns the session a cookie value holds, if it is signed by a
// configured key and has not expired.
func (k *keyring) verify(token string, now time.Time) (session, bool) {
	body, sig, ok := strings.Cut(token, ".")
	if !ok || len(token) > 4096 {
		return session{}, false
	}
	payload, err := base64.RawURLEncoding.DecodeString(body)
	if err != nil {
		return session{}, false
	}
	mac, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil {
		return session{}, false
	}
	var s session
	if err := json.Unmarshal(payload, &s); err != nil {
		return session{}, false
	}
	if _, known := k.secrets[s.KeyID]; !known || !hmac.Equal(mac, k.sign(s.KeyID, "session", body)) {
		return session{}, false
	}
	if now.Unix() >= s.Expires {
		return session{}, false
	}
	s.token = token
	return s, true
}

// csrfToken is the token the session's forms carry.
func (k *keyring) csrfToken(s session) string {
	return base64.RawURLEncoding.EncodeToString(k.sign(s.KeyID, "csrf", s.token))
}

// checkCSRF reports whether a form's token is the session's.
func (k *keyring) checkCSRF(s session, token string) bool {
	return subtle.ConstantTimeCompare([]byte(token), []byte(k.csrfToken(s))) == 1
}

func randomToken() string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		panic("ui: no randomness: " + err.Error())
	}
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
