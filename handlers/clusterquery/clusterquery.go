// Package clusterquery reads the query of the list of clusters from URL
// parameters — source, from, to, status, min_size, max_size, limit and
// cursor — for GET /v1/clusters and the editors' page alike, and writes the
// cursor of the next page.
package clusterquery

import (
	"encoding/base64"
	"strconv"
	"strings"
	"time"

	"github.com/newsdedup/newsdedup/service"
)

// DefaultLimit is how many clusters a page holds when the query does not
// say.
const DefaultLimit = 50

// Parse reads the query through get, which returns a parameter's value or
// "". from and to are RFC 3339 times or dates (YYYY-MM-DD, UTC); to is
// exclusive, and a date in to means the end of that day. Errors are
// KindInvalid, naming the parameter.
func Parse(get func(string) string) (service.ClusterQuery, error) {
	q := service.ClusterQuery{Source: get("source"), Status: service.Status(get("status")), Limit: DefaultLimit}
	var err error
	if q.From, err = queryTime(get("from"), "from", false); err != nil {
		return q, err
	}
	if q.To, err = queryTime(get("to"), "to", true); err != nil {
		return q, err
	}
	for _, p := range []struct {
		name string
		to   *int
	}{{"min_size", &q.MinSize}, {"max_size", &q.MaxSize}, {"limit", &q.Limit}} {
		if v := get(p.name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil {
				return q, service.Invalid(p.name, "must be a whole number, not %q", v)
			}
			*p.to = n
		}
	}
	if v := get("cursor"); v != "" {
		cur, err := DecodeCursor(v)
		if err != nil {
			return q, err
		}
		q.After = &cur
	}
	return q, nil
}

// queryTime reads an RFC 3339 time or a date; a date that ends a range
// means the end of that day.
func queryTime(v, name string, end bool) (time.Time, error) {
	if v == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		return t, nil
	}
	t, err := time.Parse(time.DateOnly, v)
	if err != nil {
		return time.Time{}, service.Invalid(name, "must be an RFC 3339 time or a date (2026-06-18), not %q", v)
	}
	if end {
		t = t.AddDate(0, 0, 1)
	}
	return t, nil
}

// EncodeCursor writes a place in the list as the opaque token a page's
// next cursor is.
func EncodeCursor(c service.ClusterCursor) string {
	s := c.PublishedAt.UTC().Format(time.RFC3339Nano) + "," + strconv.FormatInt(c.ID, 10)
	return base64.RawURLEncoding.EncodeToString([]byte(s))
}

// DecodeCursor reads a token EncodeCursor wrote; KindInvalid for anything
// else.
func DecodeCursor(s string) (service.ClusterCursor, error) {
	bad := service.Invalid("cursor", "is not a cursor this server gave (the next_cursor of a previous page)")
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return service.ClusterCursor{}, bad
	}
	at, id, ok := strings.Cut(string(b), ",")
	if !ok {
		return service.ClusterCursor{}, bad
	}
	t, err := time.Parse(time.RFC3339Nano, at)
	if err != nil {
		return service.ClusterCursor{}, bad
	}
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil || n <= 0 {
		return service.ClusterCursor{}, bad
	}
	return service.ClusterCursor{PublishedAt: t, ID: n}, nil
}
