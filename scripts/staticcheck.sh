#!/usr/bin/env bash
# staticcheck, pinned (run through `go run`, so it never enters go.mod), over every package and the e2e tests' build
# tag. make test runs it; `make lint` runs it alone.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/go/bin:$PATH"
STATICCHECK_VERSION=v0.8.2 # staticcheck 2026.2.2
go run "honnef.co/go/tools/cmd/staticcheck@${STATICCHECK_VERSION}" -tags voltextest ./...
