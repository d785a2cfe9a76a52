package handlers

import (
	"context"
	"errors"
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
// the error code and a message safe to show. Our errors (*service.Error) map
// by their Kind; echo's own (*echo.HTTPError: no route, wrong method) by
// their status; a request deadline that expired outside the service becomes
// 503; anything else is an internal error whose cause is only logged.
func describe(err error) problem {
	var se *service.Error
	if errors.As(err, &se) {
		return describeKind(se)
	}
	var he *echo.HTTPError
	if errors.As(err, &he) {
		return describeEcho(he)
	}
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		return problem{status: http.StatusRequestEntityTooLarge,
			body: errorBody{Code: service.KindTooLarge.String(), Message: "the request body is too large"}}
	case errors.Is(err, context.DeadlineExceeded):
		return problem{status: http.StatusServiceUnavailable, cause: err,
			body: errorBody{Code: service.KindUnavailable.String(), Message: "the request did not finish in time"}}
	case errors.Is(err, context.Canceled):
		return problem{status: http.StatusServiceUnavailable, cause: err,
			body: errorBody{Code: service.KindUnavailable.String(), Message: "the request was canceled"}}
	}
	return internal(err)
}

func internal(err error) problem {
	return problem{status: http.StatusInternalServerError, cause: err,
		body: errorBody{Code: service.KindInternal.String(), Message: internalMessage}}
}

// kindStatus is the HTTP status of each kind of service error.
var kindStatus = map[service.Kind]int{
	service.KindInvalid:          http.StatusUnprocessableEntity,
	service.KindMalformed:        http.StatusBadRequest,
	service.KindNotFound:         http.StatusNotFound,
	service.KindUnauthorized:     http.StatusUnauthorized,
	service.KindTooLarge:         http.StatusRequestEntityTooLarge,
	service.KindUnsupportedMedia: http.StatusUnsupportedMediaType,
	service.KindMethodNotAllowed: http.StatusMethodNotAllowed,
	service.KindUnavailable:      http.StatusServiceUnavailable,
}

func describeKind(se *service.Error) problem {
	switch se.Kind {
	case service.KindConflict:
		// Concurrent writers kept colliding after the service's retries: a
		// transient state of the database, which the API reports as
		// unavailable (there is no conflict code in the contract).
		return problem{status: http.StatusServiceUnavailable, retryAfter: true, cause: se,
			body: errorBody{Code: service.KindUnavailable.String(),
				Message: "concurrent writers of the same articles kept colliding; retry the request"}}
	case service.KindInternal:
		return internal(se)
	}
	status, ok := kindStatus[se.Kind]
	if !ok {
		return internal(se)
	}
	p := problem{status: status, body: errorBody{Code: se.Kind.String(), Message: se.Message, Field: se.Field}}
	if p.body.Message == "" {
		p.body.Message = strings.ReplaceAll(se.Kind.String(), "_", " ")
	}
	if status >= 500 {
		p.cause = se
	}
	return p
}

// describeEcho translates echo's own errors: the router's 404 and 405, and
// any other status a middleware of echo's may return.
func describeEcho(he *echo.HTTPError) problem {
	var kind service.Kind
	msg := ""
	switch he.Code {
	case http.StatusNotFound:
		kind, msg = service.KindNotFound, "no such route"
	case http.StatusMethodNotAllowed:
		kind, msg = service.KindMethodNotAllowed, "this route does not answer this method"
	case http.StatusRequestEntityTooLarge:
		kind, msg = service.KindTooLarge, "the request body is too large"
	case http.StatusUnsupportedMediaType:
		kind, msg = service.KindUnsupportedMedia, "the request body must be application/json"
	case http.StatusBadRequest:
		kind, msg = service.KindMalformed, "the request cannot be read"
	case http.StatusUnauthorized:
		kind, msg = service.KindUnauthorized, "a valid API key is required"
	case http.StatusServiceUnavailable:
		return problem{status: he.Code, cause: he,
			body: errorBody{Code: service.KindUnavailable.String(), Message: "the service is unavailable"}}
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
	return problem{status: kindStatus[kind], body: errorBody{Code: kind.String(), Message: msg}}
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
	case p.retryAfter:
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
