package tables

import (
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/newsdedup/newsdedup/service"
)

// CopiesHeader is the header row of the copies export.
var CopiesHeader = []string{"copy_id", "copy_source", "copy_title", "copy_url", "copy_published_at",
	"credit", "same_owner", "delay_minutes", "original_id", "original_source", "original_title",
	"original_url", "original_published_at", "cluster_id"}

// Copies writes the copies q asks for as a download, times in zone, up to
// service.MaxExportRows (a cut file says so). sent says whether the
// answer had begun when err came (the client then sees a short file).
func Copies(c echo.Context, format string, svc *service.Service, q service.CopiesQuery, zone *time.Location) (sent bool, err error) {
	name := "copies-" + strings.Join(append(append([]string(nil), q.Sources...), q.Owners...), "_")
	t, err := New(c, format, name, CopiesHeader)
	if err != nil {
		return false, err
	}
	ts := func(x time.Time) string { return x.In(zone).Format(time.DateTime) }
	cut, err := svc.EachCopy(c.Request().Context(), q, func(x service.Copy) error {
		return t.Row(x.CopyID, x.CopySource, x.CopyTitle, x.CopyURL, ts(x.CopyPublishedAt), string(x.Credit),
			x.SameOwner, int64(x.Delay().Minutes()), x.OriginalID, x.OriginalSource, x.OriginalTitle,
			x.OriginalURL, ts(x.OriginalPublishedAt), x.ClusterID)
	})
	if err != nil {
		return false, err
	}
	if cut {
		t.Cut()
	}
	return true, t.Close()
}
