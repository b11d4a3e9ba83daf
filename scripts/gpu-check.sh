#!/usr/bin/env bash
# What to run on the GPU machine (the `device` tool's single H200) before calling capture work
# done, in one call of about 3 minutes:
#
#   [ANALYZER=path/to/npkit-analyze] scripts/gpu-check.sh [--dry-run] [OUT]
#
# Run from the repository root. Checks, each printed as PASS/FAIL/SKIP:
#   1 builds (in .device-work/build-cuda, reused on a warm machine): the NCCL profiler plugin,
#     npkit-nccl-driver against the NCCL 2.28.9 of PyTorch's wheel, npkit_device_selftest (sm_90)
#   2 the device recorder's self-test: exit 0 and no FAIL line
#   3 the plugin under real NCCL 2.28.9 with 2 and 4 ranks on the one GPU (driver --one-gpu;
#     allreduce and allgather, 64K and 1M, 1 warm-up + 4 timed + 1 checked call, NPKIT_EVENTS=all):
#     exit 0, NCCL loads the plugin as v5, one dump per rank, results correct; with ANALYZER,
#     `npkit-analyze instances` and `bandwidth` count exactly the calls the driver logged
#   4 one hang: rank 1 of 2 SIGKILLs itself right after call 10 of the loop workload: the driver
#     exits 1 and reports the signal, rank 1's calls log ends at call 10, each rank leaves a live
#     file; with ANALYZER, `npkit-analyze hang` finds the stall and names rank 1
# OUT (default .device-work/gpu-check/out) then holds check.txt and gpu-check.tar.gz (the run
# folders and build logs). Without ANALYZER the analyzer checks print SKIP. The helpers are shared
# with scripts/onegpu-matrix.sh (scripts/onegpu/lib.sh). --dry-run prints every command.
# Exit status: 0 when no check failed, 1 otherwise, 2 for bad usage.
set -u
set -o pipefail

usage() { echo "usage: $0 [--dry-run] [OUT]" >&2; exit 2; }

DRY_RUN=0
OUT=""
for arg in "$@"; do
  case $arg in
    --dry-run) DRY_RUN=1 ;;
    -h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d;s/^# \{0,1\}//'; exit 0 ;;
    -*) usage ;;
    *) [[ -z $OUT ]] || usage; OUT=$arg ;;
  esac
done
if [[ ! -f src/capture/CMakeLists.txt || ! -f samples/nccl-driver/CMakeLists.txt ]]; then
  echo "gpu-check: run this from the repository root" >&2
  exit 2
fi

REPO=$(pwd -P)
WORK=$REPO/.device-work
OUT=${OUT:-$WORK/gpu-check/out}
LOGS=$WORK/gpu-check/logs
RUN_ROOT=$WORK/gpu-check/runs
CHECKS=$LOGS/check.txt
BUDGET_S=${GPU_CHECK_BUDGET_S:-560}
ANALYZER=${ANALYZER:-}
[[ -z $ANALYZER || $ANALYZER == /* ]] || ANALYZER=$REPO/$ANALYZER
SECONDS=0

# shellcheck source=scripts/onegpu/lib.sh
source "$REPO/scripts/onegpu/lib.sh"

if (( ! DRY_RUN )); then
  mkdir -p "$OUT" || { echo "gpu-check: cannot create $OUT" >&2; exit 2; }
  OUT=$(cd "$OUT" && pwd -P)
  rm -rf "$LOGS" "$RUN_ROOT" "$OUT/check.txt" "$OUT/gpu-check.tar.gz"
  mkdir -p "$LOGS" "$RUN_ROOT"
  : >"$CHECKS"
  : >"$WORK/runs.tsv"
fi
NCCL_289_HOME=$(torch_nccl_home)

selftest() {
  local dir=$RUN_ROOT/selftest
  fits "device self-test" 120 || return
  if (( DRY_RUN )); then
    printf '+ timeout 120 %s --dump-dir %s > %s 2>&1\n' "$SELFTEST" "$dir/dump" "$dir/selftest.txt"
    return
  fi
  mkdir -p "$dir/dump"
  timeout 120 "$SELFTEST" --dump-dir "$dir/dump" >"$dir/selftest.txt" 2>&1
  local status=$?
  check "device self-test: exit status" "$status" "$status (expected 0)"
  local fails passes
  fails=$(grep -c '^FAIL' "$dir/selftest.txt")
  passes=$(grep -c '^PASS' "$dir/selftest.txt")
  (( fails == 0 && passes > 0 ))
  check "device self-test: its checks" $? "$passes PASS, $fails FAIL"
}

plugin_runs() {
  local n name
  for n in 2 4; do
    name=nccl-2.28.9/n$n
    driver_run 2.28.9 "n$n" "$n" $(( n == 2 ? 90 : 150 )) 0 \
      "allreduce and allgather, 64K and 1M, NPKIT_EVENTS=all" all -- --colls allreduce,allgather \
      --min-bytes 64K --max-bytes 1M --step-factor 16 --warmup 1 --iters 4 || continue
    (( DRY_RUN )) && continue
    check_dumps "$name" "$RUN_DIR" "$n"
    check_results "$name" "$RUN_DIR"
    if have_analyzer; then
      analyze_run "$name" "$RUN_DIR" instances
    else
      skip "$name: analyzer counts the driver's calls" "no ANALYZER given"
    fi
  done
}

main() {
  log "gpu-check: budget ${BUDGET_S} s, ANALYZER=${ANALYZER:-none}"
  [[ -n $NCCL_289_HOME ]]
  check "NCCL 2.28.9 of PyTorch's wheel" $? "${NCCL_289_HOME:-python3 -c 'import nvidia.nccl' failed}"
  environment_report "$LOGS/env.txt"
  build_ours nccl_profiler_npkit npkit-nccl-driver npkit_device_selftest
  if (( ! DRY_RUN )) && [[ ! -f $PLUGIN ]]; then
    PLUGIN=$(find "$BUILD" -name libnccl-profiler-npkit.so -type f | head -1)
  fi
  check_ours PLUGIN DRIVER SELFTEST
  selftest
  plugin_runs
  driver_run 2.28.9 hang-kill 2 60 1 "$KILL_HANG_WHAT" all -- "${KILL_HANG_ARGS[@]}" &&
    check_kill_hang nccl-2.28.9/hang-kill "$RUN_DIR" 2
  if (( DRY_RUN )); then
    echo "# dry run: nothing was executed"
    return 0
  fi
  cp "$CHECKS" "$OUT/check.txt"
  tar -C "$WORK/gpu-check" -czf "$OUT/gpu-check.tar.gz" runs logs
  echo "== gpu-check: $(grep -c '^PASS' "$CHECKS") PASS, $(grep -c '^FAIL' "$CHECKS") FAIL," \
    "$(grep -c '^SKIP' "$CHECKS") SKIP in $SECONDS s; details in $OUT"
  return "$FAILED"
}

main
