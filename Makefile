# newsdedup. Without DATABASE_URL, `make run` and `make test` start (or reuse)
# a local PostgreSQL cluster in .data/ with tools/cmd/devdb; with it, they use
# that.
#
# Two Go modules: the service at the top (what dedupd needs, nothing more) and
# tools/, the measuring programs and the local-cluster command, which import
# the service from this checkout.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
GO ?= go
TOOLS := cd tools &&

# A recipe prefix that sets and exports DATABASE_URL, starting the local
# cluster when it is empty. If devdb fails, so does the recipe.
with_db = if [[ -z "$${DATABASE_URL:-}" ]]; then DATABASE_URL="$$($(TOOLS) $(GO) run ./cmd/devdb -dir .. start)"; fi; export DATABASE_URL;

# The packages whose code takes locks or runs goroutines that share state:
# make test runs them under the race detector.
RACE_PKGS := ./service/... ./repo/... ./handlers/... ./cmd/...

.PHONY: test run build lint schema db-start db-stop db-url

# test: the whole suite of both modules against real PostgreSQL; a missing
# database fails it.
test:
	@$(with_db) \
	$(GO) test -count=1 -race -timeout 40m $(RACE_PKGS) && \
	$(GO) test -count=1 -timeout 20m ./internal/... ./migrations/... && \
	$(TOOLS) $(GO) test -count=1 -timeout 20m ./...

# run: migrate the database, then serve.
run: build
	@$(with_db) bin/dedupd migrate up && exec bin/dedupd serve

# build: the service binary, bin/dedupd.
build:
	$(GO) build -o bin/dedupd ./cmd/dedupd

# lint: fail on files gofmt would change, then go vet and staticcheck, in
# both modules. staticcheck is pinned and runs from the module cache.
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
lint:
	@unformatted="$$(find . \( -path ./.data -o -path ./.git -o -path ./bin \) -prune -o -name '*.go' -print | xargs -r gofmt -l)"; \
	if [[ -n "$$unformatted" ]]; then echo "gofmt -w these files:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	$(TOOLS) $(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...
	$(TOOLS) $(GO) run $(STATICCHECK) ./...

# schema: write migrations/schema/schema.sql, today's schema in one file: the
# migrations applied to a fresh database, dumped with pg_dump --schema-only
# (PostgreSQL 15's) and normalised. make test fails (TestSchema) while the
# file differs from what the migrations make: after a new migration, run
# this and commit the file.
schema:
	@$(with_db) $(GO) test -count=1 -v -run '^TestSchema$$' ./migrations/ -args -update | grep -E 'wrote|^(---|ok|FAIL)'

# readme: write the live answers into the examples of README.md and
# docs/api.md (TestDocExamples -update: each request sent, as written, to a
# fresh server on a fresh database); review the diff before committing.
.PHONY: readme
readme:
	@$(with_db) $(GO) test -count=1 -v -run '^TestDocExamples$$' ./cmd/dedupd/ -args -update | grep -E 'wrote|unchanged|^(---|ok|FAIL)|_test.go'

# db-start: start (or reuse) the local cluster and print its URL.
db-start:
	@$(TOOLS) $(GO) run ./cmd/devdb -dir .. start

# db-stop: stop the local cluster.
db-stop:
	@$(TOOLS) $(GO) run ./cmd/devdb -dir .. stop

# db-url: print the local cluster's URL, running or not.
db-url:
	@$(TOOLS) $(GO) run ./cmd/devdb -dir .. url

# parts-start: start N (4 by default) local sentence partitions in
# .data/parts, each its own cluster, prepare them, and register them in the
# local cluster, which it starts and migrates; prints its URL. parts-stop
# unregisters and stops them (the cluster's own table keeps every
# sentence). docs/scaling.md, "The sentence index in partitions".
.PHONY: parts-start parts-stop parts-status
N ?= 4
parts-start:
	@$(TOOLS) $(GO) run ./cmd/devdb -dir .. -parts $(N) start

parts-stop:
	@$(TOOLS) $(GO) run ./cmd/devdb -dir .. -parts $(N) stop

