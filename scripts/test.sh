#!/usr/bin/env bash
# The whole test suite, as `make test` and CI run it.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/go/bin:$PATH"

echo "== gofmt"
bad=$(gofmt -l .)
if [ -n "$bad" ]; then
  echo "gofmt: these files need formatting:"; echo "$bad"; exit 1
fi

echo "== go vet"
go vet ./...

# GL tests use a headless EGL context and GUI tests start their own Xvfb; a display is provided anyway for any test
# that wants one, so that nothing depends on the caller's environment.
if [ -z "${DISPLAY:-}" ]; then
  fdfile=$(mktemp)
  Xvfb -displayfd 4 -screen 0 1600x1000x24 -nolisten tcp 4>"$fdfile" >/dev/null 2>&1 &
  xvfb_pid=$!
  trap 'kill $xvfb_pid 2>/dev/null || true; rm -f "$fdfile"' EXIT
  for _ in $(seq 100); do [ -s "$fdfile" ] && break; sleep 0.1; done
  export DISPLAY=":$(tr -d '\n' <"$fdfile")"
  echo "== started Xvfb on $DISPLAY"
fi

echo "== go test"
go test -count=1 -timeout 20m ./...

echo "== examples/arena (a game module of its own: its editor links, its tests run its systems on an export)"
(cd examples/arena && go vet ./... && go build -o /dev/null ./cmd/arena-editor && go test -count=1 ./...)

echo "== go test -race (every pure package, the inspector and the editor)"
go test -count=1 -race -timeout 20m ./ecs/... ./serialize/... ./assets/... ./viewport ./inspector/... ./editor/... \
  ./internal/pngfile ./internal/treeshape

echo "== staticcheck"
./scripts/staticcheck.sh

echo "== all tests passed"
