// Package service holds newsdedup's domain: what an article is, how it is
// fingerprinted, and how the verdict — unique, near duplicate, exact
// duplicate, partial duplicate — is decided and kept consistent under
// concurrent writers.
//
// It knows neither HTTP nor SQL. It declares every storage interface it
// needs in one file, store.go, and the repo package implements them with
// PostgreSQL; the handlers package turns HTTP requests into calls on
// Service (service.go). Every error it returns is an *Error with a Kind
// (errors.go), so that the one place that speaks HTTP can map errors to
// statuses without knowing where they came from.
//
// # The route of an article
//
// The files are named by the step an article goes through; each step is a
// call of the one before:
//
//	request  ingest.go          Ingest validates and fingerprints it;
//	         ingest_batch.go    IngestBatch does so for a batch, in parallel
//	carrier  arrival.go         the article on its way in: what was sent,
//	                            its fingerprint, its locks, its verdict
//	queue    ingest_queue.go    single ingests arriving together wait to be
//	                            stored as one group (the combiner)
//	group    ingest_group.go    a group is collected under its lock budget,
//	                            waits for a turn, sets aside what another
//	                            group holds
//	judge    judge_group.go     each article read against the stored ones
//	         judge_group_sentences.go  and those before it in the group;
//	         judge.go           one article alone, from the reads of
//	         judge_reads.go     its copies, near candidates and sentences
//	         rules_*.go         the rules decide from what was read
//	write    ingest_write.go    the match's cluster locked and checked, the
//	                            articles written; where an article is
//	                            stored, in its match's cluster or,
//	                            drifting, its own (drift.go); an article
//	                            published before its match heads it
//	                            instead (ingest_promote.go); each copy's
//	                            credit (ingest_credit.go)
//	commit   service.go         withRetry commits, or runs it again after a
//	                            conflict between concurrent writers
//
// # The writers' locks
//
// Shared by every writer — ingest, corrections, upgrades, the editors'
// decisions: the key, content and sentence locks of an article (locks.go),
// known boilerplate that takes none (locks_boilerplate.go), a group's lock
// budget (locks_budget.go), the locks of the groups in flight
// (locks_held.go), a cluster's lock and the match checked under it
// (locks_cluster.go), and the turns that bound how many groups and checks
// run at once (turns.go).
//
// # After an article is stored
//
// New content under a stored key corrects the article in place (correct.go)
// or leaves, its dependants judged again (dependants.go,
// dependants_judge.go), measured in memory where they can be
// (rules_links.go), the credit of each copy that links elsewhere judged
// anew (recredit.go); its earlier contents are kept as versions
// (versions.go). The links a sentence made before it became boilerplate
// are judged again once it is (dependants_boilerplate.go). Stored articles move to a new fingerprint version in
// upgrade.go.
//
// # The rules
//
// The verdict's rules read nothing and lock nothing: decide (near and exact,
// rules_near.go), boilerplate (rules_boilerplate.go), partial duplicates
// (rules_partial.go, rules_sentences.go), what an article shares
// (rules_shared.go), similarity (rules_similarity.go), the links of
// dependants (rules_links.go), the member a cluster keeps (rules_keep.go), a
// cluster's original (rules_original.go), the partial duplicate that heads a
// cluster of its own rather than drift from its match's (rules_drift.go), a
// group's order (rules_group.go), the diff's summary in a line
// (rules_difference.go), the article a copy links to by publication
// (rules_lineage.go), how a copy credits its original (rules_credit.go),
// and the order they apply in
// (rules_verdict.go). Judging one article, a group, or stored articles again
// reads what they ask for and hands it to them.
//
// # The values
//
// What the rules judge and the storage answers, pure as the rules are: an
// article (article.go), a verdict (verdict.go), a request's options
// (options.go), the queries the service asks its storage and their answers
// (queries.go), the sources and credit classes (credit.go), the editors'
// decisions (decision.go), a cluster's view
// (cluster_view.go), the list's query and rows (cluster_query.go), a
// search's terms (search_terms.go), an editor's session (session.go).
//
// # The read side
//
// A check (check.go) judges as an ingest does and writes nothing; one
// that allows it answers without a sentence partition that is down, its
// verdict marked incomplete (check_incomplete.go). Reading
// articles (articles.go), comparing two texts (compare.go) and marking what
// they share (highlight.go) and the diff of two texts, bounded whatever
// they are (diff.go), the sentences an article shares with
// others (sentences.go), search (search.go), the day at a glance
// (overview.go), who copied a desk's stories (copies.go), a cluster's
// members by hour and source (timeline.go).
//
// # The editors
//
// editorial.go runs their decisions; a cluster's view (editorial_cluster.go),
// the list of clusters (editorial_clusters.go, listing.go), keep and reset
// (editorial_keep.go), split and its undo (editorial_split.go,
// editorial_undo_split.go), side by side (editorial_side_by_side.go), the
// changes between members (editorial_changes.go), what the original
// corrected and who still carries it (editorial_corrections.go), other
// coverage (editorial_coverage.go), the decisions across clusters
// (decision_log.go); sessions.go, the editors' sessions.
//
// # What a room may use
//
// The four rooms — ingest_*, judge_*, dependants_*, editorial_* — use each
// other only as rooms_test.go allows: the editors' files take the writers'
// locks and leave (dependants.go), and judge nothing. The rules and the
// values use nothing but each other (TestPureFilesReadNothing).
//
// Measurements and the alternatives tried live in docs/design-notes.md
// ("service"), not above the code.
package service
