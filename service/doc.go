// Package service holds newsdedup's domain: what an article is, how it is
// fingerprinted, and how the verdict — unique, near duplicate, exact
// duplicate — is decided and kept consistent under concurrent writers.
//
// It knows neither HTTP nor SQL. It declares the storage it needs (Store and
// Tx) and the repo package implements them with PostgreSQL; the handlers
// package turns HTTP requests into calls on Service. Every error it returns
// is an *Error with a Kind, so that the one place that speaks HTTP can map
// errors to statuses without knowing where they came from.
package service
