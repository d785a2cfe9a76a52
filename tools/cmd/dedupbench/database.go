package main

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/newsdedup/newsdedup/repo/dbtest"
)

// createDatabase (re)creates database name, migrated with the project's
// migrations, and returns its URL. utf8Ctype gives it the C.UTF-8 character
// classes: pg_trgm takes its trigrams from runs of letters, and under the C
// locale no Chinese character is a letter.
func createDatabase(ctx context.Context, serverURL, name string, utf8Ctype bool) (string, error) {
	if err := dbtest.DropDatabase(ctx, serverURL, name); err != nil {
		return "", err
	}
	var opts dbtest.DatabaseOptions
	if utf8Ctype {
		opts.Locale = "C.UTF-8"
	}
	dbURL, err := dbtest.CreateDatabase(ctx, serverURL, name, opts)
	if err != nil {
		return "", err
	}
	return dbURL, dbtest.MigrateUp(ctx, dbURL)
}

// dropDatabase drops database name, ending its sessions.
func dropDatabase(ctx context.Context, serverURL, name string) error {
	return dbtest.DropDatabase(ctx, serverURL, name)
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
