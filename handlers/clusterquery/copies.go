package clusterquery

import (
	"net/url"
	"strings"
	"time"

	"github.com/newsdedup/newsdedup/handlers/queryparam"
	"github.com/newsdedup/newsdedup/service"
)

// Copies reads the query of who copied source's stories, as the API and
// the editors' page share it: source ("desk" or empty for desk, several
// comma-separated), group=owner, from, to (dates in loc, or RFC 3339),
// credit, limit.
func Copies(params url.Values, source string, desk []string, loc *time.Location) (service.CopiesQuery, error) {
	if err := queryparam.Once(params, "source", "from", "to", "credit", "group", "limit", "format"); err != nil {
		return service.CopiesQuery{}, err
	}
	var q service.CopiesQuery
	if source == "" || source == "desk" {
		if len(desk) == 0 {
			return q, service.Invalid("source", "DEDUP_DESK_SOURCES names no source: name one")
		}
		q.Sources = append([]string(nil), desk...)
	} else {
		for _, s := range strings.Split(source, ",") {
			if s = strings.TrimSpace(s); s != "" {
				q.Sources = append(q.Sources, s)
			}
		}
	}
	switch params.Get("group") {
	case "":
	case "owner":
		q.Owners, q.Sources = q.Sources, nil
	default:
		return q, service.Invalid("group", "must be owner, not %q", params.Get("group"))
	}
	var err error
	if q.From, err = queryTime(params.Get("from"), "from", false, loc); err != nil {
		return q, err
	}
	if q.To, err = queryTime(params.Get("to"), "to", true, loc); err != nil {
		return q, err
	}
	q.Credit = service.Credit(params.Get("credit"))
	limit, ok, err := queryparam.Int(params, "limit", 1, service.MaxCopiesLimit)
	if err != nil {
		return q, err
	}
	if ok {
		q.Limit = int(limit)
	}
	return q, nil
}
