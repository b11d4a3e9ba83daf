#!/usr/bin/env bash
# Runs built libFuzzer targets, several at a time, and reports each one's result.
#
#   scripts/fuzz.sh FUZZ_DIR SECONDS PARALLEL TARGET...
#
# Each target `t` runs FUZZ_DIR/bin/fuzz_t for SECONDS on its seed corpus tests/fuzz/corpus/t
# plus the inputs it kept before in FUZZ_DIR/work/t (new ones are added there), PARALLEL targets
# at a time. Its output goes to FUZZ_DIR/logs/t.log; a crash, leak or timeout input to
# FUZZ_DIR/artifacts/t-*. Inputs may grow to the largest seed of the target's corpus, and to at
# least 4096 bytes (-max_len; the corpora of whole captures hold seeds of up to 32 KiB). One line
# per target when it ends: clean with its seconds and execs, or FAILED with its log. Exits 1 if
# any target failed.
set -euo pipefail

if [ $# -lt 4 ]; then
  echo "usage: $0 FUZZ_DIR SECONDS PARALLEL TARGET..." >&2
  exit 2
fi
fuzz_dir=$1
seconds=$2
parallel=$3
shift 3

run_one() {
  local dir=$1 seconds=$2 t=$3
  local log="$dir/logs/$t.log"
  mkdir -p "$dir/work/$t" "$dir/artifacts" "$dir/logs"
  local max_len largest
  largest=$(find "tests/fuzz/corpus/$t" -type f -printf '%s\n' | sort -n | tail -1)
  max_len=$((${largest:-0} > 4096 ? largest : 4096))
  local began=$SECONDS
  if "$dir/bin/fuzz_$t" "$dir/work/$t" "tests/fuzz/corpus/$t" -max_total_time="$seconds" \
      -max_len="$max_len" -timeout=10 -artifact_prefix="$dir/artifacts/$t-" \
      -print_final_stats=1 >"$log" 2>&1; then
    local execs rate rss
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log")
    echo "fuzz_$t: clean, $((SECONDS - began)) s, ${execs} execs (${rate}/s), peak RSS ${rss} MB"
  else
    echo "fuzz_$t: FAILED; see $log and $dir/artifacts/$t-*"
    return 1  # xargs runs the others, then exits non-zero
  fi
}
export -f run_one

echo "fuzzing ${*} for ${seconds} s each, ${parallel} at a time; logs in ${fuzz_dir}/logs/"
if printf '%s\n' "$@" | xargs -P "$parallel" -I{} bash -c 'run_one "$@"' _ "$fuzz_dir" "$seconds" {}; then
  exit 0
fi
exit 1
