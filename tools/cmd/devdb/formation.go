package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/newsdedup/newsdedup/internal/pgcluster"
	"github.com/newsdedup/newsdedup/repo"
)

// formation is the project's local pg_auto_failover formation (devdb -ha):
// a monitor and two nodes in the data area .data/ha, the newsdedup database
// made on them and migrated. Its URL names both nodes with
// target_session_attrs=read-write, as a deployment's would
// (docs/operations.md).
type formation struct {
	*cluster // the data area and its lock; its pg is unused
	f        *pgcluster.Formation
}

// formationOptions are the formation's settings: small, for a shared
// development machine, and the monitor's fast detection.
func formationOptions() pgcluster.FormationOptions {
	return pgcluster.FormationOptions{
		Owner:     "tools/cmd/devdb -ha",
		Database:  database,
		Settings:  []string{"max_connections = 100", "shared_buffers = '128MB'"},
		Detection: pgcluster.FastDetection,
		FirstPort: firstPort + 100, // clear of the one cluster's
		LastPort:  lastPort,
		Logf:      logf,
	}
}

func newFormation(dir string) (*formation, error) {
	c, err := newArea(dir, areaFormation)
	if err != nil {
		return nil, err
	}
	return &formation{cluster: c}, nil
}

func (h *formation) locate(ctx context.Context, forStart bool) error {
	if err := h.cluster.locate(ctx, forStart); err != nil {
		return err
	}
	f, err := pgcluster.NewFormation(h.base, formationOptions())
	h.f = f
	return err
}

// Start makes the formation or starts it again, migrates its database and
// returns its URL.
func (h *formation) Start(ctx context.Context) (string, error) {
	if err := h.locate(ctx, true); err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(h.base), 0o755); err != nil {
		return "", err
	}
	unlock, err := h.lock(ctx)
	if err != nil {
		return "", err
	}
	defer unlock()
	if err := h.f.Create(ctx); err != nil {
		return "", err
	}
	url := h.f.URL(database)
	m, err := repo.NewMigrator(url)
	if err != nil {
		return "", err
	}
	applied, err := m.Up(ctx)
	if err = errors.Join(err, m.Close()); err != nil {
		return "", fmt.Errorf("migrate the formation: %w", err)
	}
	if len(applied) > 0 {
		logf("applied %d migrations", len(applied))
	}
	return url, nil
}

// Stop stops the formation if it runs.
func (h *formation) Stop(ctx context.Context) error {
	if err := h.locate(ctx, false); err != nil {
		return err
	}
	if !h.f.Created() {
		logf("no formation in %s: nothing to stop", h.base)
		return nil
	}
	unlock, err := h.lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	return h.f.Stop(ctx)
}

// URL returns the formation's URL, whether or not it runs.
func (h *formation) URL() (string, error) {
	if err := h.locate(context.Background(), false); err != nil {
		return "", err
	}
	if !h.f.Created() {
		return "", fmt.Errorf("no local formation for %s yet: run `devdb -ha start` (make ha-start) first", h.project)
	}
	return h.f.URL(database), nil
}

// Status writes each member's state as the monitor sees it.
func (h *formation) Status(ctx context.Context, w io.Writer) (bool, error) {
	if err := h.locate(ctx, false); err != nil {
		return false, err
	}
	if !h.f.Created() {
		fmt.Fprintf(w, "not made (devdb -ha start makes it in %s)\n", h.base)
		return false, nil
	}
	fmt.Fprintf(w, "%s (data: %s)\n", h.f.URL(database), h.base)
	nodes, err := h.f.State(ctx)
	if err != nil {
		fmt.Fprintf(w, "the monitor does not answer: %v\n", err)
		return false, nil
	}
	for _, n := range nodes {
		fmt.Fprintf(w, "%s 127.0.0.1:%d %s (assigned %s, reached by the monitor: %t, keeper running: %t)\n",
			n.Name, n.Port, n.Reported, n.Goal, n.Healthy, h.f.Running(n.Name))
	}
	_, err = h.f.Primary(ctx)
	return err == nil, nil
}
