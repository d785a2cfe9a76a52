package repo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/newsdedup/newsdedup/service"
)

// interpretError turns a driver error into a service error: no rows into
// KindNotFound, deadlocks and serialisation failures into KindConflict (the
// service runs the work again), an unreachable or overloaded database and
// timeouts into KindUnavailable, a value the database refuses into
// KindInvalid. Anything else stays internal, wrapped with what was being
// done. It returns nil for nil.
func interpretError(err error, doing string) error {
	if err == nil {
		return nil
	}
	var se *service.Error
	if errors.As(err, &se) {
		return err
	}
	kind := service.KindInternal
	msg := ""
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		kind, msg = service.KindNotFound, "no such article"
	case isConflict(err):
		kind, msg = service.KindConflict, "concurrent writers collided"
	case isUnavailable(err):
		kind, msg = service.KindUnavailable, "the database is unavailable or did not answer in time"
	case isRefusedValue(err):
		// The service checks every value before it reaches the database;
		// should one slip through, it is still the request's value that
		// was refused, not a fault of the server.
		kind, msg = service.KindInvalid, "the database refused a value of this request"
	}
	return &service.Error{Kind: kind, Message: msg, Err: fmt.Errorf("%s: %w", doing, err)}
}

func isConflict(err error) bool {
	var pg *pgconn.PgError
	if !errors.As(err, &pg) {
		return false
	}
	switch pg.Code {
	case "40001", "40P01": // serialization_failure, deadlock_detected
		return true
	case "23505": // unique_violation: a writer that did not take the key's lock
		return true
	}
	return false
}

// isRefusedValue reports an error about a value rather than the database's
// state: data exceptions (class 22: a value out of range, malformed text)
// and program limits (54000: a key too long for its index entry).
func isRefusedValue(err error) bool {
	var pg *pgconn.PgError
	return errors.As(err, &pg) && (strings.HasPrefix(pg.Code, "22") || pg.Code == "54000")
}

// readOnlyTransaction is read_only_sql_transaction: a write reached a server
// that no longer accepts writes.
const readOnlyTransaction = "25006"

func isUnavailable(err error) bool {
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		switch {
		case strings.HasPrefix(pg.Code, "08"): // connection_exception
			return true
		case strings.HasPrefix(pg.Code, "53"): // insufficient_resources: too many connections, disk full
			return true
		}
		// PL/Proxy reports a sentence partition it could not reach, or
		// that failed or timed out (query_timeout), as an internal error
		// of its function (sentence_partitions.go): the index is not all
		// there, as when the database itself is not.
		if pg.Code == "XX000" && strings.HasPrefix(pg.Message, "PL/Proxy function ") {
			return true
		}
		switch pg.Code {
		case readOnlyTransaction, // a standby, or a primary being demoted: a failover
			"57014",                   // query_canceled: the statement timeout
			"57P01", "57P02", "57P03", // admin_shutdown, crash_shutdown, cannot_connect_now
			"55P03": // lock_not_available
			return true
		}
		return false
	}
	var netErr net.Error
	var connectErr *pgconn.ConnectError
	return errors.Is(err, context.DeadlineExceeded) ||
		errors.Is(err, context.Canceled) ||
		errors.Is(err, io.EOF) ||
		errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, pgconn.ErrConnClosed) ||
		errors.Is(err, net.ErrClosed) ||
		errors.As(err, &connectErr) ||
		errors.As(err, &netErr) ||
		pgconn.Timeout(err) ||
		pgconn.SafeToRetry(err)
}
