package handlers

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/newsdedup/newsdedup/service"
)

// errorResponse is the body of every error response:
// {"error":{"code":"snake_case","message":"…","field":"…"}}.
type errorResponse struct {
	Error errorBody `json:"error"`
}

type errorBody struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Field   string `json:"field,omitempty"`
}

// The error codes of the API, each with one status (the contract's table).
const (
	codeInvalidJSON      = "invalid_json"           // 400
	codeUnauthorized     = "unauthorized"           // 401
	codeNotFound         = "not_found"              // 404
	codeMethodNotAllowed = "method_not_allowed"     // 405
	codeTooLarge         = "too_large"              // 413
	codeUnsupportedMedia = "unsupported_media_type" // 415
	codeInvalidArgument  = "invalid_argument"       // 422
	codeInternal         = "internal"               // 500
	codeUnavailable      = "unavailable"            // 503
)

// requestError is a request that HTTP refuses before the service sees it:
// a body that is not JSON of the right shape, too large, of a media type
// or coding the API does not read, or without a valid API key. The domain
// has no such errors; they are the handlers' own.
type requestError struct {
	status  int
	code    string
	field   string
	message string
	err     error // the cause, for logs
}

func (e *requestError) Error() string {
	if e.err != nil {
		return e.message + ": " + e.err.Error()
	}
	return e.message
}

func (e *requestError) Unwrap() error { return e.err }

// malformed is a body that is not JSON of the request's shape: 400.
func malformed(field, format string, args ...any) *requestError {
	msg := fmt.Sprintf(format, args...)
	if field != "" {
		msg = field + ": " + msg
	}
	return &requestError{status: http.StatusBadRequest, code: codeInvalidJSON, field: field, message: msg}
}

// unsupportedMedia is a body of a media type or coding the API does not
// read: 415.
func unsupportedMedia(format string, args ...any) *requestError {
	return &requestError{status: http.StatusUnsupportedMediaType, code: codeUnsupportedMedia, message: fmt.Sprintf(format, args...)}
}

// unauthorized is a /v1 request without a valid API key: 401.
func unauthorized(message string) *requestError {
	return &requestError{status: http.StatusUnauthorized, code: codeUnauthorized, message: message}
}

// tooLarge is a body over its limit: 413.
func tooLarge(limit int64) *requestError {
	return &requestError{status: http.StatusRequestEntityTooLarge, code: codeTooLarge,
		message: fmt.Sprintf("the request body is larger than %d bytes", limit)}
}

// invalidBody is a body whose bytes cannot be text: 422, as the contract
// has it for invalid UTF-8.
func invalidBody(message string) *requestError {
	return &requestError{status: http.StatusUnprocessableEntity, code: codeInvalidArgument, message: message}
}

// problem is an error as a client sees it, and the cause to log when the
// fault is ours.
type problem struct {
	status     int
	body       errorBody
	retryAfter bool  // a transient failure the client may retry at once
	cause      error // set for 5xx responses: logged, never sent
}

// internalMessage is all a client learns of a fault of ours.
const internalMessage = "internal error"

// describe is the one map from errors to what the client sees: the status,
// the error code and a message safe to show. The service's errors
// (*service.Error) map by their Kind, the handlers' own (*requestError)
// carry theirs, echo's (*echo.HTTPError: no route, wrong method) map by
// their status; a request deadline that expired outside the service becomes
// 503; anything else is an internal error whose cause is only logged.
func describe(err error) problem {
	var re *requestError
	if errors.As(err, &re) {
		return problem{status: re.status, body: errorBody{Code: re.code, Message: re.message, Field: re.field}}
	}
	var se *service.Error
	if errors.As(err, &se) {
		return describeKind(se)
	}
	var he *echo.HTTPError
	if errors.As(err, &he) {
		return describeEcho(he)
	}
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		return problem{status: http.StatusRequestEntityTooLarge,
			body: errorBody{Code: codeTooLarge, Message: "the request body is too large"}}
	case errors.Is(err, context.DeadlineExceeded):
		return problem{status: http.StatusServiceUnavailable, cause: err,
			body: errorBody{Code: codeUnavailable, Message: "the request did not finish in time"}}
	case errors.Is(err, context.Canceled):
		return problem{status: http.StatusServiceUnavailable, cause: err,
			body: errorBody{Code: codeUnavailable, Message: "the request was canceled"}}
	}
	return internal(err)
}

