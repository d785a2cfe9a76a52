package repo

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"

	"github.com/newsdedup/newsdedup/migrations"
)

// Migrator applies the embedded migrations to one database. Several replicas
// may migrate at once: a session advisory lock lets one of them at a time.
type Migrator struct {
	db       *sql.DB
	provider *goose.Provider
}

// NewMigrator connects to databaseURL for migrating. Close it when done.
func NewMigrator(databaseURL string) (*Migrator, error) {
	cfg, err := parseConfig(databaseURL)
	if err != nil {
		return nil, err
	}
	db := stdlib.OpenDB(*cfg.ConnConfig)
	locker, err := lock.NewPostgresSessionLocker()
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("migrate: %w", err)
	}
	provider, err := goose.NewProvider(goose.DialectPostgres, db, migrations.FS, goose.WithSessionLocker(locker))
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("migrate: %w", err)
	}
	return &Migrator{db: db, provider: provider}, nil
}

// Up applies every pending migration and returns what it applied.
func (m *Migrator) Up(ctx context.Context) ([]*goose.MigrationResult, error) {
	res, err := m.provider.Up(ctx)
	if err != nil {
		return res, fmt.Errorf("migrate up: %w", err)
	}
	return res, nil
}

// Down rolls back the latest applied migration.
func (m *Migrator) Down(ctx context.Context) (*goose.MigrationResult, error) {
	res, err := m.provider.Down(ctx)
	if err != nil {
		return res, fmt.Errorf("migrate down: %w", err)
	}
	return res, nil
}

// DownTo rolls back every migration above version; 0 empties the schema.
func (m *Migrator) DownTo(ctx context.Context, version int64) ([]*goose.MigrationResult, error) {
	res, err := m.provider.DownTo(ctx, version)
	if err != nil {
		return res, fmt.Errorf("migrate down to %d: %w", version, err)
	}
	return res, nil
}

// Status lists every migration and whether it is applied.
func (m *Migrator) Status(ctx context.Context) ([]*goose.MigrationStatus, error) {
	st, err := m.provider.Status(ctx)
	if err != nil {
		return nil, fmt.Errorf("migrate status: %w", err)
	}
	return st, nil
}

// Close closes the migrator's connection.
func (m *Migrator) Close() error { return m.db.Close() }
