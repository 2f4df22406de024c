#!/usr/bin/env bash
# golangci-lint, pinned, with .golangci.yml (staticcheck runs inside it), over every package (examples/arena's
# too) and the e2e tests' build tag. It never enters go.mod: the first run installs that version into a cache folder
# beside the Go build cache (about 2 minutes on 2 cores), later runs reuse it. make test runs it; `make lint` runs it
# alone. Other runs on the machine (another checkout's) wait for it instead of failing it.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/go/bin:$PATH"
GOLANGCI_LINT_VERSION=v2.15.0
bin="$(go env GOCACHE)/../voltex-tools/golangci-lint-${GOLANGCI_LINT_VERSION}"
if [ ! -x "$bin/golangci-lint" ]; then
  echo "installing golangci-lint ${GOLANGCI_LINT_VERSION} into $bin"
  (cd / && GOBIN="$bin.tmp" GOFLAGS= go install "github.com/golangci/golangci-lint/v2/cmd/golangci-lint@${GOLANGCI_LINT_VERSION}")
  rm -rf "$bin" && mv "$bin.tmp" "$bin"
fi
"$bin/golangci-lint" run --allow-parallel-runners ./...
# examples/arena is a module of its own: its own run, with the same configuration.
(cd examples/arena && "$bin/golangci-lint" run --allow-parallel-runners ./...)
