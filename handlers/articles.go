package handlers

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/newsdedup/newsdedup/handlers/queryparam"
	"github.com/newsdedup/newsdedup/service"
)

// ingest is POST /v1/articles: 201 when this request stored the article or
// new content under its key, 200 when the same content was already stored.
func (a *api) ingest(c echo.Context) error {
	var req articleRequest
	if err := decodeBody(c, a.maxBody, &req); err != nil {
		return err
	}
	in, opts, err := req.toIngest(a.svc.Defaults())
	if err != nil {
		return err
	}
	v, err := a.svc.Ingest(c.Request().Context(), in, opts)
	if err != nil {
		return err
	}
	a.metrics.verdict(endpointIngest, v)
	status := http.StatusOK
	if v.Created {
		status = http.StatusCreated
		c.Response().Header().Set(echo.HeaderLocation, "/v1/articles/"+strconv.FormatInt(v.ID, 10))
	}
	return c.JSON(status, verdict(v, true, false))
}

// ingestBatch is POST /v1/articles/batch: 200 with one result per article,
// in order. An article of the wrong shape or out of range gets its own error
// and the others are stored; the request fails as a whole only when the
// batch is empty, too large, or the database is unavailable.
func (a *api) ingestBatch(c echo.Context) error {
	body, err := readBody(c, a.maxBatch)
	if err != nil {
		return err
	}
	arts, err := decodeBatch(body, a.maxBody)
	if err != nil {
		return err
	}
	if err := service.CheckBatchSize(len(arts)); err != nil {
		return err
	}

	results := make([]any, len(arts))
	items := make([]service.BatchItem, 0, len(arts))
	positions := make([]int, 0, len(arts)) // of items in arts
	defaults := a.svc.Defaults()
	for i := range arts {
		ar := &arts[i]
		if ar.err != nil {
			results[i] = a.itemError(c, ar.err)
			continue
		}
		in, opts, err := ar.req.toIngest(defaults)
		if err != nil {
			results[i] = a.itemError(c, err)
			continue
		}
		items = append(items, service.BatchItem{Article: in, Options: opts})
		positions = append(positions, i)
	}
	if len(items) > 0 {
		out, err := a.svc.IngestBatch(c.Request().Context(), items)
		if err != nil {
			return err
		}
		for j, r := range out {
			if r.Err != nil {
				results[positions[j]] = a.itemError(c, r.Err)
				continue
			}
			a.metrics.verdict(endpointBatch, r.Verdict)
			results[positions[j]] = verdict(r.Verdict, true, true)
		}
	}
	return c.JSON(http.StatusOK, batchResponse{Results: results})
}

// itemError is the result of a batch article that failed: the same error
// body the request would get on its own (describe), the cause of a fault of
// ours logged.
func (a *api) itemError(c echo.Context, err error) errorResponse {
	p := describe(err)
	if p.cause != nil {
		a.log.ErrorContext(c.Request().Context(), "batch article failed",
			"request_id", requestID(c), "status", p.status, "error", p.cause.Error())
	}
	return errorResponse{Error: p.body}
}

// check is POST /v1/check: the verdict an article would get, storing
// nothing; it has no id.
func (a *api) check(c echo.Context) error {
	var req articleRequest
	if err := decodeBody(c, a.maxBody, &req); err != nil {
		return err
	}
	in, opts, err := req.toService(a.svc.Defaults())
	if err != nil {
		return err
	}
	v, err := a.svc.Check(c.Request().Context(), in, opts)
	if err != nil {
		return err
	}
	a.metrics.verdict(endpointCheck, v)
	return c.JSON(http.StatusOK, verdict(v, false, false))
}

// findArticle is GET /v1/articles/{id}.
func (a *api) findArticle(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	art, err := a.svc.FindArticle(c.Request().Context(), id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, article(art))
}

// findByKey is GET /v1/articles?source=&external_id=.
func (a *api) findByKey(c echo.Context) error {
	q := c.QueryParams()
	if err := queryparam.Once(q, "source", "external_id"); err != nil {
		return err
	}
	art, err := a.svc.FindArticleByKey(c.Request().Context(), q.Get("source"), q.Get("external_id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, article(art))
}

// duplicates is GET /v1/articles/{id}/duplicates: the other members of the
// article's cluster.
func (a *api) duplicates(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	self, others, err := a.svc.Duplicates(c.Request().Context(), id)
	if err != nil {
		return err
	}
	r := duplicatesResponse{ID: id, ClusterID: self.ClusterID, Duplicates: make([]articleResponse, 0, len(others))}
	for _, o := range others {
		r.Duplicates = append(r.Duplicates, article(o))
	}
	return c.JSON(http.StatusOK, r)
}

// sharedSentences is GET /v1/articles/{id}/shared-sentences: for each
// sentence of the article that other stored articles also hold, those
// articles and their sentences, by article; all stored news unless
// window_hours says otherwise, at most limit articles.
func (a *api) sharedSentences(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	opts := service.DefaultSharedOptions
	q := c.QueryParams()
	if err := queryparam.Once(q, "window_hours", "limit"); err != nil {
		return err
	}
	if v := q.Get("window_hours"); v != "" {
		hours, perr := strconv.ParseFloat(v, 64)
		if perr != nil {
			return service.Invalid("window_hours", "must be a number of hours, not %q", v)
		}
		if opts.Window, err = service.WindowHoursOption(hours); err != nil {
			return err
		}
	}
	if v := q.Get("limit"); v != "" {
		if opts.Limit, err = strconv.Atoi(v); err != nil {
			return service.Invalid("limit", "must be a whole number, not %q", v)
		}
	}
	shared, err := a.svc.SharedSentences(c.Request().Context(), id, opts)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, sharedSentences(shared))
}

// deleteArticle is DELETE /v1/articles/{id}: 204, and the article is never
// matched again.
func (a *api) deleteArticle(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	if err := a.svc.DeleteArticle(c.Request().Context(), id); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// fingerprint is POST /v1/fingerprint.
func (a *api) fingerprint(c echo.Context) error {
	var req textRequest
	if err := decodeBody(c, a.maxBody, &req); err != nil {
		return err
	}
	f, err := a.svc.Fingerprint(c.Request().Context(), req.text())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, fingerprintOf(f))
}

// compare is POST /v1/compare.
func (a *api) compare(c echo.Context) error {
	var req compareRequest
	if err := decodeBody(c, a.maxBody, &req); err != nil {
		return err
	}
	switch {
	case req.A == nil:
		return service.Invalid("a", "is required: the first text, {\"title\",\"body\",\"content_type\"}")
	case req.B == nil:
		return service.Invalid("b", "is required: the second text, {\"title\",\"body\",\"content_type\"}")
	}
	cmp, err := a.svc.Compare(c.Request().Context(), req.A.text(), req.B.text())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, comparison(cmp))
}

// pathID is the {id} of the path: a positive int64 in decimal digits.
// Anything else names no article: KindNotFound.
func pathID(c echo.Context) (int64, error) {
	s := c.Param("id")
	notFound := &service.Error{Kind: service.KindNotFound, Message: "no such article"}
	if s == "" || len(s) > 19 {
		return 0, notFound
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, notFound
		}
	}
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil || id <= 0 {
		return 0, notFound
	}
	return id, nil
}
