package handlers

import (
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/newsdedup/newsdedup/handlers/clusterquery"
	"github.com/newsdedup/newsdedup/handlers/tables"
	"github.com/newsdedup/newsdedup/service"
)

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
	cq, err := clusterquery.Copies(c.QueryParams(), c.Param("source"), a.svc.DeskSources(), a.zone)
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
