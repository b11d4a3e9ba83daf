#!/usr/bin/env bash
# Scale benchmark (docs/performance.md, "Scale"): synthetic N-rank plugin captures
# (npkit_gen_npkt_run) analyzed directly (`report`, `bandwidth --coll all` on every rank's file)
# and through the map/merge path (`summarize` of each node's files, one process per node in
# parallel; `summarize` of the node summaries into one; `diff` of the merged summary against
# itself, which reads and compares every row). Prints wall time, CPU time (user + sys: what the
# step costs whatever else runs on the machine) and peak RSS of each step (GNU time -v), and checks
# that each output covers every rank.
#
#   bench/run_scale.sh [BUILD_DIR] [WORK_DIR]
#
# Environment: RANKS (default "8 64 256 1024"), RANKS_PER_HOST (default 8), COLLECTIVES (default
# 100), CHANNELS (default 4), STEPS (default 2), MAP_JOBS (parallel map processes, default the
# core count), KEEP=1 keeps the generated runs. Writes WORK_DIR/scale.tsv.
set -euo pipefail

build=${1:-build}
work=${2:-/tmp/npkit-scale}
analyze=$build/bin/npkit-analyze
generate=$build/bin/npkit_gen_npkt_run
ranks_list=${RANKS:-"8 64 256 1024"}
per_host=${RANKS_PER_HOST:-8}
map_jobs=${MAP_JOBS:-$(nproc)}
for tool in "$analyze" "$generate"; do
  [[ -x $tool ]] || { echo "run_scale: $tool not built (cmake --build $build --target npkit-analyze npkit_gen_npkt_run)" >&2; exit 2; }
done
has_summarize=0
"$analyze" summarize --help >/dev/null 2>&1 && has_summarize=1

mkdir -p "$work"
table=$work/scale.tsv
printf 'ranks\thosts\tstep\twall_s\tcpu_s\tpeak_rss_mb\n' >"$table"

# measure LABEL RANKS HOSTS OUTPUT CMD...: runs CMD under GNU time, stdout to OUTPUT.
measure() {
  local label=$1 n=$2 hosts=$3 output=$4
  shift 4
  local log=$work/time.log
  /usr/bin/time -v -o "$log" "$@" >"$output" 2>"$work/stderr.log" || {
    echo "run_scale: $label failed:" >&2
    cat "$work/stderr.log" >&2
    exit 1
  }
  local wall cpu rss
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, t, ":"); s = 0; for (i = 1; i <= n; ++i) s = s * 60 + t[i]; print s}' "$log")
  cpu=$(awk -F': ' '/(User|System) time \(seconds\)/ {s += $2} END {printf "%.2f", s}' "$log")
  rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.1f", $2 / 1024}' "$log")
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$hosts" "$label" "$wall" "$cpu" "$rss" | tee -a "$table"
}

for n in $ranks_list; do
  hosts=$(((n + per_host - 1) / per_host))
  run=$work/run$n
  rm -rf "$run" "$work/map$n"
  "$generate" --out "$run" --ranks "$n" --hosts "$hosts" --collectives "${COLLECTIVES:-100}" \
    --channels "${CHANNELS:-4}" --steps "${STEPS:-2}" --node-dirs >"$work/gen$n.log"
  echo "# $(head -1 "$work/gen$n.log")" | tee -a "$table"

  measure report "$n" "$hosts" "$work/report$n.txt" "$analyze" report "$run" --quiet
  grep -q "$n of $n rank(s)" "$work/report$n.txt" || { echo "run_scale: report$n.txt: not $n of $n ranks" >&2; exit 1; }
  measure bandwidth "$n" "$hosts" "$work/bandwidth$n.txt" "$analyze" bandwidth "$run" --coll all --quiet
  grep -q "n = $n;" "$work/bandwidth$n.txt" || { echo "run_scale: bandwidth$n.txt: not n = $n" >&2; exit 1; }

  if [[ $has_summarize == 1 ]]; then
    mkdir -p "$work/map$n"
    # Map: one summarize per node, MAP_JOBS at a time (as `srun`/`mpirun` would run one per node).
    start=$(date +%s.%N)
    ls -d "$run"/node* | xargs -P "$map_jobs" -I{} sh -c \
      '"$1" summarize "$2" -o "$3/$(basename "$2").json" --quiet' _ "$analyze" {} "$work/map$n"
    end=$(date +%s.%N)
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$hosts" "map (all nodes, $map_jobs at a time)" \
      "$(echo "$end - $start" | bc)" "-" "-" | tee -a "$table"
    measure "summarize node0 (one node)" "$n" "$hosts" /dev/null \
      "$analyze" summarize "$run/node0" -o "$work/map$n/node0.again.json" --quiet
    measure merge "$n" "$hosts" /dev/null \
      "$analyze" summarize "$work/map$n"/node*[0-9].json -o "$work/merged$n.json" --quiet
    measure "diff (merged summary)" "$n" "$hosts" "$work/merged_diff$n.txt" \
      "$analyze" diff "$work/merged$n.json" "$work/merged$n.json" --quiet
    grep -q "AllReduce  *$n " "$work/merged_diff$n.txt" || { echo "run_scale: merged_diff$n.txt: no $n-rank AllReduce row" >&2; exit 1; }
  fi
  [[ ${KEEP:-0} == 1 ]] || rm -rf "$run"
done
echo "run_scale: results in $table"