parts-status:
	@$(TOOLS) $(GO) run ./cmd/devdb -dir .. -parts $(N) status

# parts-move: move sentence partition PART to the database at TO (a libpq
# connection string, its server's wal_level logical) while the service
# serves; parts-split: double the partitions, TO one new database for each
# (space-separated). parts-test: the partition tests on real servers
# (stopped partition, move and split with identical match sets, rolled-back
# writes). docs/operations.md, "Sentence partitions".
.PHONY: parts-move parts-split parts-test
parts-move:
	@$(with_db) $(GO) run ./cmd/dedupd partitions move $(PART) '$(TO)'

parts-split:
	@$(with_db) $(GO) run ./cmd/dedupd partitions split $(TO)

parts-test:
	@$(with_db) $(GO) test -count=1 -run 'TestSentencePartition' ./repo/ ./cmd/dedupd/

# ha-start: start (or make) the local pg_auto_failover formation in .data/ha
# (a monitor, a primary and its synchronous standby; needs pg_autoctl),
# migrate it and print its URL of both nodes. ha-stop stops it; ha-status
# shows each node's state. run-ha serves against it (docs/operations.md).
.PHONY: ha-start ha-stop ha-status run-ha
ha-start:
	@$(TOOLS) $(GO) run ./cmd/devdb -dir .. -ha start

ha-stop:
	@$(TOOLS) $(GO) run ./cmd/devdb -dir .. -ha stop

ha-status:
	@$(TOOLS) $(GO) run ./cmd/devdb -dir .. -ha status

run-ha: build
	@DATABASE_URL="$$($(TOOLS) $(GO) run ./cmd/devdb -dir .. -ha start)"; export DATABASE_URL; exec bin/dedupd serve

# ---------------------------------------------------------------------------
# Measurements. Each writes its figures into docs/; they take minutes.
# ---------------------------------------------------------------------------

# bench: fingerprint throughput (go test -bench, one core), then the index,
# the full scan, pg_trgm and the HTTP API at 100k and 1M stored fingerprints
# (add TIERS=100k,1m,5m for the 5M tier), /v1/check on real news at 1M
# stored articles, the sentence lookup, ingest on real news, and corrections
# and deletions of a much-copied article, into docs/benchmarks.md.
# bench-news-check: /v1/check on real news (../shared/corpora) against
# 1,000,000 stored articles alone (about 6 min), merged into docs/benchmarks.*.
# bench-corrections: corrections and deletions of an article that 0, 100,
# 1,000 and 10,000 copies link to, alone (about 10 min), merged likewise.
# bench-ingest: batch ingest of real news (Sina, the first ARTICLES, batches
# of 100, 2 clients, sentence index on and off, REPS repetitions, a fresh
# database each run) side by side with the in-memory MinHash LSH peer in
# the same run, alternated; prints the rates, CPU an article and the ratios
# to the peer, each statement's time an article (pg_stat_statements, which
# devdb preloads: `make db-stop` first if the cluster was started before it
# did) and where this process's CPU time goes by stage (a CPU profile,
# .data/bench-ingest.pprof). Prints only; docs/ingest-profile.md says how
# to read it. About 2 minutes a repetition on a quiet machine.
TIERS ?= 100k,1m
ARTICLES ?= 8014
REPS ?= 2
.PHONY: bench bench-ingest bench-news-check bench-corrections eval
bench-ingest:
	@mkdir -p .data
	@$(with_db) $(TOOLS) $(GO) run ./cmd/dedupbench -only news-ingest -news-articles $(ARTICLES) -news-reps $(REPS) \
		-news-batch-clients 2 -news-single-clients 0 -cpuprofile $(CURDIR)/.data/bench-ingest.pprof -out $(CURDIR)/.data \
		$(if $(CORPORA),-corpora $(abspath $(CORPORA)))

bench:
	$(GO) test -run XXX -bench . -benchtime 3s -cpu 1 ./service/fingerprint/
	@$(with_db) $(TOOLS) $(GO) run ./cmd/dedupbench -tiers $(TIERS) -out ../docs

