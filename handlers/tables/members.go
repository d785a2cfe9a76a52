package tables

import (
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/newsdedup/newsdedup/service"
)

// MembersHeader is the header row of a cluster's members export.
var MembersHeader = []string{"id", "source", "external_id", "title", "url", "published_at", "status",
	"duplicate_of", "original", "kept", "credit", "same_as_original", "headline_changed", "byline_added",
	"byline_removed", "boilerplate_added", "first_percent", "paragraphs_dropped", "paragraphs_added", "other_edits"}

// Members writes a cluster's members as the cluster API gives them, each
// with how it differs from the original (diffs) and its credit; a cluster
// larger than the members the view holds (service.MaxClusterMembers) is a
// cut file, and says so.
func Members(c echo.Context, format string, v service.ClusterView, diffs map[int64]service.Difference, zone *time.Location) error {
	t, err := New(c, format, "cluster-"+strconv.FormatInt(v.ID, 10), MembersHeader)
	if err != nil {
		return err
	}
	for _, m := range v.Members {
		d, known := diffs[m.ID]
		cells := []any{m.ID, m.Source, m.ExternalID, m.Title, m.URL, m.PublishedAt.In(zone).Format(time.DateTime),
			string(m.Status), m.DuplicateOf, m.ID == v.Original.ID, m.ID == v.Kept.ID, string(m.Credit)}
		if known {
			cells = append(cells, d.Same, d.HeadlineChanged, d.BylineAdded, d.BylineRemoved, d.BoilerplateAdded,
				d.FirstPercent, d.ParagraphsDropped, d.ParagraphsAdded, d.OtherEdits)
		}
		for len(cells) < len(MembersHeader) { // the original: no difference from itself
			cells = append(cells, "")
		}
		if err := t.Row(cells...); err != nil {
			return err
		}
	}
	if len(v.Members) < v.Size {
		t.Cut()
	}
	return t.Close()
}
