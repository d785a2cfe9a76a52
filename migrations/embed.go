// Package migrations holds the database schema as goose SQL migrations,
// embedded so that `dedupd migrate` needs no files on disk. The same folder
// works with the goose CLI: goose -dir migrations postgres "$DATABASE_URL" up.
package migrations

import "embed"

// FS holds every migration, named NNNNN_what.sql; schema/schema.sql, the
// schema they make, is generated for readers (make schema) and kept out of
// this folder's top level, which goose reads whole.
//
//go:embed [0-9]*.sql
var FS embed.FS
