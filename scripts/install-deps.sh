#!/usr/bin/env bash
# Installs the Debian packages npkit-analyze needs to build and test, if any are missing.
#
#   scripts/install-deps.sh [--set analyzer|all] [--extra PKG...]
#
# --set analyzer: what building the analyzer (and the capture plugin, which needs nothing more)
#   takes: `make demo` and `make install`. --set all (the default): that and what the tests
#   take: `make test`.
# --extra adds optional packages (e.g. clang for fuzzing, clang-format for format checks).
# NPKIT_DEPS_PACKAGES, if set, replaces the set's package list (space-separated).
# As root, missing packages are installed with apt-get. Otherwise the command to run is printed
# and the script exits 2.
set -euo pipefail

usage() {
  echo "usage: $0 [--set analyzer|all] [--extra PKG...]" >&2
  exit 2
}

analyzer_packages="cmake g++ make libsimdjson-dev libcli11-dev libfmt-dev"
# catch2: the test framework. zlib1g-dev: the capture tests' recorded NCCL call streams and the
# browser tests' PNG reader. chromium: the browser tests load every sample's HTML report in
# headless Chromium (CI runs them). python3: scripts/ci-gate-example.sh (a CI test) edits a
# summary to inject a regression.
test_packages="catch2 zlib1g-dev chromium python3"

set_name=all
if [[ $# -ge 2 && $1 == --set ]]; then
  set_name=$2
  shift 2
fi
case $set_name in
  analyzer) default_packages=$analyzer_packages ;;
  all) default_packages="$analyzer_packages $test_packages" ;;
  *) usage ;;
esac
read -ra packages <<<"${NPKIT_DEPS_PACKAGES:-$default_packages}"
if [[ $# -gt 0 ]]; then
  [[ $1 == --extra ]] || usage
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
