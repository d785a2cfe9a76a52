// Package queryparam reads the parameters of a URL's query (or of a form)
// as the API and the editors' page take them: each given at most once (a
// repeated parameter is refused, rather than one of its values silently
// chosen), integers within their range, checked before anything reaches
// the database, every error naming the parameter (service.KindInvalid,
// 422 invalid_argument).
package queryparam

import (
	"net/url"
	"strconv"

	"github.com/newsdedup/newsdedup/service"
)

// Once checks that each of the parameters names is given at most once:
// KindInvalid, naming the first given more often.
func Once(q url.Values, names ...string) error {
	for _, name := range names {
		if n := len(q[name]); n > 1 {
			return service.Invalid(name, "is given %d times: give it once", n)
		}
	}
	return nil
}

// Int returns the integer value of parameter name and true, or 0 and false
// when it is absent or empty. KindInvalid when it is not a whole number
// from lo to hi, or given more than once.
func Int(q url.Values, name string, lo, hi int64) (int64, bool, error) {
	if err := Once(q, name); err != nil {
		return 0, false, err
	}
	v := q.Get(name)
	if v == "" {
		return 0, false, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < lo || n > hi {
		return 0, false, service.Invalid(name, "must be a whole number from %d to %d, not %q", lo, hi, v)
	}
	return n, true, nil
}

// ID returns the article id of parameter name (a positive whole number)
// and true, or 0 and false when it is absent or empty; KindInvalid for
// anything else.
func ID(q url.Values, name string) (int64, bool, error) {
	if err := Once(q, name); err != nil {
		return 0, false, err
	}
	id, ok, err := Int(q, name, 1, 1<<63-1)
	if err != nil {
		return 0, false, service.Invalid(name, "must be an article id (a positive whole number), not %q", q.Get(name))
	}
	return id, ok, nil
}
