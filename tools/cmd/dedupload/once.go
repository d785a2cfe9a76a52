package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/newsdedup/newsdedup/internal/corpus"
	"github.com/newsdedup/newsdedup/repo/dbtest"
)

// loadOnce is one run of the load test: a fresh database (dropped at the
// end) and a fresh dedupd from bin, the clients' warm-up and measurement,
// dedupd stopped as in production.
func loadOnce(ctx context.Context, s settings, server, bin string, novel *corpus.Novel, src articleSource, articles []corpus.Article, stderr io.Writer, logf func(string, ...any)) (*report, error) {
	rep := &report{Settings: s, Started: time.Now(), CPUs: runtime.NumCPU(), LoadAvgStart: loadAverage(), Articles: src}
	if u, err := pgconn.ParseConfig(server); err == nil {
		rep.Database = fmt.Sprintf("%s:%d", u.Host, u.Port)
	}
	// A fresh database, dropped at the end.
	dbName, dbURL, err := createDatabase(ctx, server)
	if err != nil {
		return nil, err
	}
	logf("created the database %s", dbName)
	defer func() {
		dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
		defer cancel()
		if err := dbtest.DropDatabase(dctx, server, dbName); err != nil {
			logf("%v", err)
		} else {
			logf("dropped the database %s", dbName)
		}
	}()
	if err := dbtest.MigrateUp(ctx, dbURL); err != nil {
		return nil, err
	}

	d, err := startDedupd(ctx, bin, map[string]string{
		"DATABASE_URL":       dbURL,
		"DEDUP_ADDR":         "127.0.0.1:0",
		"DEDUP_DB_MAX_CONNS": fmt.Sprint(s.Pool),
		"DEDUP_LOG_FORMAT":   "json",
	}, stderr)
	if err != nil {
		return nil, err
	}
	defer d.kill()
	base := "http://" + d.addr
	logf("dedupd (pid %d) listens on %s", d.cmd.Process.Pid, d.addr)
	cpu, err := newCPUClock(ctx, dbURL, d.cmd.Process.Pid)
	if err != nil {
		return nil, err
	}

	// The load.
	transport := &http.Transport{MaxIdleConns: s.Clients * 2, MaxIdleConnsPerHost: s.Clients * 2, IdleConnTimeout: time.Minute}
	tr := &traffic{base: base, client: &http.Client{Transport: transport, Timeout: time.Minute}, novel: novel, articles: articles}
	loadCtx, stopLoad := context.WithCancel(ctx)
	defer stopLoad()
	all := make([]*clientStats, s.Clients)
	var wg sync.WaitGroup
	for i := range s.Clients {
		all[i] = newClientStats()
		wg.Add(1)
		go func() {
			defer wg.Done()
			tr.run(loadCtx, s.Seed*1000+uint64(i), all[i])
		}()
	}
	logf("%d clients: warming up for %s", s.Clients, s.Warmup)
	select {
	case <-time.After(s.Warmup):
	case <-ctx.Done():
	}

	// The measurement, memory sampled once a second, a reading every 10 s.
	start := time.Now()
	tr.measureFrom.Store(start.UnixNano())
	cpuStart := cpu.read()
	logf("measuring for %s, and on until %d requests (at most %s)", s.Duration, s.MinRequests, s.MaxDuration)
	metricsClient := &http.Client{Transport: &http.Transport{}}
	// window holds the samples since the last reading; recent the last ten,
	// so that the end reading covers 10 s even when its window is short.
	var window, recent []memSample
	tick := time.NewTicker(time.Second)
	for done := false; !done; {
		select {
		case <-ctx.Done():
			done = true
			logf("interrupted: stopping early")
			continue
		case <-tick.C:
		}
		elapsed := time.Since(start)
		if m, err := scrape(ctx, metricsClient, base); err != nil {
			logf("%v", err)
		} else {
			window = append(window, m)
			recent = append(recent, m)
			if len(recent) > 10 {
				recent = recent[1:]
			}
		}
		n := tr.completed.Load()
		done = elapsed >= s.MaxDuration || elapsed >= s.Duration && n >= int64(s.MinRequests)
		if len(window) == 10 || done && len(window) > 0 {
			label := fmt.Sprintf("%.0f s", elapsed.Seconds())
			switch {
			case len(rep.Memory) == 0:
				label = "start (first 10 s after warm-up)"
			case done:
				label = fmt.Sprintf("end (last 10 s, to %.0f s)", elapsed.Seconds())
				window = recent
			}
			r := reading(label, window)
			rep.Memory = append(rep.Memory, r)
			window = nil
			logf("%5.0f s: %d requests (%.0f/s); Go heap in use %s, live %s; RSS %s; C heap %s", elapsed.Seconds(), n,
				float64(n)/elapsed.Seconds(), mib(r.GoHeapBytes), mib(r.GoLiveBytes), mib(r.RSSBytes), mib(r.CHeapBytes))
		}
	}
	tick.Stop()
	stopLoad()
	wg.Wait()
	rep.CPU = cpu.between(cpuStart, cpu.read())
	stats := merge(all)
	rep.Elapsed = stats.last.Sub(start)
	rep.LoadAvgEnd = loadAverage()

	// dedupd stops as in production.
	rep.Shutdown = d.stop(45 * time.Second)
	logf("dedupd: %s", rep.Shutdown)
	rep.DedupdWarnings, rep.DedupdErrors = d.logCounts()

	rep.fill(stats)
	return rep, nil
}
