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

fuzz:
	$(GO) test -run '^$$' -fuzz FuzzComputeDrift -fuzztime 20s ./drift

bench: testenv
	$(GO) test -run '^$$' -bench . -benchmem $(PKGS)

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)
	$(GO) run honnef.co/go/tools/cmd/staticcheck@latest $(PKGS)

screenshots: build
	$(GO) run ./screenshots/gen

clean:
	rm -rf bin
