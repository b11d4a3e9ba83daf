#!/usr/bin/env bash
# run_bench.sh — times npkit-analyze's info, report, trace and bandwidth commands on a legacy
# NPKit dump and prints throughput and peak memory (docs/performance.md).
#
#   bench/run_bench.sh DUMP_DIR [OUT_DIR]
#
# trace runs twice, writing JSON and Perfetto's protobuf format (the same spans).
# Each command runs REPEAT times (default 3) under build/bin/npkit_measure (fork/exec, wall
# time, CPU time, peak RSS from wait4). The dump is read once before each command, so runs are
# warm-cache (dropping the page cache needs root and would time the disk, not the analyzer).
# events/s = event records in the dump / best wall seconds; MB/s = event bytes / best wall s.
# If DUMP_DIR.expected exists (written by npkit_gen_legacy_dump) its record and span counts are
# used and the trace's "ph":"X" events are checked against the expected span count.
# Environment: NPKIT_ANALYZE, NPKIT_MEASURE (binaries); REPEAT; KEEP_TRACE=1 keeps
# OUT_DIR/trace.json and trace.pftrace (deleted after counting by default: GBs for a large dump);
# TRACE_TMPFS_DIR=/dev/shm adds a trace run writing into that (memory-backed) directory, which
# separates formatting speed from the disk's write speed (needs ~7x the dump's size free there);
# NPKIT_ARGS="--threads 1" adds those arguments to every command.
set -euo pipefail

usage() { sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; }
[[ $# -ge 1 && $# -le 2 && $1 != -h && $1 != --help ]] || {
  usage >&2
  exit 2
}

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
dump=${1%/}
out=${2:-$(mktemp -d /tmp/npkit-bench.XXXXXX)}
analyze=${NPKIT_ANALYZE:-$top/build/bin/npkit-analyze}
measure=${NPKIT_MEASURE:-$top/build/bin/npkit_measure}
repeat=${REPEAT:-3}
read -r -a extra <<<"${NPKIT_ARGS:-}"

[[ -d $dump ]] || { echo "run_bench: $dump is not a directory" >&2; exit 2; }
for b in "$analyze" "$measure"; do
  [[ -x $b ]] || { echo "run_bench: $b not found; build it first (cmake --build build)" >&2; exit 2; }
done
mkdir -p "$out"

# Sizes: event files only (the clock files are a few bytes).
read -r event_files event_bytes < <(find "$dump" -maxdepth 1 -type f \
  \( -name 'gpu_events_rank_*' -o -name 'cpu_events_rank_*' \) -printf '%s\n' |
  awk '{ n++; s += $1 } END { printf "%d %d\n", n, s }')
[[ $event_bytes -gt 0 ]] || { echo "run_bench: $dump holds no event bytes" >&2; exit 2; }
records=$((event_bytes / 16))
records_from="event bytes / 16"
expected_spans=""
if [[ -f $dump.expected ]]; then
  records=$(sed -n 's/^records=//p' "$dump.expected")
  expected_spans=$(sed -n 's/^spans=//p' "$dump.expected")
  records_from="$dump.expected"
fi

cache=$top/build/CMakeCache.txt
echo "== npkit-analyze benchmark, $(date -u +%Y-%m-%dT%H:%MZ)"
echo "machine:  $(nproc) CPU(s), $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)," \
  "$(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)," \
  "$(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME"), kernel $(uname -r)"
echo "load:     $(cut -d' ' -f1-3 /proc/loadavg) (1/5/15 min) before the runs"
if [[ -f $cache ]]; then
  echo "build:    $(sed -n 's/^CMAKE_BUILD_TYPE:STRING=//p' "$cache")," \
    "$("$(sed -n 's/^CMAKE_CXX_COMPILER:FILEPATH=//p' "$cache")" --version | head -1)"
fi
echo "analyzer: $analyze ($("$analyze" --version 2>&1 | head -1))"
echo "dump:     $dump: $event_files event files, $event_bytes bytes," \
  "$records records ($records_from)${expected_spans:+, $expected_spans spans expected}"
echo "output:   $out"
echo "runs:     $repeat per command, warm page cache (dump read before each command)"
echo "args:     ${NPKIT_ARGS:-(none added)}"

# run LABEL ARGS... — measures one command; leaves key=value lines in $out/LABEL.measure.
run() {
  local label=$1
  shift
  echo
  echo "-- $label: $analyze $* ${extra[*]}"
  find "$dump" -maxdepth 1 -type f -exec cat {} + >/dev/null
  if ! "$measure" --repeat "$repeat" --stdout "$out/$label.out" -- "$analyze" "$@" "${extra[@]}" \
    >"$out/$label.measure" 2>"$out/$label.err"; then
    cat "$out/$label.measure"
    echo "run_bench: '$label' failed; its stderr:" >&2
    tail -n 20 "$out/$label.err" >&2
    return 1
  fi
  sed 's/^/   /' "$out/$label.measure"
}

# value LABEL KEY — a field of LABEL's summary line (empty if LABEL failed or did not run).
value() {
  [[ -s $out/$1.measure ]] || return 0
  sed -n "s/^summary.* $2=\([^ ]*\).*status=0$/\1/p" "$out/$1.measure"
}