func internal(err error) problem {
	return problem{status: http.StatusInternalServerError, cause: err,
		body: errorBody{Code: codeInternal, Message: internalMessage}}
}

// kindResponse is the status and code of each kind of service error.
var kindResponse = map[service.Kind]struct {
	status int
	code   string
}{
	service.KindInvalid:     {http.StatusUnprocessableEntity, codeInvalidArgument},
	service.KindNotFound:    {http.StatusNotFound, codeNotFound},
	service.KindTooLarge:    {http.StatusRequestEntityTooLarge, codeTooLarge},
	service.KindUnavailable: {http.StatusServiceUnavailable, codeUnavailable},
}

func describeKind(se *service.Error) problem {
	switch se.Kind {
	case service.KindConflict:
		// Concurrent writers kept colliding after the service's retries: a
		// transient state of the database, which the API reports as
		// unavailable (there is no conflict code in the contract).
		return problem{status: http.StatusServiceUnavailable, retryAfter: true, cause: se,
			body: errorBody{Code: codeUnavailable,
				Message: "concurrent writers of the same articles kept colliding; retry the request"}}
	case service.KindInternal:
		return internal(se)
	}
	r, ok := kindResponse[se.Kind]
	if !ok {
		return internal(se)
	}
	p := problem{status: r.status, body: errorBody{Code: r.code, Message: se.Message, Field: se.Field}}
	if p.body.Message == "" {
		p.body.Message = se.Kind.String()
	}
	if r.status >= 500 {
		p.cause = se
	}
	return p
}

// describeEcho translates echo's own errors: the router's 404 and 405, and
// any other status a middleware of echo's may return.
func describeEcho(he *echo.HTTPError) problem {
	var code, msg string
	switch he.Code {
	case http.StatusNotFound:
		code, msg = codeNotFound, "no such route"
	case http.StatusMethodNotAllowed:
		code, msg = codeMethodNotAllowed, "this route does not answer this method"
	case http.StatusRequestEntityTooLarge:
		code, msg = codeTooLarge, "the request body is too large"
	case http.StatusUnsupportedMediaType:
		code, msg = codeUnsupportedMedia, "the request body must be application/json"
	case http.StatusBadRequest:
		code, msg = codeInvalidJSON, "the request cannot be read"
	case http.StatusUnauthorized:
		code, msg = codeUnauthorized, "a valid API key is required"
	case http.StatusServiceUnavailable:
		return problem{status: he.Code, cause: he,
			body: errorBody{Code: codeUnavailable, Message: "the service is unavailable"}}
	default:
		if he.Code >= 400 && he.Code < 500 {
			text := http.StatusText(he.Code)
			return problem{status: he.Code, body: errorBody{
				Code:    strings.ReplaceAll(strings.ToLower(text), " ", "_"),
				Message: strings.ToLower(text),
			}}
		}
		return internal(he)
	}
	return problem{status: he.Code, body: errorBody{Code: code, Message: msg}}
}

// handleError is echo's HTTPErrorHandler: the one place where errors become
// responses. 5xx causes are logged with the request id; bodies and keys
// never are.
func (a *api) handleError(err error, c echo.Context) {
	p := describe(err)
	req := c.Request()
	if p.cause != nil {
		a.log.ErrorContext(req.Context(), "request failed",
			"request_id", requestID(c),
			"method", req.Method,
			"route", a.metrics.routeLabel(c),
			"status", p.status,
			"error", p.cause.Error(),
		)
	}
	res := c.Response()
	if res.Committed {
		return
	}
	switch {
	case p.status == http.StatusUnauthorized:
		res.Header().Set(echo.HeaderWWWAuthenticate, "Bearer")
	case p.retryAfter, p.status == http.StatusServiceUnavailable:
		// Every 503 is transient: the database is away (an outage, a
		// failover: docs/operations.md), or writers collided.
		res.Header().Set(echo.HeaderRetryAfter, "1")
	}
	// For HEAD too: net/http sends the headers and drops the body.
	if err := c.JSON(p.status, errorResponse{Error: p.body}); err != nil {
		a.log.WarnContext(req.Context(), "write error response", "request_id", requestID(c), "error", err.Error())
	}
}

// requestID is the id the RequestID middleware gave the request.
func requestID(c echo.Context) string {
	return c.Response().Header().Get(echo.HeaderXRequestID)
}
