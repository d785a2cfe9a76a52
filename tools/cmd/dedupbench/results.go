package main

import "time"

// Results is everything one run measured; benchmarks.json is this, and
// benchmarks.md is written from it.
type Results struct {
	Date       time.Time         `json:"date"`
	Command    string            `json:"command"`
	Commit     string            `json:"commit"` // git describe --always --dirty of the source measured
	Machine    Machine           `json:"machine"`
	Settings   RunSettings       `json:"settings"`
	RealSet    RealSetInfo       `json:"real_set"`
	Tiers      []TierResult      `json:"tiers"`
	ColumnType *ColumnTypeResult `json:"column_type,omitempty"`
	Check      []CheckResult     `json:"check"`
	Ingest     []IngestResult    `json:"ingest"`
	NewsIngest *NewsIngestResult `json:"news_ingest,omitempty"`
	// NewsCheck is nil when the run skipped it (-news-check-rows 0).
	NewsCheck *NewsCheckResult `json:"news_check,omitempty"`
	// SentenceLookup is nil when the run skipped it (-sentence-rows 0).
	SentenceLookup *SentenceLookupResult `json:"sentence_lookup,omitempty"`
	// SentenceLookupLarge is the same index grown to -sentence-large-rows
	// (issue 38's tier); nil when the run skipped it.
	SentenceLookupLarge *SentenceLookupResult `json:"sentence_lookup_large,omitempty"`
	// Corrections is nil when the run skipped it (-corrections-dependants
	// empty).
	Corrections  *CorrectionsResult `json:"corrections,omitempty"`
	Fingerprint  FingerprintResult  `json:"fingerprint"`
	Goals        []Goal             `json:"goals"`
	Phases       []Phase            `json:"phases"`
	Load         []LoadSample       `json:"load"`
	TotalSeconds float64            `json:"total_seconds"`
}

// RunSettings are the sizes the run used.
type RunSettings struct {
	Tiers         []int   `json:"tiers"`
	Queries       int     `json:"queries"`
	ScanQueries   int     `json:"scan_queries_above_scan_all"`
	ScanAllBelow  int     `json:"scan_all_at_or_below"`
	TrgmQueries   int     `json:"trgm_queries"`
	Unrelated     int     `json:"unrelated_queries"`
	TrgmTier      int     `json:"trgm_tier"`
	ColumnTier    int     `json:"column_type_tier"`
	CheckTier     int     `json:"check_tier"`
	CheckClients  int     `json:"check_clients"`
	CheckSeconds  float64 `json:"check_seconds"`
	SeqSeconds    float64 `json:"sequential_check_seconds"`
	IngestCount   int     `json:"ingest_articles"`
	IngestClients []int   `json:"ingest_clients"`
	BatchSize     int     `json:"batch_size"`
	PoolSize      int32   `json:"service_pool_size"`
	Kept          bool    `json:"databases_kept"`
}

// RealSetInfo describes the real articles every tier shares.
type RealSetInfo struct {
	Originals          int     `json:"originals"`
	Stored             int     `json:"stored"`
	Reposts            int     `json:"unstored_reposts"`
	FingerprintSeconds float64 `json:"fingerprint_seconds"`
}

// TierResult is one table size's figures.
type TierResult struct {
	N          int            `json:"n"`
	Label      string         `json:"label"`
	Database   string         `json:"database"`
	Mix        Mix            `json:"mix"`
	Load       LoadTiming     `json:"load"`
	Sizes      Sizes          `json:"sizes"`
	QueryKinds map[string]int `json:"query_kinds"`
	Methods    []MethodResult `json:"methods"`
	Speedups   Speedups       `json:"speedups"`
	// Unrelated are family A and both families on uniformly random query
	// fingerprints, which match nothing: the index's own cost.
	Unrelated []MethodResult `json:"unrelated"`
	// TrgmOwnPlan is the plan the planner picks for the pg_trgm query by
	// itself, with sequential scans allowed, and its estimated cost; the
	// measured plan has them off.
	TrgmOwnPlan string  `json:"pg_trgm_own_plan,omitempty"`
	TrgmOwnCost float64 `json:"pg_trgm_own_cost,omitempty"`
}

// Speedups compare median in-database latencies with the service's query.
type Speedups struct {
	ScanOverBoth    float64 `json:"full_scan_over_both"`
	FamilyAOverBoth float64 `json:"family_a_over_both"`
	TrgmOverBoth    float64 `json:"pg_trgm_over_both,omitempty"`
}

// method returns the tier's result for method name, or nil.
func (t *TierResult) method(name string) *MethodResult {
	for i := range t.Methods {
		if t.Methods[i].Method == name {
			return &t.Methods[i]
		}
	}
	return nil
}

// unrelated returns the tier's result for method name on unrelated
// queries, or nil.
func (t *TierResult) unrelated(name string) *MethodResult {
	for i := range t.Unrelated {
		if t.Unrelated[i].Method == name {
			return &t.Unrelated[i]
		}
	}
	return nil
}

// Phase is how long one part of the run took.
type Phase struct {
	Name    string  `json:"name"`
	Seconds float64 `json:"seconds"`
}

// Goal is a target of the design next to what was measured.
type Goal struct {
	Goal     string `json:"goal"`
	Measured string `json:"measured"`
	Status   string `json:"status"` // met, not met, not measured
	Note     string `json:"note,omitempty"`
}
