package dbtest

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/newsdedup/newsdedup/repo"
)

// Scratch databases: the tests (URL), the benchmarks, the evaluation and the
// load test each make databases of their own on the server DATABASE_URL
// names, and drop them when done. The role needs CREATEDB.

// DatabaseURL returns serverURL naming database db instead of its own. It
// takes URLs and keyword/value strings, as pgx does, and never echoes the
// URL in an error: it may hold a password.
func DatabaseURL(serverURL, db string) (string, error) {
	var out string
	if strings.HasPrefix(serverURL, "postgres://") || strings.HasPrefix(serverURL, "postgresql://") {
		u, err := url.Parse(serverURL)
		if err != nil {
			return "", errors.New("parse DATABASE_URL: invalid URL")
		}
		u.Path, u.RawPath = "/"+db, ""
		if q := u.Query(); q.Has("dbname") { // a dbname parameter beats the path
			q.Del("dbname")
			u.RawQuery = q.Encode()
		}
		out = u.String()
	} else {
		// In a keyword/value string, the last of a repeated keyword wins.
		out = strings.TrimSpace(serverURL) + " dbname='" + strings.ReplaceAll(db, "'", `\'`) + "'"
	}
	cfg, err := pgconn.ParseConfig(out)
	if err != nil {
		return "", errors.New("parse DATABASE_URL: invalid syntax")
	}
	if cfg.Database != db {
		return "", fmt.Errorf("DATABASE_URL with its database replaced names database %q, want %q", cfg.Database, db)
	}
	return out, nil
}

// DatabaseOptions shape a database CreateDatabase makes.
type DatabaseOptions struct {
	// Template is the database to copy; "" for PostgreSQL's default.
	Template string
	// Locale sets LC_COLLATE and LC_CTYPE (from template0, in UTF-8), e.g.
	// "C.UTF-8": pg_trgm takes trigrams from runs of letters, and under the
	// C locale no Chinese character is a letter. "" for the server's.
	Locale string
}

// CreateDatabase creates database name on the server serverURL names and
// returns the new database's URL.
func CreateDatabase(ctx context.Context, serverURL, name string, opts DatabaseOptions) (string, error) {
	dbURL, err := DatabaseURL(serverURL, name)
	if err != nil {
		return "", err
	}
	sql := "CREATE DATABASE " + pgx.Identifier{name}.Sanitize()
	switch {
	case opts.Locale != "":
		lit := "'" + strings.ReplaceAll(opts.Locale, "'", "''") + "'"
		sql += " TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE " + lit + " LC_CTYPE " + lit
	case opts.Template != "":
		sql += " TEMPLATE " + pgx.Identifier{opts.Template}.Sanitize()
	}
	if err := adminExec(ctx, serverURL, sql); err != nil {
		return "", fmt.Errorf("create database %s: %w", name, err)
	}
	return dbURL, nil
}

// DropDatabase drops database name if it exists, ending its sessions.
func DropDatabase(ctx context.Context, serverURL, name string) error {
	if err := adminExec(ctx, serverURL, "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)"); err != nil {
		return fmt.Errorf("drop database %s: %w", name, err)
	}
	return nil
}

// MigrateUp applies every pending migration to the database at dbURL.
func MigrateUp(ctx context.Context, dbURL string) error {
	m, err := repo.NewMigrator(dbURL)
	if err != nil {
		return err
	}
	_, err = m.Up(ctx)
	return errors.Join(err, m.Close())
}

// adminExec runs one statement on the server's own database (serverURL's).
func adminExec(ctx context.Context, serverURL, sql string) error {
	cfg, err := pgx.ParseConfig(serverURL)
	if err != nil {
		return errors.New("parse DATABASE_URL: invalid syntax")
	}
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return fmt.Errorf("connect to %s:%d: %w", cfg.Host, cfg.Port, err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	_, err = conn.Exec(ctx, sql)
	return err
}
