// Package repo stores newsdedup's articles in PostgreSQL with pgx. It
// implements service.Store: the SQL lives here and nowhere else, every
// statement is parameterised, and driver errors become service errors in one
// function (interpretError) so that no pgx type leaves the package.
//
// A fingerprint is indexed by eight smallint block columns, a0..a3 and
// b0..b3, each the 16 bits of the simhash under one mask
// (service/fingerprint/masks.go), with one B-tree each. The candidate query
// asks for a match in at least one family-A column and at least one family-B
// column, which PostgreSQL answers with a BitmapAnd of two BitmapOrs, then
// verifies bit_count(simhash # query) in the same statement. A sentence's
// eight block values are instead the keys of one GIN index over its
// simhash (sentences.go).
//
// The sentence index can live in partition databases reached through
// PL/Proxy (sentence_partitions.go): a check's search without the ones
// that are down (sentence_partitions_missing.go), moving and splitting them
// while serving (sentence_partitions_move.go), the sweep of rows of
// articles that do not exist (sentence_partitions_sweep.go), and the
// repair of rows a rolled-back correction left
// (sentence_partitions_repair.go).
package repo