bench-news-check:
	@$(with_db) $(TOOLS) $(GO) run ./cmd/dedupbench -only news-check -out ../docs

bench-corrections:
	@$(with_db) $(TOOLS) $(GO) run ./cmd/dedupbench -only corrections -out ../docs

# eval: detection quality on real news (../shared/corpora, or CORPORA=DIR),
# end to end through the API, with the 围城 regression check and the sweep
# that picks the defaults, into docs/evaluation.md. Without the corpora it
# says so and measures 围城 alone.
CORPORA ?=
eval:
	@$(with_db) $(TOOLS) $(GO) run ./cmd/dedupeval -out ../docs $(if $(CORPORA),-corpora $(abspath $(CORPORA)))

# loadtest: the real dedupd under 50 clients of mixed traffic for 60 s (on
# until 100,000 requests, at most 8 min) against a fresh database, three
# runs one after the other (each its own database and dedupd), sending
# real news (../shared/corpora, Sina and CCTV shuffled together; without
# them 围城, and it says so); prints throughput, latencies, errors, memory
# and a Markdown section into docs/loadtest.md, which docs/benchmarks.md
# embeds.
# loadtest-crowded: the same on overlapping cuts of 围城, a crowded corpus
# where nearly every article has near neighbours (the worst case, not the
# goals' measure), into docs/loadtest-crowded.md: one run (each reaches the
# 8 min cap).
.PHONY: loadtest loadtest-crowded
loadtest:
	@$(with_db) $(TOOLS) $(GO) run ./cmd/dedupload -md ../docs/loadtest.md
	$(TOOLS) $(GO) run ./cmd/dedupbench -rerender ../docs/benchmarks.json -out ../docs

loadtest-crowded:
	@$(with_db) $(TOOLS) $(GO) run ./cmd/dedupload -corpus novel -reps 1 -md ../docs/loadtest-crowded.md
	$(TOOLS) $(GO) run ./cmd/dedupbench -rerender ../docs/benchmarks.json -out ../docs

# bench-failover: the time from the loss of the primary to the first
# acknowledged write, over RUNS runs of the failover test (two failovers
# each; about 1.5 min a run), into docs/failover.md; DETECTION=default for
# pg_auto_failover's own timing (about 1 min a failover), into
# docs/failover-default.md. Needs pg_autoctl.
# restore-drill: the backup and point-in-time restore drill with pgBackRest
# (cmd/dedupd TestRestoreDrill, also in make test), its figures printed.
RUNS ?= 3
DETECTION ?= fast
.PHONY: bench-failover restore-drill
bench-failover:
	$(TOOLS) $(GO) run ./cmd/failoverbench -runs $(RUNS) -detection $(DETECTION) \
		-md ../docs/failover$(if $(filter default,$(DETECTION)),-default).md

restore-drill:
	NEWSDEDUP_REQUIRE_HA=1 $(GO) test -count=1 -run '^TestRestoreDrill$$' -v ./cmd/dedupd/ | grep -E 'drill:|^(---|ok|FAIL)'

# screenshots: the browser test of the editors' page (tools/uitest), saving
# its screenshots into docs/ (needs chromium and fonts-wqy-zenhei).
.PHONY: screenshots
screenshots:
	@$(with_db) $(TOOLS) NEWSDEDUP_REQUIRE_BROWSER=1 NEWSDEDUP_SCREENSHOTS=$(CURDIR)/docs $(GO) test -count=1 -run 'TestEditorsPageInABrowser|TestSearchLanguagesAndLayoutInABrowser|TestDiffOriginalAndCoverageInABrowser' ./uitest/

# uibench: the editors' page and the cluster API at 1,000,000 stored
# articles (loaded with COPY, about 5 minutes), the heads of the 50 newest
# clusters 2 MB compilations (issue 44), into docs/ui.md.
.PHONY: uibench
uibench:
	@$(with_db) $(TOOLS) $(GO) run ./cmd/uibench -long-heads 50 -md ../docs/ui.md
