package handlers

import (
	"encoding/json"
	"errors"

	"github.com/labstack/echo/v4"
)

// jsonSerializer writes responses with encoding/json, leaving <, > and &
// as they are: the API's JSON is not embedded in HTML, and titles read
// better unescaped. Requests are never bound through it (see decodeBody).
type jsonSerializer struct{}

func (jsonSerializer) Serialize(c echo.Context, v any, indent string) error {
	enc := json.NewEncoder(c.Response())
	enc.SetEscapeHTML(false)
	if indent != "" {
		enc.SetIndent("", indent)
	}
	return enc.Encode(v)
}

func (jsonSerializer) Deserialize(echo.Context, any) error {
	return errors.New("handlers: request bodies are read by decodeBody, not echo's binder")
}
