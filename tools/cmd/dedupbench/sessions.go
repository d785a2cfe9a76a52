package main

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/newsdedup/newsdedup/service"
)

// What the database's sessions were doing. CPU time says what a run cost and
// how busy it kept the cores; it does not say what a writer waited for when
// the cores were not busy. pg_stat_activity does: sampled every
// sessionSampleEvery during an ingest run, each of the run's sessions is
// running, waiting (for a lock, for the WAL, …) or, inside a transaction,
// waiting for the service's next statement. Each state's samples over the
// samples taken is how many sessions were in it on average: 0.5 sessions
// waiting for an advisory lock is half a writer's time lost to locks.

// sessionSampleEvery is how often the sessions are sampled, one short
// statement a sample.
const sessionSampleEvery = 20 * time.Millisecond

// The states a session is counted in (sessionStatesSQL), and how the report
// groups them.
const (
	sessionRunning   = "running"
	sessionInTx      = "idle in transaction"
	sessionAdvisory  = "Lock:advisory"
	sessionGroupWAL  = "WAL"
	sessionGroupSvc  = "service"
	sessionGroupLock = "lock"
	sessionGroupElse = "other"
)

// sessionStatesSQL counts the sessions of database $1 by state: running (no
// wait event), waiting (the wait event's type and name; for an advisory
// lock, the top byte of the bigint key it waits for after a colon, which
// service.LockKey.Kind names), or idle inside a transaction; idle sessions
// and the sampler's own are left out.
const sessionStatesSQL = `
	SELECT CASE WHEN a.state LIKE 'idle in transaction%' THEN 'idle in transaction'
	            WHEN a.wait_event_type IS NULL THEN 'running'
	            WHEN a.wait_event_type = 'Lock' AND a.wait_event = 'advisory' THEN 'Lock:advisory' || coalesce(
	                (SELECT ':' || (l.classid::bigint >> 24) FROM pg_locks l
	                 WHERE l.pid = a.pid AND l.locktype = 'advisory' AND NOT l.granted AND l.objsubid = 1 LIMIT 1), '')
	            ELSE a.wait_event_type || ':' || a.wait_event END,
	       count(*)::int
	FROM pg_stat_activity a
	WHERE a.datname = $1 AND a.backend_type = 'client backend' AND a.pid <> pg_backend_pid()
	  AND a.state IN ('active', 'idle in transaction', 'idle in transaction (aborted)')
	GROUP BY 1`

// SessionSamples is what a sampler saw: how many samples it took, and in
// how many of them each session was in each state, summed over sessions.
type SessionSamples struct {
	Samples int            `json:"samples"`
	States  map[string]int `json:"states"`
}

// add adds o's samples to s.
func (s *SessionSamples) add(o SessionSamples) {
	s.Samples += o.Samples
	if s.States == nil {
		s.States = map[string]int{}
	}
	for k, v := range o.States {
		s.States[k] += v
	}
}

// mean is how many sessions were in the states that group (sessionGroup)
// names, on average; 0 without samples.
func (s SessionSamples) mean(group string) float64 {
	if s.Samples == 0 {
		return 0
	}
	n := 0
	for state, v := range s.States {
		if sessionGroup(state) == group {
			n += v
		}
	}
	return float64(n) / float64(s.Samples)
}

// busy is how many sessions were in any state, on average: running,
// waiting, or inside a transaction.
func (s SessionSamples) busy() float64 {
	if s.Samples == 0 {
		return 0
	}
	n := 0
	for _, v := range s.States {
		n += v
	}
	return float64(n) / float64(s.Samples)
}

// sessionGroup is the report's column of a state: running, the advisory
// locks (the service's; any other lock is other), the WAL (writing or flushing it,
// or waiting for its buffers), the service (inside a transaction, waiting
// for the next statement, or for the rows of a COPY), or other.
func sessionGroup(state string) string {
	switch {
	case state == sessionRunning:
		return sessionRunning
	case state == sessionAdvisory, strings.HasPrefix(state, sessionAdvisory+":"):
		return sessionGroupLock
	case strings.Contains(state, ":WAL"):
		return sessionGroupWAL
	case strings.HasPrefix(state, sessionInTx), strings.HasPrefix(state, "Client:"):
		return sessionGroupSvc
	}
	return sessionGroupElse
}

// advisoryKinds is how many session samples waited for an advisory lock of
// each kind (service.LockKey.Kind; "other" for a key of none).
func (s SessionSamples) advisoryKinds() map[string]int {
	kinds := map[string]int{}
	for state, v := range s.States {
		if sessionGroup(state) != sessionGroupLock {
			continue
		}
		kind := "other"
		if space, err := strconv.ParseInt(strings.TrimPrefix(state, sessionAdvisory+":"), 10, 64); err == nil {
			kind = cmp.Or(service.LockKey(space<<56).Kind(), kind)
		}
		kinds[kind] += v
	}
	return kinds
}

// otherStates names the states of group other, most frequent first.
func (s SessionSamples) otherStates() []string {
	var names []string
	for state := range s.States {
		if sessionGroup(state) == sessionGroupElse {
			names = append(names, state)
		}
	}
	// Most frequent first; ties by name, so that the report is the same at
	// each rendering (a map's order is not).
	slices.SortFunc(names, func(a, b string) int { return cmp.Or(s.States[b]-s.States[a], strings.Compare(a, b)) })
	return names
}

// sessionSampler samples the sessions of one database until stopped.
type sessionSampler struct {
	cancel context.CancelFunc
	done   chan struct{}
	got    SessionSamples
	err    error
}

// startSessionSampler samples the sessions of database on the server at
// serverURL, once at once and then every sessionSampleEvery, on a
// connection of its own.
func startSessionSampler(ctx context.Context, serverURL, database string) (*sessionSampler, error) {
	pool, err := openPool(ctx, serverURL, 1)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	s := &sessionSampler{cancel: cancel, done: make(chan struct{}), got: SessionSamples{States: map[string]int{}}}
	go func() {
		defer close(s.done)
		defer pool.Close()
		tick := time.NewTicker(sessionSampleEvery)
		defer tick.Stop()
		for {
			if err := s.sample(ctx, pool, database); err != nil {
				if ctx.Err() == nil {
					s.err = err
				}
				return
			}
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
	}()
	return s, nil
}

// sample counts the sessions' states once.
func (s *sessionSampler) sample(ctx context.Context, pool *pgxpool.Pool, database string) error {
	rows, err := pool.Query(ctx, sessionStatesSQL, database)
	if err != nil {
		return fmt.Errorf("sample the sessions: %w", err)
	}
	defer rows.Close()
	states := map[string]int{}
	for rows.Next() {
		var state string
		var n int
		if err := rows.Scan(&state, &n); err != nil {
			return fmt.Errorf("sample the sessions: %w", err)
		}
		states[state] = n
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("sample the sessions: %w", err)
	}
	s.got.add(SessionSamples{Samples: 1, States: states})
	return nil
}

// stop ends the sampling and returns what it saw.
func (s *sessionSampler) stop() (SessionSamples, error) {
	s.cancel()
	<-s.done
	got := s.got
	got.States = maps.Clone(got.States)
	return got, s.err
}
