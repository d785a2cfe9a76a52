package main

import (
	"cmp"
	"slices"
	"time"
)

// NewsCheckResult is the check-on-real-news section: /v1/check timed
// against a database of Rows articles, the real news among them stored
// through the service, with reposts of stored news and with news never
// stored.
type NewsCheckResult struct {
	Date       time.Time `json:"date"`
	Command    string    `json:"command"`
	Commit     string    `json:"commit"`
	CorporaDir string    `json:"corpora_dir"`
	// Skipped says why nothing was measured (the corpora are missing);
	// the other figures are then empty.
	Skipped string `json:"skipped,omitempty"`

	Database string `json:"database"`
	Rows     int    `json:"rows_asked"`
	Loaded   int    `json:"rows_loaded"` // counted once the news is stored
	// News counts the real articles stored, by corpus; Random the random
	// fingerprints COPY'd beside them.
	News   int `json:"news_stored"`
	Sina   int `json:"sina_stored"`
	CCTV   int `json:"cctv_stored"`
	Random int `json:"random_rows"`
	// Blank counts the corpora's articles left out for their blank body
	// (the service refuses them); HeldOut the articles kept back, never
	// stored, to check as new stories.
	Blank   int `json:"blank_bodies_left_out"`
	HeldOut int `json:"held_out"`
	// Unstored counts the articles -news-check-articles left out: neither
	// stored nor held out (0: every article was one or the other).
	Unstored     int `json:"news_left_unstored,omitempty"`
	SentenceRows int `json:"sentence_rows"`
	// Ingest is the real news' batch ingest through the service.
	Ingest        NewsRun          `json:"ingest"`
	IngestClients int              `json:"ingest_clients"`
	BatchSize     int              `json:"batch_size"`
	Build         NewsCheckTimings `json:"build"`
	PoolSize      int32            `json:"service_pool_size"`
	Cores         int              `json:"cores"` // the machine's, which client, service and PostgreSQL share

	// Reposts counts the reposts made, HeldOut the new stories: the
	// distinct requests of each kind.
	Reposts int `json:"reposts"`
	// The runs: WarmupSeconds of uncounted requests from CheckClients
	// clients, then one client for SeqSeconds and CheckClients for
	// CheckSeconds, for each kind.
	WarmupSeconds float64 `json:"warmup_seconds"`
	SeqSeconds    float64 `json:"sequential_check_seconds"`
	CheckSeconds  float64 `json:"check_seconds"`
	CheckClients  int     `json:"check_clients"`
	// FingerprintMS is, by kind, the time to fingerprint each body (the
	// article and its sentences, as a check does) on one goroutine,
	// measured before the database is built: a check's floor.
	FingerprintMS map[string]Summary `json:"fingerprint_ms,omitempty"`
	// Reps is how many times each run was repeated, in turn (0 in results
	// from before the section repeated them: one each).
	Reps int `json:"reps,omitempty"`
	// Runs are the timed checks: in each repetition, by kind, one client
	// first.
	Runs []NewsCheckRun `json:"runs"`
	// ServerCPU says why PostgreSQL's CPU time was not measured; "" when
	// it was.
	ServerCPU    string       `json:"server_cpu_unmeasured,omitempty"`
	Load         []LoadSample `json:"load"`
	TotalSeconds float64      `json:"total_seconds"`
}

// NewsCheckTimings is how long building the section's database took.
type NewsCheckTimings struct {
	CopySeconds   float64 `json:"random_copy_seconds"`
	IndexSeconds  float64 `json:"block_index_seconds"`
	VacuumSeconds float64 `json:"vacuum_analyze_seconds"` // after the COPY, and again after the news
	IngestSeconds float64 `json:"news_ingest_seconds"`
}

// The kinds of check request of the section.
const (
	newsCheckReposts = "reposts"     // an edited copy of a stored article, never stored
	newsCheckNew     = "new stories" // a held-out article: nothing stored is its copy
)

// NewsCheckRun is one timed run: a kind of request, some clients, some
// time.
type NewsCheckRun struct {
	Kind string `json:"kind"`          // newsCheckReposts or newsCheckNew
	Rep  int    `json:"rep,omitempty"` // its repetition, from 1
	CheckResult
	// CandidatesMean is the mean of the stored articles the service's
	// near-duplicate query returned per check during the run (its
	// newsdedup_index_candidates histogram).
	CandidatesMean float64 `json:"candidates_mean"`
	LoadAtStart    float64 `json:"load1_at_start"`
	// CPU is the CPU time the run spent (cpu.go): its checks, the
	// in-process service and its clients, and PostgreSQL.
	CPU *RunCPU `json:"cpu,omitempty"`
}

// run returns the median run of kind with clients, by p99 (the figure the
// goals judge): of the section's repetitions of that run, the one whose
// p99 is the median (the lower of the middle two for an even count); nil
// when there is none.
func (r *NewsCheckResult) run(kind string, clients int) *NewsCheckRun {
	runs := r.runsOf(kind, clients)
	if len(runs) == 0 {
		return nil
	}
	slices.SortStableFunc(runs, func(a, b *NewsCheckRun) int { return cmp.Compare(a.LatencyMS.P99, b.LatencyMS.P99) })
	return runs[(len(runs)-1)/2]
}

// runsOf returns every repetition of the run of kind with clients, in the
// order they ran.
func (r *NewsCheckResult) runsOf(kind string, clients int) []*NewsCheckRun {
	var runs []*NewsCheckRun
	for i := range r.Runs {
		if r.Runs[i].Kind == kind && r.Runs[i].Clients == clients {
			runs = append(runs, &r.Runs[i])
		}
	}
	return runs
}

// spread summarises, over the repetitions of the run of kind with clients,
// its p99 and its requests a second.
func (r *NewsCheckResult) spread(kind string, clients int) (p99, perSecond Summary) {
	var p99s, rates []float64
	for _, run := range r.runsOf(kind, clients) {
		p99s, rates = append(p99s, run.LatencyMS.P99), append(rates, run.PerSecond)
	}
	return summarize(p99s), summarize(rates)
}

// clientCounts lists the client counts of the section's runs, in the order
// they first ran.
func (r *NewsCheckResult) clientCounts(kind string) []int {
	var out []int
	for _, run := range r.Runs {
		if run.Kind == kind && !slices.Contains(out, run.Clients) {
			out = append(out, run.Clients)
		}
	}
	return out
}
