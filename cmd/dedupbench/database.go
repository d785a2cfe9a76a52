package main

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/newsdedup/newsdedup/repo"
)

// databaseURL returns serverURL with its database replaced by db. It takes
// URLs and keyword/value strings, as pgx does.
func databaseURL(serverURL, db string) (string, error) {
	var out string
	if strings.HasPrefix(serverURL, "postgres://") || strings.HasPrefix(serverURL, "postgresql://") {
		u, err := url.Parse(serverURL)
		if err != nil {
			return "", errors.New("parse DATABASE_URL: invalid URL") // the error would echo the password
		}
		u.Path, u.RawPath = "/"+db, ""
		if q := u.Query(); q.Has("dbname") {
			q.Del("dbname")
			u.RawQuery = q.Encode()
		}
		out = u.String()
	} else {
		out = strings.TrimSpace(serverURL) + " dbname='" + db + "'"
	}
	cfg, err := pgconn.ParseConfig(out)
	if err != nil {
		return "", errors.New("parse DATABASE_URL: invalid syntax")
	}
	if cfg.Database != db {
		return "", fmt.Errorf("DATABASE_URL with its database replaced names %q, want %q", cfg.Database, db)
	}
	return out, nil
}

// admin runs statements on the server's own database (DATABASE_URL's).
func admin(ctx context.Context, serverURL string, statements ...string) error {
	cfg, err := pgx.ParseConfig(serverURL)
	if err != nil {
		return errors.New("parse DATABASE_URL: invalid syntax")
	}
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return fmt.Errorf("connect to %s:%d: %w", cfg.Host, cfg.Port, err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	for _, s := range statements {
		if _, err := conn.Exec(ctx, s); err != nil {
			return fmt.Errorf("%s: %w", s, err)
		}
	}
	return nil
}

// createDatabase (re)creates database name, migrated with the project's
// migrations, and returns its URL. utf8Ctype gives it the C.UTF-8 character
// classes: pg_trgm takes its trigrams from runs of letters, and under the C
// locale no Chinese character is a letter.
func createDatabase(ctx context.Context, serverURL, name string, utf8Ctype bool) (string, error) {
	create := "CREATE DATABASE " + ident(name)
	if utf8Ctype {
		create += " TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C.UTF-8' LC_CTYPE 'C.UTF-8'"
	}
	if err := admin(ctx, serverURL, "DROP DATABASE IF EXISTS "+ident(name)+" WITH (FORCE)", create); err != nil {
		return "", err
	}
	dbURL, err := databaseURL(serverURL, name)
	if err != nil {
		return "", err
	}
	m, err := repo.NewMigrator(dbURL)
	if err != nil {
		return "", err
	}
	_, err = m.Up(ctx)
	if cerr := m.Close(); err == nil {
		err = cerr
	}
	return dbURL, err
}

// dropDatabase drops database name, ending its sessions.
func dropDatabase(ctx context.Context, serverURL, name string) error {
	return admin(ctx, serverURL, "DROP DATABASE IF EXISTS "+ident(name)+" WITH (FORCE)")
}

// openPool opens the benchmark's own pool on a database: a few connections,
// with memory for index builds. Query settings are the server's.
func openPool(ctx context.Context, dbURL string, size int32) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(dbURL)
	if err != nil {
		return nil, errors.New("parse database URL: invalid syntax")
	}
	cfg.MaxConns = size
	cfg.ConnConfig.RuntimeParams["application_name"] = "dedupbench"
	cfg.ConnConfig.RuntimeParams["maintenance_work_mem"] = "512MB"
	return pgxpool.NewWithConfig(ctx, cfg)
}

func ident(name string) string { return pgx.Identifier{name}.Sanitize() }
