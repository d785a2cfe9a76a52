# newsdedup. Without DATABASE_URL, `make run` and `make test` start (or reuse)
# a local PostgreSQL cluster in .data/ with cmd/devdb; with it, they use that.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
GO ?= go

# A recipe prefix that sets and exports DATABASE_URL, starting the local
# cluster when it is empty. If devdb fails, so does the recipe.
with_db = if [[ -z "$${DATABASE_URL:-}" ]]; then DATABASE_URL="$$($(GO) run ./cmd/devdb start)"; fi; export DATABASE_URL;

.PHONY: test run build lint db-start db-stop db-url

# test: the whole suite against real PostgreSQL; a missing database fails it.
test:
	@$(with_db) $(GO) test -count=1 -timeout 30m ./...

# run: migrate the database, then serve.
run: build
	@$(with_db) bin/dedupd migrate up && exec bin/dedupd serve

# build: the service binary, bin/dedupd.
build:
	$(GO) build -o bin/dedupd ./cmd/dedupd

# lint: fail on files gofmt would change, then go vet.
lint:
	@unformatted="$$(find . \( -path ./.data -o -path ./.git -o -path ./bin \) -prune -o -name '*.go' -print | xargs -r gofmt -l)"; \
	if [[ -n "$$unformatted" ]]; then echo "gofmt -w these files:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...

# db-start: start (or reuse) the local cluster and print its URL.
db-start:
	@$(GO) run ./cmd/devdb start

# db-stop: stop the local cluster.
db-stop:
	@$(GO) run ./cmd/devdb stop

# db-url: print the local cluster's URL, running or not.
db-url:
	@$(GO) run ./cmd/devdb url

# ---------------------------------------------------------------------------
# Measurements. Each writes its figures into docs/; they take minutes.
# ---------------------------------------------------------------------------

# bench: fingerprint throughput (go test -bench, one core), then the index,
# the full scan, pg_trgm and the HTTP API at 100k and 1M stored fingerprints
# (add TIERS=100k,1m,5m for the 5M tier) into docs/benchmarks.md.
TIERS ?= 100k,1m
.PHONY: bench eval
bench:
	$(GO) test -run XXX -bench . -benchtime 3s -cpu 1 ./service/fingerprint/
	@$(with_db) $(GO) run ./cmd/dedupbench -tiers $(TIERS) -out docs

# eval: detection quality on a labelled corpus from 围城, for both
# algorithms and pg_trgm, into docs/evaluation.md.
eval:
	@$(with_db) $(GO) run ./cmd/dedupeval -out docs

# loadtest: the real dedupd under 50 clients of mixed traffic for 60 s (on
# until 100,000 requests, at most 8 min) against a fresh database; prints
# throughput, latencies, errors, memory and a Markdown section.
.PHONY: loadtest
loadtest:
	@$(with_db) $(GO) run ./cmd/dedupload -md docs/loadtest.md
	$(GO) run ./cmd/dedupbench -rerender docs/benchmarks.json -out docs
