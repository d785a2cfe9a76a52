package main

import (
	"fmt"
	"slices"
	"strings"
)

// writeNewsSessions writes what the database's sessions were doing during
// each ingest measurement (sessions.go), pooled over its runs: how many
// sessions were, on average, running, waiting for a lock, for the WAL, or
// for the service. It writes nothing when no run was sampled.
func writeNewsSessions(b *strings.Builder, r *NewsIngestResult) {
	w := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	type row struct {
		m   *NewsMode
		got SessionSamples
	}
	var rows []row
	for i := range r.Modes {
		if got := pooledSessions(&r.Modes[i]); got.Samples > 0 {
			rows = append(rows, row{&r.Modes[i], got})
		}
	}
	if len(rows) == 0 {
		return
	}
	w("### What the database's sessions were doing\n\n")
	w("`pg_stat_activity` sampled every %d ms during each run (the run's database only, one short statement a sample), pooled over the repetitions: how many of the service's sessions were, on average, *running* a statement (on a core, or waiting for one: the view cannot tell), waiting for an advisory *lock* (`service/locks.go`: a writer whose group needs a family-A block or a sentence that another writer's group holds waits for that group's commit), waiting for the *WAL* (a commit's flush, or a WAL buffer), or inside a transaction waiting for the *service* (its next statement or a COPY's rows: the service's own work between statements, judging). The goal's cores are shared by these sessions, the service and its clients: a session *running* may be waiting for a core.\n\n", sessionSampleEvery.Milliseconds())
	w("| measurement | sentence index | clients | samples | running | lock | WAL | service | other |\n| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	for _, x := range rows {
		w("| %s | %s | %d | %s | %.2f | %.2f | %.2f | %.2f | %.2f |\n", x.m.Kind, onOff(x.m.Sentences), x.m.Clients, num(x.got.Samples),
			x.got.mean(sessionRunning), x.got.mean(sessionGroupLock), x.got.mean(sessionGroupWAL), x.got.mean(sessionGroupSvc), x.got.mean(sessionGroupElse))
	}
	w("\n")
	var others []string
	for _, x := range rows {
		for _, s := range x.got.otherStates() {
			if !slices.Contains(others, s) {
				others = append(others, s)
			}
		}
	}
	if len(others) > 0 {
		w("*Other* holds: `%s`.\n\n", strings.Join(others, "`, `"))
	}
	if batch := r.bestBatch(true); batch != nil {
		if got := pooledSessions(batch); got.busy() > 0 {
			w("In the fastest batch measurement with the sentence index (%d clients), %.0f %% of the sessions' time in a statement or a transaction was spent waiting for an advisory lock.\n\n", batch.Clients, 100*got.mean(sessionGroupLock)/got.busy())
		}
	}
	writeAdvisoryKinds(w, rows[0].m, nil)
	for _, x := range rows {
		writeAdvisoryKinds(w, x.m, x.got.advisoryKinds())
	}
	w("\n")
}

// writeAdvisoryKinds writes the header of the table of advisory lock waits
// by kind (kinds nil), or measurement m's row: each kind's share of the
// samples waiting for an advisory lock.
func writeAdvisoryKinds(w func(string, ...any), m *NewsMode, kinds map[string]int) {
	names := []string{"article key", "family-A block", "sentence", "cluster", "other"}
	if kinds == nil {
		w("The advisory lock waited for, by kind (`service.LockKey.Kind`, from `pg_locks` in the same sample), as a share of the samples waiting for one:\n\n")
		w("| measurement | sentence index | clients | samples waiting | %s |\n| --- | --- | ---: | ---: |%s\n",
			strings.Join(names, " | "), strings.Repeat(" ---: |", len(names)))
		return
	}
	total := 0
	for _, v := range kinds {
		total += v
	}
	w("| %s | %s | %d | %s |", m.Kind, onOff(m.Sentences), m.Clients, num(total))
	for _, name := range names {
		if total == 0 {
			w(" — |")
			continue
		}
		w(" %.0f %% |", 100*float64(kinds[name])/float64(total))
	}
	w("\n")
}

// pooledSessions adds up what the sessions of a measurement's runs were
// doing.
func pooledSessions(m *NewsMode) SessionSamples {
	var got SessionSamples
	for _, run := range m.Runs {
		if run.Sessions != nil {
			got.add(*run.Sessions)
		}
	}
	return got
}
