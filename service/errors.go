package service

import (
	"errors"
	"fmt"
)

// Kind says what sort of failure an Error is, in the domain's terms. The
// handlers map each kind to one HTTP status and error code; the kinds of a
// request that HTTP itself refuses (malformed JSON, a wrong media type, no
// API key) are theirs, not the service's.
type Kind uint8

// The kinds of error. KindInternal is the zero value: anything not classified
// is a fault of ours, and its cause is logged, never shown.
const (
	KindInternal    Kind = iota
	KindInvalid          // a field out of range, an empty body, a bad time
	KindNotFound         // no such article
	KindTooLarge         // a batch or a text over its limit
	KindUnavailable      // the database cannot be reached in time, or the deadline passed
	KindConflict         // a transient conflict between concurrent writers; retried
)

var kindNames = [...]string{
	KindInternal:    "internal",
	KindInvalid:     "invalid",
	KindNotFound:    "not found",
	KindTooLarge:    "too large",
	KindUnavailable: "unavailable",
	KindConflict:    "conflict",
}

// String names the kind, for logs.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", k)
}

// Error is the one error type of newsdedup's domain. Message is safe to show
// a client and names the field at fault; Err is the cause, for logs only.
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
	ErrTooLarge    = &Error{Kind: KindTooLarge}
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
