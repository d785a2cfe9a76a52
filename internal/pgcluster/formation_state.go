package pgcluster

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// What the monitor says of a formation's nodes, and the waits on it.

// NodeState is a node as the monitor sees it.
type NodeState struct {
	Name     string
	Port     int
	Reported string // the state its keeper last reported: primary, secondary, wait_primary…
	Goal     string // the state the monitor assigned it
	Healthy  bool   // the monitor's last health check reached it
}

// State returns the nodes as the monitor sees them.
func (f *Formation) State(ctx context.Context) ([]NodeState, error) {
	conn, err := pgx.Connect(ctx, f.NodeURL(Monitor, "pg_auto_failover"))
	if err != nil {
		return nil, fmt.Errorf("connect to the monitor: %w", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	rows, err := conn.Query(ctx, `SELECT nodename, nodeport, reportedstate::text, goalstate::text, health = 1
		FROM pgautofailover.node ORDER BY nodeid`)
	if err != nil {
		return nil, fmt.Errorf("read the monitor's nodes: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (NodeState, error) {
		var n NodeState
		err := r.Scan(&n.Name, &n.Port, &n.Reported, &n.Goal, &n.Healthy)
		return n, err
	})
}

// Primary returns the node the monitor holds to be the primary (settled or
// not yet joined by a standby), or an error when there is none.
func (f *Formation) Primary(ctx context.Context) (string, error) {
	nodes, err := f.State(ctx)
	if err != nil {
		return "", err
	}
	for _, n := range nodes {
		switch n.Goal {
		case "primary", "wait_primary", "single":
			if n.Reported == n.Goal {
				return n.Name, nil
			}
		}
	}
	return "", fmt.Errorf("no primary: %s", describeNodes(nodes))
}

// WaitHealthy waits until one node is the primary and the other its
// standby, both as assigned and both reached by the monitor's checks, and
// the primary accepts writes with the standby synchronous. (After a restart
// the monitor's table still says what held before the stop.)
func (f *Formation) WaitHealthy(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	var last string
	for {
		nodes, err := f.State(ctx)
		if err == nil {
			last = describeNodes(nodes)
			if healthy(nodes) {
				if err = f.synchronous(ctx); err == nil {
					return nil
				}
				last += "; " + err.Error()
			}
		} else {
			last = err.Error()
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("the formation did not settle into a primary and a secondary: %s", last)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// synchronous checks that the node that accepts writes has a synchronous
// standby streaming from it.
func (f *Formation) synchronous(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, f.URL("postgres"))
	if err != nil {
		return fmt.Errorf("no node accepts writes: %w", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	var n int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM pg_stat_replication WHERE state = 'streaming' AND sync_state IN ('sync', 'quorum')`).Scan(&n); err != nil {
		return err
	}
	if n != 1 {
		return errors.New("the primary has no synchronous standby streaming from it yet")
	}
	return nil
}

func healthy(nodes []NodeState) bool {
	var primary, secondary int
	for _, n := range nodes {
		if !n.Healthy || n.Reported != n.Goal {
			return false
		}
		switch n.Reported {
		case "primary":
			primary++
		case "secondary":
			secondary++
		}
	}
	return primary == 1 && secondary == 1 && len(nodes) == 2
}

func describeNodes(nodes []NodeState) string {
	var parts []string
	for _, n := range nodes {
		parts = append(parts, fmt.Sprintf("%s %s (assigned %s, healthy %t)", n.Name, n.Reported, n.Goal, n.Healthy))
	}
	if len(parts) == 0 {
		return "no nodes registered"
	}
	return strings.Join(parts, "; ")
}

// waitMonitor waits until the monitor accepts connections.
func (f *Formation) waitMonitor(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	for {
		conn, err := pgx.Connect(ctx, f.NodeURL(Monitor, "pg_auto_failover"))
		if err == nil {
			conn.Close(ctx)
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("the monitor did not accept connections: %w (log: %s)", err, f.LogFile(Monitor))
		case <-time.After(100 * time.Millisecond):
		}
	}
}
