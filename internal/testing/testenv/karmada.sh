#!/usr/bin/env bash
# Builds Karmada's search proxy and Cluster API server into
# ../.testenv/karmada-<version>/bin, once per version. 'go install' of these
# commands fails (its deprecation check reads the proxy's version list), so the
# module is downloaded through the ordinary go command and built inside its
# own directory, with its own go.mod (it has no replace directives).
set -euo pipefail
cd "$(dirname "$0")"
KARMADA=v1.18.2
out="$(pwd)/../../../.testenv/karmada-${KARMADA}/bin"
bins=(karmada-search karmada-aggregated-apiserver)
missing=0
for b in "${bins[@]}"; do [ -x "$out/$b" ] || missing=1; done
if [ "$missing" = 0 ]; then echo "testenv: up to date in $out"; exit 0; fi
mkdir -p "$out"
# The module's folder from the go command's own JSON (no jq on a fresh machine).
dir=$(go mod download -json "github.com/karmada-io/karmada@${KARMADA}" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
[ -d "$dir" ] || { echo "testenv: karmada ${KARMADA}: no module folder from go mod download" >&2; exit 1; }
export CGO_ENABLED=0
ldflags="-s -w -X github.com/karmada-io/karmada/pkg/version.gitVersion=${KARMADA}"
build() { # name package
  [ -x "$out/$1" ] && return 0
  echo "testenv: building $1 (karmada ${KARMADA})"
  (cd "$dir" && go build -trimpath -ldflags "$ldflags" -o "$out/$1.tmp" "$2")
  mv "$out/$1.tmp" "$out/$1"
}
build karmada-search ./cmd/karmada-search
build karmada-aggregated-apiserver ./cmd/aggregated-apiserver
echo "testenv: built into $out"
