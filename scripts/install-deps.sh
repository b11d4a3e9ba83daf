#!/usr/bin/env bash
# Installs the Debian packages npkit-analyze needs to build and test, if any are missing.
#
#   scripts/install-deps.sh [--extra PKG...]
#
# --extra adds optional packages (e.g. clang for fuzzing, clang-format for format checks).
# NPKIT_DEPS_PACKAGES, if set, replaces the default package list (space-separated).
# As root, missing packages are installed with apt-get. Otherwise the command to run is printed
# and the script exits 2.
set -euo pipefail

# chromium: the browser tests load every sample's HTML report in headless Chromium (CI runs them).
# python3: scripts/ci-gate-example.sh (a CI test) edits a summary to inject a regression.
read -ra packages <<<"${NPKIT_DEPS_PACKAGES:-libsimdjson-dev libcli11-dev libfmt-dev catch2 zlib1g-dev cmake g++ make chromium python3}"
if [[ $# -gt 0 ]]; then
  if [[ $1 != --extra ]]; then
    echo "usage: $0 [--extra PKG...]" >&2
    exit 2
  fi
  shift
  packages+=("$@")
fi

if ! command -v dpkg-query >/dev/null; then
  echo "install-deps: dpkg-query not found; this script supports Debian-based systems only" >&2
  exit 2
fi

missing=()
for pkg in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  [[ $status == *" ok installed" ]] || missing+=("$pkg")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

if [[ $(id -u) -ne 0 ]]; then
  echo "missing packages: ${missing[*]}" >&2
  echo "sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
  exit 2
fi

echo "install-deps: installing ${missing[*]}"
apt-get update
DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
