package handlers

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/newsdedup/newsdedup/handlers/clusterquery"
	"github.com/newsdedup/newsdedup/handlers/queryparam"
	"github.com/newsdedup/newsdedup/handlers/tables"
	"github.com/newsdedup/newsdedup/service"
)

// copiesQuery reads GET /v1/sources/{source}/copies's query: the source
// ("desk" for DEDUP_DESK_SOURCES), group=owner for all its owner's
// sources, from, to, credit, limit.
func (a *api) copiesQuery(c echo.Context) (service.CopiesQuery, error) {
	q := c.QueryParams()
	if err := queryparam.Once(q, "from", "to", "credit", "group", "limit", "format"); err != nil {
		return service.CopiesQuery{}, err
	}
	var cq service.CopiesQuery
	src := c.Param("source")
	switch {
	case src == "desk":
		cq.Sources = a.svc.DeskSources()
		if len(cq.Sources) == 0 {
			return cq, service.Invalid("source", "DEDUP_DESK_SOURCES names no source: name one")
		}
	default:
		cq.Sources = strings.Split(src, ",")
	}
	switch q.Get("group") {
	case "":
	case "owner":
		cq.Owners, cq.Sources = cq.Sources, nil
	default:
		return cq, service.Invalid("group", "must be owner, not %q", q.Get("group"))
	}
	var err error
	if cq.From, err = clusterquery.Time(q.Get("from"), "from", false, a.zone); err != nil {
		return cq, err
	}
	if cq.To, err = clusterquery.Time(q.Get("to"), "to", true, a.zone); err != nil {
		return cq, err
	}
	cq.Credit = service.Credit(q.Get("credit"))
	limit, ok, err := queryparam.Int(q, "limit", 1, service.MaxCopiesLimit)
	if err != nil {
		return cq, err
	}
	if ok {
		cq.Limit = int(limit)
	}
	return cq, nil
}

type copiesResponse struct {
	Sources   []string            `json:"sources"`
	Owners    []string            `json:"owners"`
	From      time.Time           `json:"from"`
	To        time.Time           `json:"to"`
	Credit    *string             `json:"credit"`
	BySource  []copyCountResponse `json:"by_source"`
	Copies    []copyResponse      `json:"copies"`
	OwnCopies []copyResponse      `json:"own_copies"`
	Truncated bool                `json:"truncated"`
}

type copyCountResponse struct {
	Source             string  `json:"source"`
	SameOwner          bool    `json:"same_owner"`
	Copies             int     `json:"copies"`
	Credited           int     `json:"credited"`
	CreditsOther       int     `json:"credits_other"`
	Uncredited         int     `json:"uncredited"`
	MedianDelaySeconds float64 `json:"median_delay_seconds"`
}

type copyResponse struct {
	Copy         copySide `json:"copy"`
	Original     copySide `json:"original"`
	Credit       string   `json:"credit"`
	DelaySeconds float64  `json:"delay_seconds"`
	ClusterID    int64    `json:"cluster_id"`
	ClusterURL   string   `json:"cluster_url"`
	SameOwner    bool     `json:"same_owner"`
}

type copySide struct {
	ID          int64     `json:"id"`
	Source      string    `json:"source"`
	Title       string    `json:"title"`
	URL         string    `json:"url"`
	PublishedAt time.Time `json:"published_at"`
}

func copyOut(c service.Copy) copyResponse {
	return copyResponse{
		Copy:         copySide{c.CopyID, c.CopySource, c.CopyTitle, c.CopyURL, c.CopyPublishedAt},
		Original:     copySide{c.OriginalID, c.OriginalSource, c.OriginalTitle, c.OriginalURL, c.OriginalPublishedAt},
		Credit:       string(c.Credit),
		DelaySeconds: c.Delay().Seconds(),
		ClusterID:    c.ClusterID,
		ClusterURL:   "/v1/clusters/" + strconv.FormatInt(c.ClusterID, 10),
		SameOwner:    c.SameOwner,
	}
}

// copies is GET /v1/sources/{source}/copies: who copied a source's (or
// its owner's, or the desk's) stories in a period. As CSV or .xlsx
// (Accept: text/csv, or format=csv|xlsx), every copy up to
// service.MaxExportRows.
func (a *api) copies(c echo.Context) error {
	format, err := tables.FormatOf(c)
	if err != nil {
		return err
	}
	cq, err := a.copiesQuery(c)
	if err != nil {
		return err
	}
	if format != tables.JSON {
		return a.exportCopies(c, format, cq)
	}
	r, err := a.svc.Copies(c.Request().Context(), cq)
	if err != nil {
		return err
	}
	out := copiesResponse{Sources: nonNilStrings(r.Query.Sources), Owners: nonNilStrings(r.Query.Owners),
		From: r.Query.From, To: r.Query.To, BySource: []copyCountResponse{}, Copies: []copyResponse{},
		OwnCopies: []copyResponse{}, Truncated: r.Truncated}
	if r.Query.Credit != "" {
		s := string(r.Query.Credit)
		out.Credit = &s
	}
	for _, n := range r.BySource {
		out.BySource = append(out.BySource, copyCountResponse{n.Source, n.SameOwner, n.Copies, n.Credited,
			n.CreditsOther, n.Uncredited, n.MedianDelay.Seconds()})
	}
	for _, x := range r.Copies {
		out.Copies = append(out.Copies, copyOut(x))
	}
	for _, x := range r.OwnCopies {
		out.OwnCopies = append(out.OwnCopies, copyOut(x))
	}
	return c.JSON(http.StatusOK, out)
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// exportCopies streams the copies as a download.
func (a *api) exportCopies(c echo.Context, format string, cq service.CopiesQuery) error {
	sent, err := tables.Copies(c, format, a.svc, cq, a.zone)
	if err != nil && sent {
		a.log.Warn("copies export cut off", "err", err, "request_id", c.Response().Header().Get(echo.HeaderXRequestID))
		return nil // the status is sent: the client sees a short file
	}
	return err
}
