// Package docexamples reads the request and response examples of the
// project's Markdown documents (README.md, docs/api.md), so that a test can
// send each request to a fresh server and hold the document to the answer,
// and so that the answers can be written back when they change on purpose.
//
// The convention (docs/development.md, "The documents' examples"): an HTML
// comment
//
//	<!-- example 201 -->
//
// on a line of its own, then a ```sh block holding one curl command, then a
// ```json block holding the answer; the number is the expected HTTP status.
// A string value of the form "<time>" — a lower-case name in angle brackets
// — in an answer stands for a value the server chooses (a time of
// ingestion): it matches any value, but the field must be there.
//
//	example.go   the pairs found in a document, and writing answers back
//	curl.go      the curl command of a request, read as curl reads it
//	json.go      answers compared as JSON, placeholders kept on rewrite
package docexamples
