#!/usr/bin/env bash
# Installs the Debian 12 packages Voltex Editor needs to build, run and test.
# Installs only what is missing; uses sudo when not root. Safe to run repeatedly.
set -euo pipefail
pkgs=(gcc pkg-config xvfb libx11-dev libxcursor-dev libxrandr-dev libxinerama-dev libxi-dev libxxf86vm-dev
      libgl1-mesa-dev libgl1-mesa-dri mesa-utils imagemagick xdotool x11-apps x11-utils git)
missing=()
for p in "${pkgs[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "install-deps: installing ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
