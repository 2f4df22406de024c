#!/usr/bin/env bash
# The whole test suite, as `make test` and CI run it. Every step runs even when an earlier one failed; the script
# ends with the skipped tests (and why), each step's result and time, and exits non-zero if any step failed.
#
#   STRESS=1 make test    also keeps every core busy (one `yes >/dev/null` per core) for the whole run, to prove the
#                         tests hold on a loaded machine; GUI deadlines are doubled (VOLTEX_TIMEOUT_SCALE=2).
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/go/bin:$PATH"

work=$(mktemp -d)
skips="$work/skips"
: >"$skips"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ -n "${STRESS:-}" ] && [ "${STRESS}" != 0 ]; then
  n=$(nproc)
  for _ in $(seq "$n"); do
    yes >/dev/null &
    pids+=($!)
  done
  export VOLTEX_TIMEOUT_SCALE="${VOLTEX_TIMEOUT_SCALE:-2}"
  echo "== STRESS: $n busy processes (one per core) run beside the tests; GUI deadlines ×$VOLTEX_TIMEOUT_SCALE"
fi

# ../shared holds test inputs from outside the project (see README, "Tests"). Without it those tests skip and say
# so in the summary; CI has it beside the clone, so there its absence is an error, never a silent skip.
if [ ! -d ../shared/testdata ]; then
  if [ -n "${CI:-}" ]; then
    echo "error: ../shared/testdata is missing beside the clone; CI must provide it (see README, Tests)"
    exit 1
  fi
  echo "== note: ../shared/testdata is absent: the tests that read it will be skipped (listed at the end)"
fi

# GL tests use a headless EGL context and GUI tests start their own Xvfb; a display is provided anyway for any test
# that wants one, so that nothing depends on the caller's environment.
if [ -z "${DISPLAY:-}" ]; then
  fdfile="$work/display"
  Xvfb -displayfd 4 -screen 0 1600x1000x24 -nolisten tcp 4>"$fdfile" >/dev/null 2>&1 &
  pids+=($!)
  for _ in $(seq 100); do [ -s "$fdfile" ] && break; sleep 0.1; done
  export DISPLAY=":$(tr -d '\n' <"$fdfile")"
  echo "== started Xvfb on $DISPLAY"
fi

results=()
failed=0
started=$SECONDS
# step NAME COMMAND...: runs one step, records its result and time, and carries on whatever happens.
step() {
  local name=$1 t0=$SECONDS status=ok
  shift
  echo "== $name"
  if ! "$@"; then
    status=FAILED
    failed=1
  fi
  results+=("$(printf '  %-50s %-6s %4d s' "$name" "$status" $((SECONDS - t0)))")
}

check_gofmt() {
  local bad
  bad=$(gofmt -l .)
  [ -z "$bad" ] && return 0
  echo "gofmt: these files need formatting:"
  echo "$bad"
  return 1
}

# gotest ARGS...: go test -json, shown as plain go test output (packages, failures) by internal/testreport.
report="$work/testreport"
gotest() {
  go test -json "$@" | "$report" -skips "$skips"
}

step "gofmt -l" check_gofmt
step "go vet ./..." go vet ./...
step "build the test reporter" go build -o "$report" ./internal/testreport
step "go test ./..." gotest -count=1 -timeout 20m ./...
# examples/arena is a game module of its own: its editor links, its tests run its systems on an export.
arena() { (cd examples/arena && go vet ./... && go build -o /dev/null ./cmd/arena-editor && gotest -count=1 ./...); }
step "examples/arena" arena
step "go test -race (pure packages, inspector, editor)" gotest -count=1 -race -timeout 20m ./ecs/... ./serialize/... \
  ./assets/... ./viewport ./inspector/... ./editor/... ./internal/pngfile ./internal/treeshape ./internal/assetref ./internal/words
step "golangci-lint (staticcheck among its linters)" ./scripts/lint.sh

echo
if [ -s "$skips" ]; then
  echo "== skipped tests (and why)"
  sort -u "$skips" | awk -F'\t' '{ printf "  %s %s: %s\n", $1, $2, $3 }'
else
  echo "== no test was skipped"
fi
echo "== summary ($(((SECONDS - started) / 60)) min $(((SECONDS - started) % 60)) s${STRESS:+, STRESS=$STRESS})"
printf '%s\n' "${results[@]}"
if [ "$failed" != 0 ]; then
  echo "== FAILED"
  exit 1
fi
echo "== all tests passed"
