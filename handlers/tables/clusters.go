package tables

import (
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/newsdedup/newsdedup/service"
)

// ClustersHeader is the header row of the clusters export.
var ClustersHeader = []string{"cluster_id", "title", "source", "external_id", "published_at", "size", "sources",
	"statuses", "last_ingested_at", "original_id", "kept_id", "kept_source", "kept_rule", "other_coverage"}

// Clusters writes the list of clusters q asks for, with its filters, from
// q's cursor, up to service.MaxExportRows (a cut file says so); sent as
// for Copies.
func Clusters(c echo.Context, format string, svc *service.Service, q service.ClusterQuery, zone *time.Location) (sent bool, err error) {
	ctx := c.Request().Context()
	t, err := New(c, format, "clusters", ClustersHeader)
	if err != nil {
		return false, err
	}
	ts := func(x time.Time) string { return x.In(zone).Format(time.DateTime) }
	truncated, err := svc.EachCluster(ctx, q, func(s service.ClusterSummary) error {
		statuses := make([]string, len(s.Statuses))
		for i, st := range s.Statuses {
			statuses[i] = string(st)
		}
		return t.Row(s.ID, s.Title, s.Source, s.ExternalID, ts(s.PublishedAt), s.Size,
			strings.Join(s.Sources, ","), strings.Join(statuses, ","), ts(s.LastIngested), s.Original.ID,
			s.Kept.ID, s.KeptMember.Source, string(s.Kept.Rule), s.OtherCoverage.Articles)
	})
	if err != nil {
		return false, err
	}
	if truncated {
		t.Cut()
	}
	return true, t.Close()
}
