#!/usr/bin/env bash
# usage: fuzz.sh DURATION — run every Fuzz target of the module for DURATION each.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/go/bin:$PATH"
time=${1:-30s}
for pkg in $(go list ./...); do
  for f in $(go test -list '^Fuzz' "$pkg" 2>/dev/null | grep '^Fuzz' || true); do
    echo "== $pkg $f ($time)"
    go test -run '^$' -fuzz "^${f}\$" -fuzztime "$time" "$pkg"
  done
done
# The prefab property test over many more random cases than make test runs (seeds 0..299).
echo "== serialize TestPrefabProperties (${PREFAB_SEEDS:-20000} more seeds)"
go test -count=1 -timeout 60m -run '^TestPrefabProperties$' ./serialize/ -args -prefab-seeds "${PREFAB_SEEDS:-20000}" -prefab-seed-from 300
