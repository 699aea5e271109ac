# driftboard — see README.md. Every target works on a fresh machine with Go.
GO       ?= go
BIN      := bin/driftboard
PKGS     := ./...
# The real control plane the tests run against (built once by 'make testenv').
TESTENV  := $(CURDIR)/.testenv/k8s-v1.37.2_etcd-v3.7.3_kwok-v0.8.0/bin
KARMADA  := $(CURDIR)/.testenv/karmada-v1.18.2/bin
export DRIFTBOARD_TESTENV ?= $(TESTENV)
export DRIFTBOARD_KARMADA ?= $(KARMADA)

.PHONY: build install test demo bench bench-peer lint testenv screenshots fuzz release-check clean

# The version stamp (driftboard version); .goreleaser.yaml sets the same three.
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT   ?= $(shell git rev-parse HEAD 2>/dev/null)
# The last commit's date, not the clock's: the same tree links the same
# binary, so a second 'make demo' does not relink (goreleaser: CommitDate).
DATE     ?= $(or $(shell TZ=UTC0 git log -1 --format=%cd --date=format-local:%Y-%m-%dT%H:%M:%SZ 2>/dev/null),unknown)
LDFLAGS  := -s -w -X github.com/hanzoai/driftboard/internal/cli.version=$(VERSION) \
            -X github.com/hanzoai/driftboard/internal/cli.commit=$(COMMIT) \
            -X github.com/hanzoai/driftboard/internal/cli.date=$(DATE)
# A static binary: no libc to match on the machine it is copied to.
export CGO_ENABLED ?= 0

build:
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) .

# Into $(go env GOBIN), else $(go env GOPATH)/bin, like 'go install'.
install:
	$(GO) install -trimpath -ldflags '$(LDFLAGS)' .

demo: build
	./$(BIN) demo

testenv:
	bash internal/testing/testenv/build.sh

test: testenv
	$(GO) test -count=1 -timeout 40m $(PKGS)

# Bounded fuzzing of everything that reads untrusted input (CI runs it). An
# iteration count, not a duration: a duration can end in "context deadline
# exceeded" when a loaded machine is slow to stop the workers.
FUZZTIME ?= 30000x
FUZZTIME_UI ?= 3000x
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzComputeDrift$$' -fuzztime $(FUZZTIME) ./drift
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeApp$$' -fuzztime $(FUZZTIME) ./kube/wire
	$(GO) test -run '^$$' -fuzz '^FuzzFastDecodeApp$$' -fuzztime $(FUZZTIME) ./kube/wire
	$(GO) test -run '^$$' -fuzz '^FuzzFrameReader$$' -fuzztime $(FUZZTIME) ./kube/wire
	$(GO) test -run '^$$' -fuzz '^FuzzFastDecodeAppList$$' -fuzztime $(FUZZTIME) ./kube/wire
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeCDApplication$$' -fuzztime $(FUZZTIME) ./kube/wire
	$(GO) test -run '^$$' -fuzz '^FuzzWorkloadEventDecode$$' -fuzztime $(FUZZTIME) ./kube/wire
	$(GO) test -run '^$$' -fuzz '^FuzzParseQuery$$' -fuzztime $(FUZZTIME) ./model/query
	$(GO) test -run '^$$' -fuzz '^FuzzBuild$$' -fuzztime $(FUZZTIME) ./model
	$(GO) test -run '^$$' -fuzz '^FuzzParseImage$$' -fuzztime $(FUZZTIME) ./model/imageref
	$(GO) test -run '^$$' -fuzz '^FuzzCopyableReference$$' -fuzztime $(FUZZTIME) ./model/imageref
	$(GO) test -run '^$$' -fuzz '^FuzzViewMatchesFilterSort$$' -fuzztime $(FUZZTIME) ./model/query
	$(GO) test -run '^$$' -fuzz '^FuzzImageAgainstGGCR$$' -fuzztime $(FUZZTIME) ./model/imageref
	$(GO) test -run '^$$' -fuzz '^FuzzObjectToRow$$' -fuzztime $(FUZZTIME) ./internal/testing/e2e
	$(GO) test -run '^$$' -fuzz '^FuzzSetTag$$' -fuzztime $(FUZZTIME) ./internal/promote/yamledit
	$(GO) test -run '^$$' -fuzz '^FuzzParseRepoURL$$' -fuzztime $(FUZZTIME) ./internal/githubforge
	$(GO) test -run '^$$' -fuzz '^FuzzSanitize$$' -fuzztime $(FUZZTIME) ./internal/termtext
	$(GO) test -run '^$$' -fuzz '^FuzzTextPrinters$$' -fuzztime $(FUZZTIME) ./internal/cli
	# a whole board per input (~150/s): a tenth of the count
	$(GO) test -run '^$$' -fuzz '^FuzzHostileRow$$' -fuzztime $(FUZZTIME_UI) ./ui

# Fleet-scale figures against a real API server: kube.Fleet alone (N = 2,000
# and 10,000; DRIFTBOARD_BENCH_SIZES=2000 shortens it) and the whole board
# binary in a pty, each figure beside its target (N = 10,000;
# DRIFTBOARD_BENCH_BOARD_N=50000, or =5000 with DRIFTBOARD_BENCH_BOARD_CLUSTERS=5);
# DRIFTBOARD_BENCH_SECONDS=10 shortens the idle and churn phases (60 s each).
# Then the micro-benchmarks of the pure parts. ~15 min in all.
bench: testenv
	$(GO) test -run '^$$' -bench 'Fleet|Board|Karmada' -benchmem -benchtime 1x -timeout 60m ./internal/testing/bench
	$(GO) test -run '^$$' -bench . -benchmem ./drift ./model/... ./ui ./kube ./kube/wire

# k9s's Apps view and the board against one seeded API server, with the
# ratios (not in CI): make bench-peer K9S=$$(go env GOPATH)/bin/k9s, after
# go install github.com/derailed/k9s@v0.50.16 (about 6 minutes here).
bench-peer: testenv
	DRIFTBOARD_BENCH_K9S=$(K9S) $(GO) test -run '^$$' -bench Peer -benchtime 1x -timeout 60m ./internal/testing/bench

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)
	$(GO) run honnef.co/go/tools/cmd/staticcheck@latest $(PKGS)

screenshots: build
	$(GO) run ./screenshots/gen

# Validates .goreleaser.yaml and the krew manifest without publishing anything.
GORELEASER ?= github.com/goreleaser/goreleaser/v2@v2.15.1
release-check:
	$(GO) test -count=1 -run '^TestReleaseFiles' .
	$(GO) run $(GORELEASER) check

clean:
	rm -rf bin
