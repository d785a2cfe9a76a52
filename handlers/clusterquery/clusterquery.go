// Package clusterquery reads the query of the list of clusters from URL
// parameters — source, source_prefix, from, to, status, min_size,
// max_size, sort, limit and cursor, each at most once — for GET
// /v1/clusters and the editors' page alike, and writes the cursor of the
// next page.
package clusterquery

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/newsdedup/newsdedup/handlers/queryparam"
	"github.com/newsdedup/newsdedup/service"
)

// DefaultLimit is how many clusters a page holds when the query does not
// say.
const DefaultLimit = 50

// Parse reads the query from the URL's parameters. from and to are RFC
// 3339 times or dates (YYYY-MM-DD, UTC); to is exclusive, and a date in to
// means the end of that day; the sizes and the limit are whole numbers in
// the service's ranges; each is given at most once. A cursor is checked
// with the key key returns, called only when there is one. Errors are
// KindInvalid, naming the parameter, or key's.
func Parse(params url.Values, key func() ([]byte, error)) (service.ClusterQuery, error) {
	return ParseIn(params, key, time.UTC)
}

// ParseIn is Parse with dates cut in the days of loc.
func ParseIn(params url.Values, key func() ([]byte, error), loc *time.Location) (service.ClusterQuery, error) {
	if err := queryparam.Once(params, "source", "source_prefix", "from", "to", "active_from", "status", "sort", "cursor"); err != nil {
		return service.ClusterQuery{}, err
	}
	get := params.Get
	q := service.ClusterQuery{Source: get("source"), SourcePrefix: get("source_prefix"), Status: service.Status(get("status")),
		Sort: service.ClusterSort(get("sort")), Limit: DefaultLimit}
	var err error
	if q.From, err = queryTime(get("from"), "from", false, loc); err != nil {
		return q, err
	}
	if q.To, err = queryTime(get("to"), "to", true, loc); err != nil {
		return q, err
	}
	if q.ActiveFrom, err = queryTime(get("active_from"), "active_from", false, loc); err != nil {
		return q, err
	}
	for _, p := range []struct {
		name   string
		lo, hi int64
		to     *int
	}{
		{"min_size", 0, service.MaxClusterSize, &q.MinSize},
		{"max_size", 0, service.MaxClusterSize, &q.MaxSize},
		{"limit", 1, service.MaxClusterPage, &q.Limit},
	} {
		n, ok, err := queryparam.Int(params, p.name, p.lo, p.hi)
		if err != nil {
			return q, err
		}
		if ok {
			*p.to = int(n)
		}
	}
	if v := get("cursor"); v != "" {
		k, err := key()
		if err != nil {
			return q, err
		}
		cur, err := DecodeCursor(v, k)
		if err != nil {
			return q, err
		}
		q.After = &cur
	}
	return q, nil
}

// Time reads a from or to parameter as the list's are read: an RFC 3339
// time or a date in loc; a date that ends a range (end) means the end of
// that day.
func Time(v, name string, end bool, loc *time.Location) (time.Time, error) {
	return queryTime(v, name, end, loc)
}

// queryTime reads an RFC 3339 time or a date; a date that ends a range
// means the end of that day.
func queryTime(v, name string, end bool, loc *time.Location) (time.Time, error) {
	if v == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		return t, nil
	}
	t, err := time.ParseInLocation(time.DateOnly, v, loc)
	if err != nil {
		return time.Time{}, service.Invalid(name, "must be an RFC 3339 time or a date (2026-06-18), not %q", v)
	}
	if end {
		t = t.AddDate(0, 0, 1)
	}
	return t, nil
}

// A cursor is the place in the list, signed: base64url of "time,id" (in
// the default order; "size:n,id" and "latest:time,id" in the others), a
// dot, and base64url of the first 16 bytes of its HMAC-SHA256 under the
// service's CursorKey, so that a cursor this server did not give — edited,
// or made by hand — is refused rather than moving the list elsewhere.
const (
	cursorPurpose = "newsdedup cluster cursor\x00"
	cursorMACSize = 16
)

// EncodeCursor writes a place in the list as the opaque token a page's
// next cursor is, signed with key.
func EncodeCursor(c service.ClusterCursor, key []byte) string {
	var place string
	switch c.Sort.Or() {
	case service.SortSize:
		place = "size:" + strconv.Itoa(c.Size)
	case service.SortLatest:
		place = "latest:" + c.LastIngested.UTC().Format(time.RFC3339Nano)
	default:
		place = c.PublishedAt.UTC().Format(time.RFC3339Nano)
	}
	place += "," + strconv.FormatInt(c.ID, 10)
	return base64.RawURLEncoding.EncodeToString([]byte(place)) + "." + base64.RawURLEncoding.EncodeToString(cursorMAC(place, key))
}

func cursorMAC(place string, key []byte) []byte {
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(cursorPurpose + place))
	return mac.Sum(nil)[:cursorMACSize]
}

// DecodeCursor reads a token EncodeCursor wrote with key; KindInvalid for
// anything else.
func DecodeCursor(s string, key []byte) (service.ClusterCursor, error) {
	bad := service.Invalid("cursor", "is not a cursor this server gave (the next_cursor of a previous page)")
	enc, sig, ok := strings.Cut(s, ".")
	if !ok {
		return service.ClusterCursor{}, bad
	}
	b, err := base64.RawURLEncoding.Strict().DecodeString(enc)
	if err != nil {
		return service.ClusterCursor{}, bad
	}
	mac, err := base64.RawURLEncoding.Strict().DecodeString(sig)
	if err != nil || !hmac.Equal(mac, cursorMAC(string(b), key)) {
		return service.ClusterCursor{}, bad
	}
	at, id, ok := strings.Cut(string(b), ",")
	if !ok {
		return service.ClusterCursor{}, bad
	}
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil || n <= 0 {
		return service.ClusterCursor{}, bad
	}
	c := service.ClusterCursor{ID: n}
	if size, ok := strings.CutPrefix(at, "size:"); ok {
		c.Sort = service.SortSize
		if c.Size, err = strconv.Atoi(size); err != nil || c.Size < 0 {
			return service.ClusterCursor{}, bad
		}
		return c, nil
	}
	t := &c.PublishedAt
	if latest, ok := strings.CutPrefix(at, "latest:"); ok {
		c.Sort, t, at = service.SortLatest, &c.LastIngested, latest
	}
	if *t, err = time.Parse(time.RFC3339Nano, at); err != nil {
		return service.ClusterCursor{}, bad
	}
	return c, nil
}
