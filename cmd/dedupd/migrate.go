package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"text/tabwriter"
	"time"

	"github.com/pressly/goose/v3"

	"github.com/newsdedup/newsdedup/repo"
)

// migrate applies (up), rolls back (down) or lists (status) the embedded
// schema migrations, printing what it did on stdout. Several replicas may
// run it at once: the migrator takes a lock.
func (a *app) migrate(ctx context.Context, cfg Config, action string) error {
	switch action {
	case "up", "down", "status":
	default:
		return usageError{fmt.Sprintf("unknown migrate action %q: want up, down or status", action)}
	}
	m, err := repo.NewMigrator(cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer m.Close()

	switch action {
	case "up":
		results, err := m.Up(ctx)
		for _, r := range results {
			if r.Error == nil {
				fmt.Fprintf(a.stdout, "applied %s (%s)\n", migrationFile(r.Source), r.Duration.Round(time.Millisecond))
			}
		}
		if err != nil {
			return err
		}
		if len(results) == 0 {
			fmt.Fprintln(a.stdout, "no pending migrations: the schema is up to date")
		}
		return nil
	case "down":
		r, err := m.Down(ctx)
		if errors.Is(err, goose.ErrNoNextVersion) {
			fmt.Fprintln(a.stdout, "no applied migration to roll back")
			return nil
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(a.stdout, "rolled back %s (%s)\n", migrationFile(r.Source), r.Duration.Round(time.Millisecond))
		return nil
	default:
		status, err := m.Status(ctx)
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(a.stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "VERSION\tSTATE\tAPPLIED AT\tFILE")
		for _, s := range status {
			applied := "-"
			if s.State == goose.StateApplied && !s.AppliedAt.IsZero() {
				applied = s.AppliedAt.UTC().Format(time.RFC3339)
			}
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\n", s.Source.Version, s.State, applied, migrationFile(s.Source))
		}
		return tw.Flush()
	}
}

func migrationFile(s *goose.Source) string {
	if s == nil {
		return "?"
	}
	return filepath.Base(s.Path)
}
