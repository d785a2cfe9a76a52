package service

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"time"
)

// The editors' page sessions. A session is a random token the browser
// keeps (a cookie) and a row the database keeps under the token's SHA-256,
// so that signing out on one instance ends the session on all, and a
// session unused for longer than its idle time ends. The database's clock
// says when a session was last seen and when it ends.

// The caps on live sessions when SessionLimits does not say: an editor
// rarely has more than a few browsers, and a newsroom a few hundred
// editors; a client signing in without end ends its own sessions first.
const (
	DefaultSessionsPerEditor = 10
	DefaultSessions          = 10000
)

// StartSession signs an editor in with the API key keyID names, and
// returns the session and its token (32 random bytes, base64url), which
// the browser keeps. KindInvalid for a name CheckEditor refuses, or limits
// that are not positive.
func (s *Service) StartSession(ctx context.Context, editor, keyID string, limits SessionLimits) (string, Session, error) {
	editor, err := CheckEditor(editor)
	if err != nil {
		return "", Session{}, err
	}
	if limits.Lifetime <= 0 || limits.Idle <= 0 {
		return "", Session{}, Invalid("session", "its lifetime and idle time must be positive")
	}
	if limits.PerEditor <= 0 {
		limits.PerEditor = DefaultSessionsPerEditor
	}
	if limits.Total <= 0 {
		limits.Total = DefaultSessions
	}
	b := make([]byte, 32)
	rand.Read(b) // never fails (crypto/rand)
	token := base64.RawURLEncoding.EncodeToString(b)
	sess, err := s.store.StartSession(ctx, sha256.Sum256([]byte(token)), Session{Editor: editor, KeyID: keyID}, limits)
	if err != nil {
		return "", Session{}, err
	}
	return token, sess, nil
}

// Session returns the session of token and marks it used: KindNotFound
// when there is none — never started, signed out, unused for longer than
// idle, or past its end.
func (s *Service) Session(ctx context.Context, token string, idle time.Duration) (Session, error) {
	return s.store.Session(ctx, sha256.Sum256([]byte(token)), idle)
}

// EndSession signs the session of token out, on every instance.
func (s *Service) EndSession(ctx context.Context, token string) error {
	return s.store.EndSession(ctx, sha256.Sum256([]byte(token)))
}

// signinKeyName names the key of the sign-in form's tokens in the
// SecretStore.
const signinKeyName = "signin_form"

// SigninToken is the token the sign-in form carries for the browser that
// holds nonce (a random value of a cookie the form's GET set): an HMAC
// under a key made once and shared by every instance, so a client cannot
// make a token for a nonce of its own choosing without asking for the form.
func (s *Service) SigninToken(ctx context.Context, nonce string) (string, error) {
	k := s.editorial.signinKey.Load()
	if k == nil {
		fresh := make([]byte, 32)
		rand.Read(fresh) // never fails (crypto/rand)
		key, err := s.store.Secret(ctx, signinKeyName, fresh)
		if err != nil {
			return "", err
		}
		s.editorial.signinKey.Store(&key)
		k = &key
	}
	mac := hmac.New(sha256.New, *k)
	mac.Write([]byte("newsdedup signin\x00" + nonce))
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil)), nil
}

// CheckSigninToken reports whether token is the sign-in form's token for
// nonce.
func (s *Service) CheckSigninToken(ctx context.Context, nonce, token string) (bool, error) {
	if nonce == "" || token == "" {
		return false, nil
	}
	want, err := s.SigninToken(ctx, nonce)
	if err != nil {
		return false, err
	}
	return subtle.ConstantTimeCompare([]byte(want), []byte(token)) == 1, nil
}
