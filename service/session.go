package service

import "time"

// Session is an editor signed in to the editors' page.
type Session struct {
	Editor string
	// KeyID names the API key that signed the session in (an id derived
	// from it, never the key), for the page to end the session when that key
	// is withdrawn.
	KeyID            string
	Started, Expires time.Time
}

// SessionLimits are how long a session lasts: at most Lifetime from its
// start, and no longer than Idle after it was last used; and how many are
// live: a sign-in ends the editor's oldest sessions beyond PerEditor and
// everyone's oldest beyond Total (DefaultSessionsPerEditor and
// DefaultSessions when 0).
type SessionLimits struct {
	Lifetime, Idle   time.Duration
	PerEditor, Total int
}
