package main

import "time"

// SentenceLookupResult is the sentence-lookup section (issue 10, point 5):
// all the indexed sentences of one article looked up at once, with the
// service's own statement, in a sentence index of Loaded rows.
type SentenceLookupResult struct {
	Date       time.Time `json:"date"`
	Command    string    `json:"command"`
	Commit     string    `json:"commit"`
	Source     string    `json:"source"` // newsSourceSina or newsSourceNovel
	CorporaDir string    `json:"corpora_dir"`
	Fallback   string    `json:"fallback,omitempty"` // why the corpora were not used

	Rows   int `json:"rows_asked"`
	Loaded int `json:"rows_loaded"` // counted after the load

	// The real part: articles stored through service.IngestBatch, so their
	// sentence rows are what the service writes.
	RealArticles     int                `json:"real_articles"`
	RealRefused      int                `json:"real_refused"` // refused by the service as invalid
	RealRows         int                `json:"real_rows"`
	RowsPerArticle   float64            `json:"rows_per_real_article"`
	RealNoSimhash    float64            `json:"real_share_without_simhash"`
	UnstoredArticles int                `json:"unstored_articles"`
	BulkArticles     int                `json:"bulk_articles"`
	BulkRows         int                `json:"bulk_rows"`
	BulkPerArticle   int                `json:"bulk_rows_per_article"`
	Load             SentenceLoadTiming `json:"load"`
	Sizes            Sizes              `json:"sizes"` // of the table sentences, as built

	Queries    int                `json:"queries"`
	QueryKinds map[string]int     `json:"query_kinds"`
	DBMS       Summary            `json:"db_ms"` // EXPLAIN ANALYZE's "Execution Time"
	DBMSByKind map[string]Summary `json:"db_ms_by_kind"`
	PlanningMS Summary            `json:"planning_ms"` // EXPLAIN ANALYZE's "Planning Time"
	ClientMS   Summary            `json:"client_ms"`   // round trip through pgx, rows read
	// Buffers is the shared buffers a lookup touched (EXPLAIN's hits and
	// reads, the whole plan): the pages its sentences' index probes and
	// matches need in memory.
	Buffers   Summary `json:"buffers"`
	Sentences Summary `json:"sentences"` // query sentences per article
	Returned  Summary `json:"returned"`  // rows the statement returned
	Found     Summary `json:"sentences_found"`
	// BlockKeys counts the queries whose plan asks the block keys' GIN
	// index for both families in one scan (migration 00019); BitmapAnd,
	// in runs before it, those that ANDed bitmaps of the eight block
	// B-trees. Shapes counts the plans' shapes.
	BlockKeys int            `json:"block_keys_queries,omitempty"`
	BitmapAnd int            `json:"bitmap_and_queries,omitempty"`
	Shapes    map[string]int `json:"plan_shapes"`
	// StoredQueries are the queries of a stored article's own text;
	// StoredAllFound those of them for which every sentence was found in
	// it, StoredAllFoundOrCapped those for which every sentence was, or
	// returned as many rows as the per-sentence limit (boilerplate, whose
	// first matches need not include the article's own).
	StoredQueries          int `json:"stored_queries"`
	StoredAllFound         int `json:"stored_all_sentences_found"`
	StoredAllFoundOrCapped int `json:"stored_all_sentences_found_or_capped"`

	// SharedBuffers and MemoryGiB are the server's shared_buffers and the
	// machine's memory, for the memory the lookups need; set on the larger
	// tier.
	SharedBuffers string  `json:"shared_buffers,omitempty"`
	MemoryGiB     float64 `json:"machine_memory_gib,omitempty"`
	// Growth is what ingest adds to the index once it holds Loaded rows;
	// nil when not measured (the smaller tier).
	Growth *SentenceGrowth `json:"growth,omitempty"`

	LoadAvg      []LoadSample `json:"load_average"`
	TotalSeconds float64      `json:"total_seconds"`
}

// SentenceGrowth is what storing more real articles through the service
// grew the sentence index by (the table sentences with its indexes, no
// VACUUM after): the bytes ingest adds an article to an index that already
// holds millions of sentences.
type SentenceGrowth struct {
	Articles  int     `json:"articles"`       // stored
	Refused   int     `json:"refused"`        // refused as invalid
	Rows      int     `json:"sentence_rows"`  // sentence rows they added
	Bytes     int64   `json:"bytes"`          // what the table and its indexes grew by
	HeapBytes int64   `json:"heap_bytes"`     // of which the table
	Seconds   float64 `json:"ingest_seconds"` // storing them
	// ServerMS and ProcessMS are PostgreSQL's and this process's CPU time
	// an article stored (proccpu); ServerMS 0 when the server's could not
	// be read.
	ServerMS  float64 `json:"server_cpu_ms_per_article,omitempty"`
	ProcessMS float64 `json:"process_cpu_ms_per_article,omitempty"`
}

// perArticle is the bytes the growth added an article.
func (g *SentenceGrowth) perArticle() float64 { return float64(g.Bytes) / float64(max(g.Articles, 1)) }

// SentenceLoadTiming is how long building the sentence index took, phase
// by phase.
type SentenceLoadTiming struct {
	RealIngestSeconds float64 `json:"real_ingest_seconds"`
	CopySeconds       float64 `json:"bulk_copy_seconds"`
	IndexSeconds      float64 `json:"index_seconds"`
	// ForeignKeySeconds is how long adding the foreign key back took, in
	// runs from before migration 00013 dropped it; 0 since.
	ForeignKeySeconds float64 `json:"foreign_key_seconds,omitempty"`
	VacuumSeconds     float64 `json:"vacuum_analyze_seconds"`
}

// perRow is the bytes per loaded sentence row.
func (r *SentenceLookupResult) perRow(bytes int64) float64 {
	return float64(bytes) / float64(max(r.Loaded, 1))
}

// perArticle is the bytes per stored article, at the real part's sentence
// rows per article.
func (r *SentenceLookupResult) perArticle(bytes int64) float64 {
	return r.perRow(bytes) * r.RowsPerArticle
}
