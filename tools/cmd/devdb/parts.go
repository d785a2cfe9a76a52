package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/newsdedup/newsdedup/repo"
)

// The local sentence partitions (devdb -parts N; make parts-start): N
// clusters in PROJECT/.data/parts/p0 … pN-1, each with the newsdedup
// database prepared as a partition of the sentence index
// (repo.PreparePartition), registered in the project's cluster, which is
// started and migrated first (docs/scaling.md, "The sentence index in
// partitions"). Stopping unregisters them before stopping them: the
// primary's table sentences holds every sentence too, so the service goes
// on without them.

// partsArea is the data area of partition i.
func partsArea(i int) string { return "parts/p" + strconv.Itoa(i) }

func isPartition(area string) bool { return strings.HasPrefix(area, "parts/") }

type parts struct {
	primary *cluster
	parts   []*cluster
}

func newParts(dir string, n int) (*parts, error) {
	if n < 1 || n&(n-1) != 0 {
		return nil, fmt.Errorf("-parts %d: a power of two, 1 or more", n)
	}
	primary, err := newCluster(dir)
	if err != nil {
		return nil, err
	}
	p := &parts{primary: primary}
	for i := range n {
		c, err := newArea(dir, partsArea(i))
		if err != nil {
			return nil, err
		}
		p.parts = append(p.parts, c)
	}
	return p, nil
}

// Start starts the partitions and the primary, prepares and registers the
// partitions, and returns the primary's URL.
func (p *parts) Start(ctx context.Context) (string, error) {
	var connstrs []string
	for i, c := range p.parts {
		url, err := c.Start(ctx)
		if err != nil {
			return "", fmt.Errorf("partition %d: %w", i, err)
		}
		if err := repo.PreparePartition(ctx, url); err != nil {
			return "", fmt.Errorf("partition %d: %w", i, err)
		}
		connstrs = append(connstrs, fmt.Sprintf("host=127.0.0.1 port=%d dbname=%s connect_timeout=2", c.pg.Port(), database))
	}
	url, err := p.primary.Start(ctx)
	if err != nil {
		return "", err
	}
	return url, p.register(ctx, url, connstrs)
}

// register migrates the primary and makes connstrs its partitions.
func (p *parts) register(ctx context.Context, url string, connstrs []string) error {
	m, err := repo.NewMigrator(url)
	if err != nil {
		return err
	}
	_, err = m.Up(ctx)
	if cerr := m.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("migrate the primary: %w", err)
	}
	st, err := repo.Open(ctx, url, repo.Options{MaxConns: 1})
	if err != nil {
		return err
	}
	defer st.Close()
	if err := st.SetSentencePartitions(ctx, connstrs); err != nil {
		return err
	}
	logf("%d sentence partitions registered in %s", len(connstrs), url)
	return nil
}

// Stop unregisters the partitions, when the primary runs, and stops them.
func (p *parts) Stop(ctx context.Context) error {
	if running, err := p.primary.Status(ctx, io.Discard); err == nil && running {
		url, err := p.primary.URL()
		if err != nil {
			return err
		}
		if err := p.register(ctx, url, nil); err != nil {
			return err
		}
	}
	for i, c := range p.parts {
		if err := c.Stop(ctx); err != nil {
			return fmt.Errorf("partition %d: %w", i, err)
		}
	}
	return nil
}

// URL is the primary's.
func (p *parts) URL() (string, error) { return p.primary.URL() }

// Status says how each partition stands; running when all run.
func (p *parts) Status(ctx context.Context, w io.Writer) (bool, error) {
	all := true
	for i, c := range p.parts {
		fmt.Fprintf(w, "partition %d: ", i)
		running, err := c.Status(ctx, w)
		if err != nil {
			return false, err
		}
		all = all && running
	}
	return all, nil
}
