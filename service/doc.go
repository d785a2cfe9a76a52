// Package service holds newsdedup's domain: what an article is, how it is
// fingerprinted, and how the verdict — unique, near duplicate, exact
// duplicate, partial duplicate — is decided and kept consistent under
// concurrent writers.
//
// It knows neither HTTP nor SQL. It declares the storage it needs (store.go,
// editorial_store.go, sessions.go) and the repo package implements it with
// PostgreSQL; the handlers package turns HTTP requests into calls on
// Service. Every error it returns is an *Error with a Kind (errors.go), so
// that the one place that speaks HTTP can map errors to statuses without
// knowing where they came from.
//
// # The route of an article
//
// The files are named by the step an article goes through; each step is a
// call of the one before:
//
//	request  ingest.go          Ingest validates and fingerprints it;
//	         ingest_batch.go    IngestBatch does so for a batch, in parallel
//	queue    ingest_queue.go    single ingests arriving together wait to be
//	                            stored as one group (the combiner)
//	group    ingest_group.go    a group is collected under its lock budget
//	                            (ingest_locks_budget.go), waits for a turn
//	                            (ingest_turns.go), sets aside what another
//	                            group holds (ingest_group_held.go)
//	locks    ingest_locks.go    the key, content and sentence locks of each
//	                            article, known boilerplate left out
//	                            (ingest_locks_boilerplate.go)
//	judge    judge_group.go     each article read against the stored ones
//	         judge.go           and those before it; one article alone
//	         rules_*.go         the rules decide from what was read
//	write    ingest_write.go    the match's cluster locked and checked
//	                            (ingest_locks_cluster.go), the articles
//	                            written: where an article is stored, in its
//	                            match's cluster or, drifting, its own
//	                            (ingest_drift.go); an article published
//	                            before its match heads it instead
//	                            (ingest_promote.go); each copy's credit
//	                            (ingest_credit.go, credit.go)
//	commit   service.go         withRetry commits, or runs it again after a
//	                            conflict between concurrent writers
//
// New content under a stored key corrects the article in place (correct.go)
// or leaves, its dependants judged again (dependants*.go). A check
// (check.go) judges as an ingest does and writes nothing.
//
// # The rules
//
// The verdict's rules read nothing and lock nothing: decide (near and exact,
// rules_near.go), boilerplate (rules_boilerplate.go), partial duplicates
// (rules_partial.go, rules_sentences.go), similarity (rules_similarity.go),
// the member a cluster keeps (rules_keep.go), a cluster's original
// (rules_original.go), the partial duplicate that heads a cluster of its
// own rather than drift from its match's (rules_drift.go), which match a
// copy links to by publication (rules_lineage.go), how a copy credits its
// original (rules_credit.go), and the order they apply in
// (rules_verdict.go). Judging one article, a group, or stored articles again
// reads what they ask for and hands it to them.
//
// # The editors
//
// editorial*.go: a cluster's view, the list of clusters, keep and reset,
// split, side by side, what its original corrected and who still carries
// it (editorial_corrections.go); versions.go, an article's earlier
// contents; sessions.go, the editors' sessions.
//
// Measurements and the alternatives tried live in docs/design-notes.md
// ("service"), not above the code.
package service
