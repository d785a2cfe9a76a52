package handlers

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/newsdedup/newsdedup/service"
)

// noSniff tells browsers to take every response for the type it says it is:
// responses carry titles and bodies verbatim, HTML included, and a browser
// that sniffed a JSON body as HTML would run what it holds.
func noSniff(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		c.Response().Header().Set(echo.HeaderXContentTypeOptions, "nosniff")
		return next(c)
	}
}

// maxRequestIDLength bounds a request id a client sends; a longer one, or
// one with other characters than [A-Za-z0-9._:-], is replaced by a fresh one.
const maxRequestIDLength = 128

// sanitizeRequestID drops a client's X-Request-Id that is not a short token,
// so that the RequestID middleware makes a fresh one: the id is echoed back
// and logged.
func sanitizeRequestID(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Request().Header
		if id := h.Get(echo.HeaderXRequestID); id != "" && !validRequestID(id) {
			h.Del(echo.HeaderXRequestID)
		}
		return next(c)
	}
}

func validRequestID(id string) bool {
	if len(id) > maxRequestIDLength {
		return false
	}
	for i := 0; i < len(id); i++ {
		switch b := id[i]; {
		case 'a' <= b && b <= 'z', 'A' <= b && b <= 'Z', '0' <= b && b <= '9', b == '.', b == '_', b == ':', b == '-':
		default:
			return false
		}
	}
	return true
}

// observe writes an error returned by the rest of the chain through the
// error handler, then logs the request and records its metrics, labelled by
// the route pattern. It logs no body, no header and no query string.
func (a *api) observe(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		if err := next(c); err != nil {
			c.Error(err)
		}
		elapsed := time.Since(start)

		req, res := c.Request(), c.Response()
		route := a.metrics.routeLabel(c)
		method := methodLabel(req.Method)
		a.metrics.requests.WithLabelValues(method, route, strconv.Itoa(res.Status)).Inc()
		a.metrics.duration.WithLabelValues(method, route).Observe(elapsed.Seconds())
		a.log.LogAttrs(context.WithoutCancel(req.Context()), slog.LevelInfo, "request",
			slog.String("method", method),
			slog.String("route", route),
			slog.Int("status", res.Status),
			slog.Duration("duration", elapsed),
			slog.Int64("bytes_out", res.Size),
			slog.String("request_id", requestID(c)),
			slog.String("remote_ip", c.RealIP()),
		)
		return nil
	}
}

// recover turns a panic into an internal error (500, logged with its stack).
func (a *api) recover(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) (err error) {
		defer func() {
			r := recover()
			if r == nil {
				return
			}
			if r == http.ErrAbortHandler { // net/http's way to abort a response: let it through
				panic(r)
			}
			a.log.ErrorContext(context.WithoutCancel(c.Request().Context()), "panic while serving a request",
				"request_id", requestID(c),
				"route", a.metrics.routeLabel(c),
				"panic", fmt.Sprint(r),
				"stack", string(debug.Stack()),
			)
			err = &service.Error{Kind: service.KindInternal, Err: fmt.Errorf("panic: %v", r)}
		}()
		return next(c)
	}
}

// deadline puts the request timeout on the request's context.
func (a *api) deadline(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		ctx, cancel := context.WithTimeout(c.Request().Context(), a.requestTimeout)
		defer cancel()
		c.SetRequest(c.Request().WithContext(ctx))
		return next(c)
	}
}

// authenticate requires Authorization: Bearer <key> on every /v1 route when
// API keys are configured. The key is compared with every configured key in
// constant time (over SHA-256 digests, so that not even its length shows).
func (a *api) authenticate(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if len(a.keys) == 0 || (isOpen(c.Request().URL.Path) && isOpen(c.Path())) {
			return next(c)
		}
		token, ok := bearerToken(c.Request().Header.Get(echo.HeaderAuthorization))
		if !ok {
			return unauthorized("an API key is required: send Authorization: Bearer <key>")
		}
		if !a.validKey(token) {
			return unauthorized("the API key is not valid")
		}
		return next(c)
	}
}

func (a *api) validKey(token string) bool {
	got := sha256.Sum256([]byte(token))
	match := 0
	for _, want := range a.keys {
		match |= subtle.ConstantTimeCompare(got[:], want[:])
	}
	return match == 1
}

// bearerToken returns the token of an Authorization header of the Bearer
// scheme (the scheme's name is case-insensitive).
func bearerToken(header string) (string, bool) {
	scheme, token, ok := strings.Cut(header, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token = strings.TrimSpace(token)
	return token, token != ""
}
