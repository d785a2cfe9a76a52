package handlers

import "github.com/labstack/echo/v4"

// uiProblem is what the editors' page shows of an error: the status and
// message the API would answer with; the cause of a fault of ours is
// logged, as handleError logs it.
func (a *api) uiProblem(c echo.Context, err error) (int, string) {
	p := describe(err)
	if p.cause != nil {
		req := c.Request()
		a.log.ErrorContext(req.Context(), "request failed",
			"request_id", requestID(c),
			"method", req.Method,
			"route", a.metrics.routeLabel(c),
			"status", p.status,
			"error", p.cause.Error(),
		)
	}
	return p.status, p.body.Message
}
