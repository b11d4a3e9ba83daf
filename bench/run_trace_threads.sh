#!/usr/bin/env bash
# run_trace_threads.sh — times `npkit-analyze trace` on one legacy NPKit dump at several
# --threads, in both formats, and checks that every thread count writes the same bytes
# (docs/performance.md, "trace on more cores").
#
#   bench/run_trace_threads.sh DUMP_DIR [OUT_DIR]
#
# THREADS lists the thread counts (default: 1 2 4 ... up to the core count); REPEAT the runs
# per point (default 2), each under npkit_measure (wall, CPU, peak RSS), warm page cache. The
# spans come from DUMP_DIR.expected (npkit_gen_legacy_dump writes it) or SPANS=N. Traces go to
# OUT_DIR (default: a new directory under /tmp) and are deleted after each point; the first
# thread count's files are kept until the end to compare with (cmp). Environment:
# NPKIT_ANALYZE, NPKIT_MEASURE (binaries).
set -euo pipefail

usage() { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; }
[[ $# -ge 1 && $# -le 2 && $1 != -h && $1 != --help ]] || {
  usage >&2
  exit 2
}

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
dump=${1%/}
out=${2:-$(mktemp -d /tmp/npkit-threads.XXXXXX)}
analyze=${NPKIT_ANALYZE:-$top/build/bin/npkit-analyze}
measure=${NPKIT_MEASURE:-$top/build/bin/npkit_measure}
repeat=${REPEAT:-2}
cores=$(nproc)
if [[ -z ${THREADS:-} ]]; then
  THREADS=""
  for ((t = 1; t < cores; t *= 2)); do THREADS+="$t "; done
  THREADS+=$cores
fi
spans=${SPANS:-$(sed -n 's/^spans=//p' "$dump.expected" 2>/dev/null || true)}

fail() {
  echo "run_trace_threads: $*" >&2
  exit 2
}
[[ -d $dump ]] || fail "$dump is not a directory"
[[ -n $spans ]] || fail "no span count: give SPANS=N or a DUMP_DIR.expected with spans=N"
for b in "$analyze" "$measure"; do
  [[ -x $b ]] || fail "$b not found; build it first (cmake --build build)"
done
mkdir -p "$out"

echo "== trace at several --threads, $(date -u +%Y-%m-%dT%H:%MZ)"
echo "machine:  $cores CPU(s), $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)," \
  "$(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
echo "load:     $(cut -d' ' -f1-3 /proc/loadavg) (1/5/15 min) before the runs"
echo "dump:     $dump: $(du -sb "$dump" | cut -f1) bytes, $spans spans"
echo "output:   $out; $repeat run(s) per point"
echo
echo "| format | --threads | wall s (best) | CPU s | peak RSS MB | M spans/s | same bytes |"
echo "|---|---|---|---|---|---|---|"
failed=0
for format in json perfetto; do
  first=""
  for t in $THREADS; do
    trace=$out/trace-$t.$format
    find "$dump" -maxdepth 1 -type f -exec cat {} + >/dev/null
    if ! "$measure" --repeat "$repeat" -- "$analyze" trace "$dump" -o "$trace" --format "$format" \
      --threads "$t" --max-size 0 --quiet >"$out/measure" 2>"$out/err"; then
      echo "| $format | $t | failed | | | | |"
      tail -n 5 "$out/err" >&2
      failed=1
      continue
    fi
    summary=$(grep '^summary' "$out/measure")
    get() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$summary"; }
    same="(reference)"
    if [[ -z $first ]]; then
      first=$trace
    else
      if cmp -s "$first" "$trace"; then same=yes; else same=NO; failed=1; fi
      rm -f "$trace"
    fi
    awk -v f="$format" -v t="$t" -v w="$(get best_wall_s)" -v c="$(get best_cpu_s)" \
      -v r="$(get max_maxrss_kib)" -v n="$spans" -v s="$same" 'BEGIN {
        printf "| %s | %s | %.2f | %.2f | %.1f | %.2f | %s |\n", f, t, w, c, r * 1024 / 1e6,
               n / w / 1e6, s }'
  done
  [[ -n $first ]] && rm -f "$first"
done
exit $failed
