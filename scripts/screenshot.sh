#!/usr/bin/env bash
# usage: screenshot.sh BIN SCENE OUT.png — open the editor under a private Xvfb and capture the screen.
set -euo pipefail
bin=$1 scene=$2 out=$3
fdfile=$(mktemp)
Xvfb -displayfd 3 -screen 0 1600x1000x24 -nolisten tcp 3>"$fdfile" >/dev/null 2>&1 &
xvfb=$!
trap 'kill $editor 2>/dev/null || true; kill $xvfb 2>/dev/null || true; rm -f "$fdfile"' EXIT
for _ in $(seq 100); do [ -s "$fdfile" ] && break; sleep 0.1; done
export DISPLAY=":$(tr -d '\n' <"$fdfile")"
editor=""
"$bin" --size 1600x1000 --settings "$(mktemp -d)" "$scene" &
editor=$!
for _ in $(seq 300); do
  xdotool search --onlyvisible --name "Voltex Editor" >/dev/null 2>&1 && break
  sleep 0.1
done
sleep 3
mkdir -p "$(dirname "$out")"
import -window root "$out"
echo "wrote $out"
