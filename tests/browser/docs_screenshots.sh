#!/usr/bin/env bash
# Regenerates the README's screenshots (docs/images/html-report-*.png) from the HTML reports of
# the real samples, with the same headless Chromium as the browser tests. Run from the repository
# root after a build:
#
#   tests/browser/docs_screenshots.sh [BUILD_DIR]     (default: build)
#
# Each image is one figure of a report (its title, note and plot), cropped from a full-page
# screenshot at 1:1 scale; the figure is found by the plot's title (its aria-label).
set -euo pipefail

build=${1:-build}
analyzer=$build/bin/npkit-analyze
checker=$build/bin/html_page_check
chromium=$(command -v chromium || command -v chromium-browser || command -v google-chrome)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# report SAMPLE NAME [REPORT ARGS...]: the page, its full-page screenshot and DOM in $work.
report() {
  local sample=$1 name=$2
  shift 2
  "$analyzer" report "$sample" --format html -o "$work/$name.html" -q "$@"
  "$chromium" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
    --user-data-dir="$work/profile" --no-first-run --disable-extensions \
    --disable-background-networking --disable-component-update --disable-sync \
    "--host-resolver-rules=MAP * ~NOTFOUND" --hide-scrollbars --force-device-scale-factor=1 \
    --window-size=1280,12000 --screenshot="$work/$name.png" --dump-dom "file://$work/$name.html" \
    >"$work/$name.dom" 2>/dev/null
}

# figure NAME TITLE OUTPUT [TOP]: crops the figure whose plot is titled TITLE plus TOP pixels above
# it (its title and note; default 84, for a two-line note).
figure() {
  local name=$1 title=$2 output=$3 top=${4:-84}
  local index rect x y w h
  index=$(grep -o 'aria-label="[^"]*"' "$work/$name.html" | grep -n -F "aria-label=\"$title" |
    head -1 | cut -d: -f1)
  [[ -n $index ]] || { echo "no plot titled '$title' in $name" >&2; exit 1; }
  rect=$("$checker" plots --dom "$work/$name.dom" | sed -n "${index}p")
  IFS=, read -r x y w h <<<"$rect"
  "$checker" crop --png "$work/$name.png" --out "$output" \
    --rect "$((x - 24)),$((y - top)),$((w + 48)),$((h + top + 14))"
  echo "$output"
}

report samples/nccl-h200/nvlink/dump nvlink
report samples/nccl-h200/socket/dump socket
report samples/npkit-h200/ring_simple/dump ring
report samples/device-h200/collectives/dump device --phase-map samples/device-collectives/phase-map.txt

mkdir -p docs/images
figure nvlink "AllReduce: bus bandwidth vs size" docs/images/html-report-busbw.png
figure socket "Lateness per rank" docs/images/html-report-lateness.png
figure socket "Timeline of" docs/images/html-report-timeline.png 100
figure ring "GPU time per rank by phase" docs/images/html-report-phases.png
figure device "GPU event time per rank by phase" docs/images/html-report-device-phases.png
