# driftboard — see README.md. Every target works on a fresh machine with Go.
GO       ?= go
BIN      := bin/driftboard
PKGS     := ./...
# The real control plane the tests run against (built once by 'make testenv').
TESTENV  := $(CURDIR)/.testenv/k8s-v1.37.2_etcd-v3.7.3_kwok-v0.8.0/bin
export DRIFTBOARD_TESTENV ?= $(TESTENV)

.PHONY: build test demo bench lint testenv screenshots fuzz clean

build:
	$(GO) build -o $(BIN) .

demo: build
	./$(BIN) demo

testenv:
	bash testenv/build.sh

test: testenv
	$(GO) test -count=1 -timeout 40m $(PKGS)

# Bounded fuzzing of everything that reads untrusted input (CI runs it). An
# iteration count, not a duration: a duration can end in "context deadline
# exceeded" when a loaded machine is slow to stop the workers.
FUZZTIME ?= 30000x
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzComputeDrift$$' -fuzztime $(FUZZTIME) ./drift
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeApp$$' -fuzztime $(FUZZTIME) ./kube
	$(GO) test -run '^$$' -fuzz '^FuzzParseQuery$$' -fuzztime $(FUZZTIME) ./model
	$(GO) test -run '^$$' -fuzz '^FuzzBuild$$' -fuzztime $(FUZZTIME) ./model
	$(GO) test -run '^$$' -fuzz '^FuzzParseImage$$' -fuzztime $(FUZZTIME) ./model
	$(GO) test -run '^$$' -fuzz '^FuzzObjectToRow$$' -fuzztime $(FUZZTIME) ./e2e

# Fleet-scale figures against a real API server (N = 2,000 and 10,000; ~8 min;
# DRIFTBOARD_BENCH_SIZES=2000 and DRIFTBOARD_BENCH_SECONDS=10 shorten it),
# then the micro-benchmarks of the pure parts.
bench: testenv
	$(GO) test -run '^$$' -bench . -benchmem -benchtime 1x -timeout 60m ./bench
	$(GO) test -run '^$$' -bench . -benchmem ./drift ./model ./ui ./kube

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)
	$(GO) run honnef.co/go/tools/cmd/staticcheck@latest $(PKGS)

screenshots: build
	$(GO) run ./screenshots/gen

clean:
	rm -rf bin
