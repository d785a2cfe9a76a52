package main

import "time"

// NewsIngestResult is the real-news ingest section: the same articles
// fingerprinted alone, ingested in batches and posted one by one, each
// measurement repeated, with the sentence index on and off.
type NewsIngestResult struct {
	Date    time.Time `json:"date"`
	Command string    `json:"command"`
	Commit  string    `json:"commit"`
	// Source says what was ingested: newsSourceSina, or newsSourceNovel
	// when the corpora were missing (Fallback says why).
	Source     string  `json:"source"`
	CorporaDir string  `json:"corpora_dir"`
	Fallback   string  `json:"fallback,omitempty"`
	Articles   int     `json:"articles"`
	MeanChars  float64 `json:"mean_body_chars"` // body runes that are not white space
	TextBytes  int64   `json:"text_bytes"`      // UTF-8 of titles and bodies
	Reps       int     `json:"repetitions"`
	BatchSize  int     `json:"batch_size"`
	Workers    int     `json:"fingerprint_goroutines"` // GOMAXPROCS
	PoolSize   int32   `json:"service_pool_size"`
	// Modes are the measurements, fingerprint-only first.
	Modes []NewsMode `json:"modes"`
	// ServerCPU says why PostgreSQL's CPU time was not measured; "" when
	// it was (cpu.go).
	ServerCPU    string       `json:"server_cpu_unmeasured,omitempty"`
	Load         []LoadSample `json:"load"`
	TotalSeconds float64      `json:"total_seconds"`
}

// The sources of the real-news section.
const (
	newsSourceSina  = "sina"
	newsSourceNovel = "围城 (fallback)"
)

// The kinds of measurement of the real-news section.
const (
	newsFingerprint = "fingerprint-only"
	newsBatch       = "batch"
	newsSingle      = "single"
	newsPeer        = "peer"
)

// NewsMode is one measurement, repeated: a kind, with or without the
// sentence index, with some clients.
type NewsMode struct {
	Kind      string `json:"kind"` // newsFingerprint, newsBatch, newsSingle or newsPeer
	Sentences bool   `json:"sentence_index"`
	Clients   int    `json:"clients"` // goroutines for fingerprint-only
	// PerSecond summarises the runs' articles/s: median, min and max.
	PerSecond Summary `json:"articles_per_second"`
	// Ratio summarises, for batch ingest, each run's rate over the
	// fingerprint-only rate of the same repetition with the same sentence
	// work.
	Ratio *Summary `json:"ratio_to_fingerprint_only,omitempty"`
	// CPU summarises the runs' CPU time per article; nil for runs
	// measured before it was.
	CPU  *NewsCPU  `json:"cpu_ms_per_article,omitempty"`
	Runs []NewsRun `json:"runs"`
}

// NewsCPU summarises a measurement's CPU time per article, in
// milliseconds, and how many cores its runs kept busy on average (CPU time
// over wall time).
type NewsCPU struct {
	Process Summary  `json:"process"`
	Server  *Summary `json:"server,omitempty"` // nil when not measured
	Total   Summary  `json:"total"`
	Cores   Summary  `json:"cores_busy"`
}

// NewsRun is one run of a measurement.
type NewsRun struct {
	Seconds   float64 `json:"seconds"`
	PerSecond float64 `json:"articles_per_second"`
	Sent      int     `json:"articles_sent"`
	// Stored counts the rows of the run's fresh database at its end; 0 for
	// fingerprint-only.
	Stored int `json:"articles_stored"`
	// Statuses counts the articles' verdicts, "error_<code>" for an
	// article the service refused, and for fingerprint-only "ok" or
	// "error".
	Statuses map[string]int `json:"statuses"`
	// HTTPErrors counts the requests answered with a status other than
	// 2xx, by status ("http_503").
	HTTPErrors map[string]int `json:"http_errors,omitempty"`
	RequestMS  Summary        `json:"request_ms"` // per request (batch or article); empty for fingerprint-only
	Ratio      float64        `json:"ratio_to_fingerprint_only,omitempty"`
	CPU        *RunCPU        `json:"cpu,omitempty"`
	// Bytes is what the run grew its database by; nil for fingerprint-only
	// and for runs measured before it was.
	Bytes *RunBytes `json:"bytes_grown,omitempty"`
	// Sessions is what the run's database sessions were doing, sampled
	// (sessions.go); nil for fingerprint-only and for runs measured before.
	Sessions *SessionSamples `json:"db_sessions,omitempty"`
	// Statements are the run's heaviest statements (news_statements.go);
	// nil when the server does not preload pg_stat_statements.
	Statements []StatementStat `json:"statements,omitempty"`
}

// RunBytes is how much a run's database grew, as ingest left it (no VACUUM
// after it): in all, and the sentence index's part (the table sentences
// with its indexes), which is empty without the sentence index.
type RunBytes struct {
	Database  int64 `json:"database"`
	Sentences int64 `json:"sentence_index"`
}

// mode returns the section's measurement of kind with sentences and
// clients, or nil.
func (r *NewsIngestResult) mode(kind string, sentences bool, clients int) *NewsMode {
	for i := range r.Modes {
		if m := &r.Modes[i]; m.Kind == kind && m.Sentences == sentences && (clients == 0 || m.Clients == clients) {
			return m
		}
	}
	return nil
}

// summarizeRuns fills in the mode's summaries from its runs.
func (m *NewsMode) summarizeRuns() {
	rates := make([]float64, len(m.Runs))
	var ratios []float64
	for i, run := range m.Runs {
		rates[i] = run.PerSecond
		if run.Ratio > 0 {
			ratios = append(ratios, run.Ratio)
		}
	}
	m.PerSecond = summarize(rates)
	if len(ratios) > 0 {
		s := summarize(ratios)
		m.Ratio = &s
	}
	m.CPU = summarizeCPU(m.Runs)
}

// summarizeCPU summarises the CPU time of runs that all measured it (nil
// otherwise); the server's only when every run measured it.
func summarizeCPU(runs []NewsRun) *NewsCPU {
	var process, server, total, cores []float64
	for _, run := range runs {
		if run.CPU == nil || run.Sent == 0 || run.Seconds <= 0 {
			return nil
		}
		p, s, t := run.CPU.msPer(run.Sent)
		process, total = append(process, p), append(total, t)
		cores = append(cores, t*float64(run.Sent)/1000/run.Seconds)
		if s != nil {
			server = append(server, *s)
		}
	}
	if len(runs) == 0 {
		return nil
	}
	out := &NewsCPU{Process: summarize(process), Total: summarize(total), Cores: summarize(cores)}
	if len(server) == len(runs) {
		s := summarize(server)
		out.Server = &s
	}
	return out
}
