#!/usr/bin/env bash
# run_trace_vs_npkit.sh — converts one legacy NPKit dump into a trace with NPKit's own converter
# (npkit_trace_generator.py) and with `npkit-analyze trace` in both formats, in one run, and
# prints the times side by side (docs/performance.md, "Compared with NPKit's converter").
#
#   bench/run_trace_vs_npkit.sh DUMP_DIR NPKIT_TRACE_GENERATOR [OUT_DIR]
#
# NPKIT_TRACE_GENERATOR is NPKit's nccl_samples/npkit_trace_generator.py (not part of this
# repository: give the path of your NPKit checkout). It needs the dump's npkit_event.h:
# DUMP_DIR.npkit_event.h, which npkit_gen_legacy_dump writes, or NPKIT_EVENT_HEADER=FILE.
# NPKit's converter runs REPEAT_NPKIT times (default 1: it is slow), npkit-analyze REPEAT times
# (default 3), each under build/bin/npkit_measure (wall time, CPU time, peak RSS); the dump is
# read before each command, so every run is warm-cache. Traces go to OUT_DIR (default: a new
# directory under /tmp) and are deleted after counting unless KEEP_TRACE=1. speed-up = NPKit's
# best wall time / npkit-analyze's best wall time. Environment: NPKIT_ANALYZE, NPKIT_MEASURE,
# PYTHON (default python3).
set -euo pipefail

usage() { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; }
[[ $# -ge 2 && $# -le 3 && $1 != -h && $1 != --help ]] || {
  usage >&2
  exit 2
}

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
dump=${1%/}
generator=$2
out=${3:-$(mktemp -d /tmp/npkit-vs.XXXXXX)}
analyze=${NPKIT_ANALYZE:-$top/build/bin/npkit-analyze}
measure=${NPKIT_MEASURE:-$top/build/bin/npkit_measure}
python=${PYTHON:-python3}
header=${NPKIT_EVENT_HEADER:-$dump.npkit_event.h}
repeat=${REPEAT:-3}
repeat_npkit=${REPEAT_NPKIT:-1}

fail() {
  echo "run_trace_vs_npkit: $*" >&2
  exit 2
}
[[ -d $dump ]] || fail "$dump is not a directory"
[[ -f $generator ]] || fail "$generator: no such file (NPKit's nccl_samples/npkit_trace_generator.py)"
[[ -f $header ]] || fail "$header: no such file (set NPKIT_EVENT_HEADER to the dump's npkit_event.h)"
command -v "$python" >/dev/null || fail "$python not found"
for b in "$analyze" "$measure"; do
  [[ -x $b ]] || fail "$b not found; build it first (cmake --build build)"
done
mkdir -p "$out"

read -r event_files event_bytes < <(find "$dump" -maxdepth 1 -type f \
  \( -name 'gpu_events_rank_*' -o -name 'cpu_events_rank_*' \) -printf '%s\n' |
  awk '{ n++; s += $1 } END { printf "%d %d\n", n, s }')
[[ $event_bytes -gt 0 ]] || fail "$dump holds no event bytes"

echo "== trace: NPKit's converter and npkit-analyze on one dump, $(date -u +%Y-%m-%dT%H:%MZ)"
echo "machine:   $(nproc) CPU(s), $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)," \
  "$(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
echo "load:      $(cut -d' ' -f1-3 /proc/loadavg) (1/5/15 min) before the runs"
echo "dump:      $dump: $event_files event files, $event_bytes bytes, $((event_bytes / 16)) records"
echo "NPKit:     $python $generator ($("$python" --version 2>&1))"
echo "analyzer:  $analyze ($("$analyze" --version 2>&1 | head -1))"
echo "output:    $out"

# run LABEL COMMAND... — measures COMMAND; leaves its summary line in $out/LABEL.measure.
run() {
  local label=$1 times=$2
  shift 2
  echo
  echo "-- $label: $*"
  find "$dump" -maxdepth 1 -type f -exec cat {} + >/dev/null
  if ! "$measure" --repeat "$times" -- "$@" >"$out/$label.measure" 2>"$out/$label.err"; then
    cat "$out/$label.measure"
    tail -n 20 "$out/$label.err" >&2
    fail "'$label' failed"
  fi
  sed 's/^/   /' "$out/$label.measure"
}
value() { sed -n "s/^summary.* $2=\([^ ]*\).*status=0$/\1/p" "$out/$1.measure"; }

run npkit "$repeat_npkit" "$python" "$generator" --npkit_dump_dir "$dump" \
  --npkit_event_header_path "$header" --output_dir "$out/npkit"
run json "$repeat" "$analyze" trace "$dump" -o "$out/trace.json" --max-size 0 --quiet
run perfetto "$repeat" "$analyze" trace "$dump" -o "$out/trace.pftrace" --max-size 0 --quiet

npkit_trace=$out/npkit/npkit_event_trace.json
npkit_spans=$(grep -o -E '"ph": ?"B"' "$npkit_trace" | wc -l)
json_spans=$(grep -o -E '"ph": ?"X"' "$out/trace.json" | wc -l)
declare -A bytes=([npkit]=$(stat -c %s "$npkit_trace") [json]=$(stat -c %s "$out/trace.json")
  [perfetto]=$(stat -c %s "$out/trace.pftrace"))
if [[ -z ${KEEP_TRACE:-} ]]; then
  rm -rf "$out/npkit" "$out/trace.json" "$out/trace.pftrace"
fi

nb=$(value npkit best_wall_s)
echo
echo "== results: best wall time of the runs (median in brackets)"
echo
echo "| converter | wall s | CPU s | peak RSS MB | output bytes | spans | M spans/s | speed-up |"
echo "|---|---|---|---|---|---|---|---|"
for label in npkit json perfetto; do
  spans=$json_spans
  [[ $label == npkit ]] && spans=$npkit_spans
  awk -v l="$label" -v b="$(value "$label" best_wall_s)" -v md="$(value "$label" median_wall_s)" \
    -v c="$(value "$label" best_cpu_s)" -v rss="$(value "$label" max_maxrss_kib)" \
    -v by="${bytes[$label]}" -v n="$spans" -v nb="$nb" 'BEGIN {
      name = (l == "npkit" ? "NPKit npkit_trace_generator.py" : "npkit-analyze trace, " l)
      printf "| %s | %.3f (%.3f) | %.2f | %.1f | %d | %d | %.2f | %.0fx |\n", name, b, md, c,
             rss * 1024 / 1e6, by, n, n / b / 1e6, nb / b }'
done
echo
awk -v nb="$nb" -v jb="$(value json best_wall_s)" -v pb="$(value perfetto best_wall_s)" 'BEGIN {
  printf "target JSON >= 100x the NPKit converter:     %6.0fx  %s\n", nb / jb, (nb / jb >= 100 ? "met" : "NOT met")
  printf "target protobuf >= 300x the NPKit converter: %6.0fx  %s\n", nb / pb, (nb / pb >= 300 ? "met" : "NOT met")
}'
if [[ $npkit_spans -ne $json_spans ]]; then
  echo "note: NPKit's trace has $npkit_spans B/E spans, npkit-analyze's $json_spans (it pairs by" \
    "nesting; NPKit pairs by event type)"
fi
