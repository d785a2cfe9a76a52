// Command uibench measures the editors' page (/ui/) and the cluster API at
// a newsroom's scale: it loads a database of 1,000,000 articles (100 days
// of 10,000, a thousand clusters a day) straight into the table with COPY,
// then serves the real stack in-process — repo, service, handlers, the
// page — signs in as an editor would and times every kind of page: the
// list with each filter, deep pages, a cluster side by side, the split
// confirmation, the JSON API, and the keep form. It prints a Markdown table
// of the latencies and, with -md, writes it into that file between the
// markers <!-- uibench:begin --> and <!-- uibench:end -->.
//
// Usage:
//
//	DATABASE_URL=postgres://… go run ./cmd/uibench [-articles 1000000] [-requests 30] [-keep] [-reuse NAME] [-only TEXT] [-md ../docs/ui.md]
//
// DATABASE_URL names a server where the role may CREATE DATABASE; the
// database uibench_<articles> is dropped at the end unless -keep (and
// -reuse measures a kept one again without loading it; -only times just
// the kinds of page whose name contains TEXT, for a quick look).
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout)
	stop()
	if err != nil {
		fmt.Fprintf(os.Stderr, "uibench: %v\n", err)
		os.Exit(1)
	}
}
