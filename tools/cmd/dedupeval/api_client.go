package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// The client side of the contract (handlers/openapi.json), as much of it as
// the evaluation reads — including what the contract is about to gain: the
// status partial_duplicate, coverage on links, and the shared sentences of
// an article. Fields a server does not send stay zero; a status the client
// does not know is a link all the same.

// The statuses of a verdict.
const (
	statusUnique  = "unique"
	statusNear    = "near_duplicate"
	statusExact   = "exact_duplicate"
	statusPartial = "partial_duplicate" // coming: sentence-level partial copies
)

// articleJSON is an article as POST /v1/articles/batch and /v1/check take
// it.
type articleJSON struct {
	ExternalID  string `json:"external_id,omitempty"`
	Source      string `json:"source,omitempty"`
	Title       string `json:"title,omitempty"`
	Body        string `json:"body"`
	PublishedAt string `json:"published_at,omitempty"`
}

// coverageJSON is how much of each article's indexed sentence characters
// the other holds.
type coverageJSON struct {
	This float64 `json:"this"`
	That float64 `json:"that"`
}

// linkJSON is duplicate_of, or an item of matches.
type linkJSON struct {
	ID         int64         `json:"id"`
	ExternalID string        `json:"external_id"`
	Distance   int           `json:"distance"`
	WordRatio  float64       `json:"word_ratio"`
	Overlap    float64       `json:"overlap"`
	Coverage   *coverageJSON `json:"coverage,omitempty"`
}

// verdictJSON is a verdict of a batch (with id) or of a check (without).
type verdictJSON struct {
	ID          int64      `json:"id"`
	ExternalID  string     `json:"external_id"`
	Status      string     `json:"status"`
	DuplicateOf *linkJSON  `json:"duplicate_of"`
	ClusterID   int64      `json:"cluster_id"`
	Matches     []linkJSON `json:"matches"`
	Simhash     string     `json:"simhash"`
}

// linked tells whether the verdict links the article to another: any
// status but unique, known or not.
func (v verdictJSON) linked() bool { return v.Status != statusUnique && v.DuplicateOf != nil }

// errorJSON is the body of every error response.
type errorJSON struct {
	Error *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
		Field   string `json:"field"`
	} `json:"error"`
}

// batchItemJSON is one result of a batch: a verdict or an error.
type batchItemJSON struct {
	verdictJSON
	errorJSON
}

// sharedSentencesJSON is GET /v1/articles/{id}/shared-sentences.
type sharedSentencesJSON struct {
	ID        int64               `json:"id"`
	Sentences int                 `json:"sentences"`
	Articles  []sharedArticleJSON `json:"articles"`
}

// sharedArticleJSON is an article that shares sentences with the one asked
// about.
type sharedArticleJSON struct {
	ID       int64        `json:"id"`
	Title    string       `json:"title"`
	Status   string       `json:"status"`
	Shared   int          `json:"shared"`
	Coverage coverageJSON `json:"coverage"`
	// Sentences are the shared sentences: their positions and texts in
	// each article and the distance of their fingerprints.
	Sentences []sentenceLinkJSON `json:"sentences"`
}

type sentenceLinkJSON struct {
	Position      int    `json:"position"`
	Text          string `json:"text"`
	OtherPosition int    `json:"other_position"`
	OtherText     string `json:"other_text"`
	Distance      int    `json:"distance"`
}

// client speaks to the API.
type client struct {
	base string
	http *http.Client
}

func newClient(base string) *client {
	return &client{base: strings.TrimSuffix(base, "/"), http: &http.Client{
		Timeout:   serverRequestTimeout + 30*time.Second,
		Transport: &http.Transport{MaxIdleConnsPerHost: 8, IdleConnTimeout: time.Minute},
	}}
}

// errRouteAbsent is returned when the server does not know a route yet.
var errRouteAbsent = errors.New("the server has no such route")

// ingestBatch stores articles through POST /v1/articles/batch and returns
// one result per article, in order.
func (c *client) ingestBatch(ctx context.Context, articles []articleJSON) ([]batchItemJSON, error) {
	var out struct {
		Results []batchItemJSON `json:"results"`
	}
	if err := c.do(ctx, http.MethodPost, "/v1/articles/batch", map[string]any{"articles": articles}, &out); err != nil {
		return nil, err
	}
	if len(out.Results) != len(articles) {
		return nil, fmt.Errorf("POST /v1/articles/batch: %d results for %d articles", len(out.Results), len(articles))
	}
	return out.Results, nil
}

// check returns the verdict of POST /v1/check, which stores nothing.
func (c *client) check(ctx context.Context, a articleJSON) (verdictJSON, error) {
	var v verdictJSON
	err := c.do(ctx, http.MethodPost, "/v1/check", a, &v)
	return v, err
}

// sharedSentences returns GET /v1/articles/{id}/shared-sentences of a
// stored article, or errRouteAbsent when the server answers 404 or 405 (for
// an article that exists: the route is what is missing).
func (c *client) sharedSentences(ctx context.Context, id int64, limit int) (sharedSentencesJSON, error) {
	var out sharedSentencesJSON
	q := url.Values{"limit": {fmt.Sprint(limit)}}
	err := c.do(ctx, http.MethodGet, fmt.Sprintf("/v1/articles/%d/shared-sentences?%s", id, q.Encode()), nil, &out)
	var se *statusError
	if errors.As(err, &se) && (se.Status == http.StatusNotFound || se.Status == http.StatusMethodNotAllowed) {
		return out, fmt.Errorf("%w: %v", errRouteAbsent, err)
	}
	return out, err
}

// contract returns the OpenAPI document the server serves.
func (c *client) contract(ctx context.Context) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/openapi.json", nil)
	if err != nil {
		return "", err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return "", fmt.Errorf("GET /openapi.json: %w", err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("GET /openapi.json: %d %v", resp.StatusCode, err)
	}
	return string(data), nil
}

// statusError is an error response of the API.
type statusError struct {
	Route   string // "POST /v1/check"
	Status  int
	Message string // "code: message", or the body when it is not the error shape
}

func (e *statusError) Error() string { return fmt.Sprintf("%s: %d %s", e.Route, e.Status, e.Message) }

// do sends in (as JSON, unless nil) and decodes a 2xx response into out;
// any other status is a *statusError.
func (c *client) do(ctx context.Context, method, path string, in, out any) error {
	route := method + " " + routeOf(path)
	var body io.Reader
	if in != nil {
		data, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(data)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, body)
	if err != nil {
		return err
	}
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("%s: %w", route, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("%s: read the response: %w", route, err)
	}
	if resp.StatusCode/100 != 2 {
		e := &statusError{Route: route, Status: resp.StatusCode, Message: strings.TrimSpace(string(data))}
		var body errorJSON
		if json.Unmarshal(data, &body) == nil && body.Error != nil {
			e.Message = body.Error.Code + ": " + body.Error.Message
		}
		return e
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("%s: decode the response: %w", route, err)
	}
	return nil
}

// routeOf is path without its query, for messages.
func routeOf(path string) string {
	p, _, _ := strings.Cut(path, "?")
	return p
}