failed=0
labels=(info report trace)
run info info "$dump" || failed=1
run report report "$dump" || failed=1
run trace trace "$dump" -o "$out/trace.json" --max-size 0 || failed=1
labels+=(trace-perfetto)
run trace-perfetto trace "$dump" -o "$out/trace.pftrace" --max-size 0 || failed=1

trace_events=""
trace_bytes=""
perfetto_bytes=""
if [[ -f $out/trace.json ]]; then
  trace_bytes=$(stat -c %s "$out/trace.json")
  trace_events=$(grep -o -E '"ph" ?: ?"X"' "$out/trace.json" | wc -l)
  [[ -n ${KEEP_TRACE:-} ]] || rm -f "$out/trace.json"
fi
if [[ -f $out/trace.pftrace ]]; then
  perfetto_bytes=$(stat -c %s "$out/trace.pftrace")
  [[ -n ${KEEP_TRACE:-} ]] || rm -f "$out/trace.pftrace"
fi
if [[ -n ${TRACE_TMPFS_DIR:-} ]]; then
  labels+=(trace-tmpfs)
  tmpfs_trace=$TRACE_TMPFS_DIR/npkit-bench-trace.$$.json
  run trace-tmpfs trace "$dump" -o "$tmpfs_trace" --max-size 0 || failed=1
  rm -f "$tmpfs_trace"
fi
labels+=(bandwidth)
run bandwidth bandwidth "$dump" --coll all || failed=1

echo
echo "== results: best of $repeat runs (median in brackets); $records records, $event_bytes event bytes"
echo
echo "| command | wall s | CPU s | M records/s | MB/s | peak RSS MB | RSS % of dump | M events written/s |"
echo "|---|---|---|---|---|---|---|---|"
for label in "${labels[@]}"; do
  b=$(value "$label" best_wall_s)
  if [[ -z $b ]]; then
    echo "| $label | failed | | | | | | |"
    continue
  fi
  written=""
  [[ $label == trace* ]] && written=${trace_events:-}  # the same spans in both formats
  awk -v l="$label" -v b="$b" -v md="$(value "$label" median_wall_s)" \
    -v c="$(value "$label" best_cpu_s)" -v rss="$(value "$label" max_maxrss_kib)" \
    -v rec="$records" -v by="$event_bytes" -v w="$written" 'BEGIN {
      printf "| %s | %.2f (%.2f) | %.2f | %.1f | %.0f | %.1f | %.1f | %s |\n", l, b, md, c,
             rec / b / 1e6, by / b / 1e6, rss * 1024 / 1e6, 100 * rss * 1024 / by,
             (w == "" ? "" : sprintf("%.2f", w / b / 1e6)) }'
done

if [[ -n $trace_bytes ]]; then
  echo
  awk -v n="$trace_events" -v sz="$trace_bytes" 'BEGIN {
    printf "trace output: %.0f bytes (%.1f MB, %.0f bytes per event), %.0f \"ph\":\"X\" events\n",
           sz, sz / 1e6, (n > 0 ? sz / n : 0), n }'
  if [[ -n $perfetto_bytes ]]; then
    awk -v p="$perfetto_bytes" -v sz="$trace_bytes" 'BEGIN {
      printf "perfetto trace output: %.0f bytes (%.1f MB, %.1f %% of the JSON)\n", p, p / 1e6, 100 * p / sz }'
  fi
  if [[ -n $expected_spans ]]; then
    if [[ $trace_events -eq $expected_spans ]]; then
      echo "trace check: $trace_events X events = $expected_spans spans expected: OK"
    else
      echo "trace check: $trace_events X events, $expected_spans spans expected: MISMATCH"
      failed=1
    fi
  fi
fi

# Targets from the performance issue (docs/performance.md).
rb=$(value report best_wall_s)
if [[ -n $rb ]]; then
  echo
  tb=$(value trace best_wall_s)
  pb=$(value trace-perfetto best_wall_s)
  awk -v b="$rb" -v rss="$(value report max_maxrss_kib)" -v rec="$records" -v by="$event_bytes" \
    -v tn="${trace_events:-0}" -v tb="${tb:-0}" -v pb="${pb:-0}" -v pby="${perfetto_bytes:-0}" \
    -v jby="${trace_bytes:-0}" 'BEGIN {
      r = rec / b / 1e6; p = 100 * rss * 1024 / by
      printf "target report >= 50 M records/s:       %6.1f   %s\n", r, (r >= 50 ? "met" : "NOT met")
      printf "target report peak RSS <= 25%% of dump: %6.1f%%  %s\n", p, (p <= 25 ? "met" : "NOT met")
      if (tb > 0 && tn > 0) {
        t = tn / tb / 1e6
        printf "target trace >= 3 M events written/s:  %6.2f   %s\n", t, (t >= 3 ? "met" : "NOT met")
        printf "target trace JSON >= 5 M spans/s:      %6.2f   %s\n", t, (t >= 5 ? "met" : "NOT met")
      }
      if (pb > 0 && tn > 0) {
        t = tn / pb / 1e6
        printf "target trace perfetto >= 15 M spans/s: %6.2f   %s\n", t, (t >= 15 ? "met" : "NOT met")
      }
      if (pby > 0 && jby > 0) {
        r = 100 * pby / jby
        printf "target perfetto <= 30%% of the JSON:    %6.1f%%  %s\n", r, (r <= 30 ? "met" : "NOT met")
      }
    }'
fi
exit "$failed"
