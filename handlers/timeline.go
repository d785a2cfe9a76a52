package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// timelineResponse is GET /v1/clusters/{id}/timeline.
type timelineResponse struct {
	ClusterID int64               `json:"cluster_id"`
	Hours     []timelineCountJSON `json:"hours"`
	Truncated bool                `json:"truncated"`
}

type timelineCountJSON struct {
	Hour     string `json:"hour"`
	Source   string `json:"source"`
	Articles int    `json:"articles"`
}

// timeline is GET /v1/clusters/{id}/timeline: how many of the cluster's
// members each source published in each hour, earliest first — what the
// editors' page draws as the cluster's timeline.
func (a *api) timeline(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	tl, err := a.svc.Timeline(c.Request().Context(), id)
	if err != nil {
		return err
	}
	r := timelineResponse{ClusterID: id, Hours: make([]timelineCountJSON, 0, len(tl.Counts)), Truncated: tl.Truncated}
	for _, n := range tl.Counts {
		r.Hours = append(r.Hours, timelineCountJSON{Hour: timestamp(n.Hour), Source: n.Source, Articles: n.Members})
	}
	return c.JSON(http.StatusOK, r)
}
