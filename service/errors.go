package service

import (
	"errors"
	"fmt"
)

// Kind says what sort of failure an Error is; the handlers map each kind to
// one HTTP status and error code.
type Kind uint8

// The kinds of error. KindInternal is the zero value: anything not classified
// is a fault of ours, and its cause is logged, never shown.
const (
	KindInternal         Kind = iota
	KindInvalid               // a field out of range, an empty body, a bad time
	KindMalformed             // a request that cannot be read: bad JSON, wrong types
	KindNotFound              // no such article
	KindUnauthorized          // no or a wrong API key
	KindTooLarge              // a body or batch over its limit
	KindUnsupportedMedia      // not application/json
	KindMethodNotAllowed      // a route that exists, with another method
	KindUnavailable           // the database cannot be reached in time
	KindConflict              // a transient conflict between concurrent writers; retried
)

var kindNames = [...]string{
	KindInternal:         "internal",
	KindInvalid:          "invalid_argument",
	KindMalformed:        "invalid_json",
	KindNotFound:         "not_found",
	KindUnauthorized:     "unauthorized",
	KindTooLarge:         "too_large",
	KindUnsupportedMedia: "unsupported_media_type",
	KindMethodNotAllowed: "method_not_allowed",
	KindUnavailable:      "unavailable",
	KindConflict:         "conflict",
}

// String is the kind's snake_case error code.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", k)
}

// Error is the one error type of newsdedup. Message is safe to show a client
// and names the field at fault; Err is the cause, for logs only.
type Error struct {
	Kind    Kind
	Field   string // the request field at fault, if one is
	Message string
	Err     error
}

func (e *Error) Error() string {
	msg := e.Message
	if msg == "" {
		msg = e.Kind.String()
	}
	if e.Err != nil {
		return msg + ": " + e.Err.Error()
	}
	return msg
}

func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is an *Error of the same kind, so that
// errors.Is(err, ErrNotFound) matches every not-found error.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Kind == e.Kind && t.Field == "" && t.Message == "" && t.Err == nil
}

// Sentinels for errors.Is. Each matches every Error of its kind.
var (
	ErrInvalid     = &Error{Kind: KindInvalid}
	ErrNotFound    = &Error{Kind: KindNotFound}
	ErrUnavailable = &Error{Kind: KindUnavailable}
	ErrConflict    = &Error{Kind: KindConflict}
)

// Invalid returns a KindInvalid error about field.
func Invalid(field, format string, args ...any) *Error {
	return &Error{Kind: KindInvalid, Field: field, Message: field + ": " + fmt.Sprintf(format, args...)}
}

// KindOf returns the kind of err: the kind of the first *Error in its chain,
// or KindInternal.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return KindInternal
}
