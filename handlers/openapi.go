package handlers

import (
	_ "embed"
	"net/http"

	"github.com/labstack/echo/v4"
)

// openAPI is the OpenAPI 3.0 document of the API, served at GET
// /openapi.json. A test checks that it names every route echo serves.
//
//go:embed openapi.json
var openAPI []byte

func serveOpenAPI(c echo.Context) error {
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, openAPI)
}
