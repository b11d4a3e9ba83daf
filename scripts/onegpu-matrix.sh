#!/usr/bin/env bash
# Records real multi-rank NCCL runs on ONE GPU (the `device` tool's single-H200 machine): every rank
# a process of its own on device 0 with its own NCCL_HOSTID, so NCCL takes each for a host of its
# own (NET/Socket over loopback; real, checked collectives, slow). docs/capture.md, "Testing on one
# GPU".
#
#   scripts/onegpu-matrix.sh [--dry-run] [--phase LIST] [--versions LIST] [--tag NAME] OUT
#
# Run from the repository root. LIST items are comma-separated.
#   --phase     build, matrix, torch, inspector, hangs, cost, or all (default all). The builds a
#               phase needs always run (reused from .device-work/ on a warm machine); `build` alone
#               only builds.
#   --versions  2.28.9 (the NCCL of PyTorch's wheel) and/or 2.30.7 (built here from
#               $NCCL_TARBALL, default .carry/nccl-2.30.7.tar.gz = `git archive --prefix=nccl/
#               v2.30.7-1 | gzip` of NVIDIA/nccl). Default both.
#   --tag       names this call's files in OUT (default run); give each call its own.
#   --dry-run   prints every command and changes nothing.
# Environment: ANALYZER=path/to/npkit-analyze (optional, built elsewhere; its folder and ../lib go
# on LD_LIBRARY_PATH): analyses each dump, compares its instance counts with the driver's calls
# log, reads the live files of a hung job while its ranks are alive; without it those steps print
# SKIP. ONEGPU_BUDGET_S (default 560): the call's time budget; a run that does not fit prints SKIP.
# MATRIX_RANKS ("2 4 8"), HANG_RANKS (2), COST_ROUNDS (3), COST_CALLS (50) tune the work.
#
# Phases, per NCCL version (2.28.9 runs first, while NCCL 2.30.7 builds in the background):
#   matrix     npkit-nccl-driver --one-gpu at MATRIX_RANKS ranks: all six collectives (allreduce
#              with NCCL's own algorithm choice, allgather, reducescatter, alltoall, broadcast,
#              sendrecv; 4K, 64K, 1M, 1 warm-up + 4 timed + 1 checked call; at 8 ranks 64K only,
#              1 + 2 + 1) and AllReduce with NCCL_ALGO=Tree; NPKIT_EVENTS=all.
#   torch      (2.28.9) samples/pytorch/onegpu_ranks.py at 2 and 4 ranks, and its hang mode ended
#              by PyTorch's watchdog (rank 1 skips call 10, process-group timeout 20 s).
#   inspector  (2.30.7) NVIDIA's Inspector alone and chained under npkit (NPKIT_CHAIN_PLUGIN), 4
#              ranks, allreduce and allgather 64K and 1M, dump thread every 500 us.
#   hangs      the loop workload (AllReduce 1 MiB, 20 synchronized calls, HANG_RANKS ranks), rank
#              1 faulted at call 10: kill, exit, mismatch, skip with --watchdog-s 5 (ncclCommAbort),
#              and skip with a long --grace-s, whose live files are copied (and read with
#              `npkit-analyze hang`) while every rank is alive and waiting.
#   production (2.28.9) what a job that leaves capture on at its cheapest gives. First, with the
#              setting `sampled` (NPKIT_EVENTS=coll,kernel NPKIT_SAMPLE=1/8): AllReduce, AllGather
#              and AlltoAll 4K..1M x4 at 3 ranks, a rank count that is not a power of two (2 warm-up
#              + 10 timed calls; production/n3-sampled), the loop workload at 3 ranks with rank 2
#              killed after call 10 (hangs/sampled-kill-n3), PyTorch at 4 ranks with a process group
#              per pair in hang mode (rank 2 skips call 10, PyTorch's watchdog) with the Flight
#              Recorder dumping beside the capture (hangs/torch-fr-pairs). After the cost phase:
#              the sweep with coll, coll,kernel and all (production/n3-<setting>), rank 2 skipping
#              call 10 under rank 0's 5 s watchdog with coll (hangs/coll-skip-n3), torch/n4-pairs
#              and a torchrun job of 3 ranks (torch/n3-torchrun), both sampled.
#   cost       --launch-cost 50 at 2 ranks, 1K..1M x4, plugin off / coll / sampled / coll,kernel /
#              all, alternated over COST_ROUNDS rounds and the versions; summary of the medians.
# Every run: `timeout`, NCCL_NVLS_ENABLE=0, NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,ENV kept per
# rank, the driver's --calls-log and --csv beside the plugin's dump, a run.txt saying how it was
# made, its exit status checked. Live files of ended jobs are trimmed of their unwritten tail.
#
# OUT then holds (at most 4 files):
#   onegpu-TAG.tar.gz  the sample tree onegpu-h200/nccl-<version>/<phase>/<run>/, laid out as it is
#                      committed under samples/: tar -C samples -xzf onegpu-TAG.tar.gz
#   logs-TAG.tar.gz    build logs, log.txt, env.txt, the live-file trim log
#   check-TAG.txt      one PASS/FAIL/SKIP/INFO line per check
#   summary-TAG.txt    the summary printed at the end
# Exit status: 0 when no check failed, 1 otherwise, 2 for bad usage.
set -u
set -o pipefail

usage() {
  echo "usage: $0 [--dry-run] [--phase LIST] [--versions LIST] [--tag NAME] OUT" >&2
  exit 2
}

DRY_RUN=0
PHASES=all
VERSIONS=2.28.9,2.30.7
TAG=run
OUT=""
while (( $# )); do
  arg=$1
  shift
  case $arg in
    --dry-run) DRY_RUN=1 ;;
    --phase|--versions|--tag)
      (( $# )) || usage
      case $arg in --phase) PHASES=$1 ;; --versions) VERSIONS=$1 ;; *) TAG=$1 ;; esac
      shift ;;
    -h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d;s/^# \{0,1\}//'; exit 0 ;;
    -*) usage ;;
    *) [[ -z $OUT ]] || usage; OUT=$arg ;;
  esac
done
[[ -n $OUT ]] || usage
[[ $PHASES == all ]] && PHASES=matrix,torch,inspector,hangs,production,cost
for item in ${PHASES//,/ }; do
  case $item in build|matrix|torch|inspector|hangs|production|cost) ;; *) echo "unknown phase '$item'" >&2; usage ;; esac
done
for item in ${VERSIONS//,/ }; do
  case $item in 2.28.9|2.30.7) ;; *) echo "unknown NCCL version '$item'" >&2; usage ;; esac
done
[[ $TAG =~ ^[A-Za-z0-9._-]+$ ]] || { echo "--tag: letters, digits, '.', '_', '-' only" >&2; usage; }
if [[ ! -f src/capture/CMakeLists.txt || ! -f samples/nccl-driver/CMakeLists.txt ]]; then
  echo "onegpu-matrix: run this from the repository root" >&2
  exit 2
fi

REPO=$(pwd -P)
WORK=$REPO/.device-work
LOGS=$WORK/logs-$TAG
TREE=$WORK/tree-$TAG
SAMPLES=$TREE/onegpu-h200
RUN_ROOT=$SAMPLES
CHECKS=$LOGS/check.txt
BUDGET_S=${ONEGPU_BUDGET_S:-560}
NCCL_TARBALL=${NCCL_TARBALL:-$REPO/.carry/nccl-2.30.7.tar.gz}
ANALYZER=${ANALYZER:-}
[[ -z $ANALYZER || $ANALYZER == /* ]] || ANALYZER=$REPO/$ANALYZER
MATRIX_RANKS=${MATRIX_RANKS:-2 4 8}
HANG_RANKS=${HANG_RANKS:-2}
COST_ROUNDS=${COST_ROUNDS:-3}
COST_CALLS=${COST_CALLS:-50}
SECONDS=0

# shellcheck source=scripts/onegpu/lib.sh
source "$REPO/scripts/onegpu/lib.sh"

phase() { [[ ,$PHASES, == *,$1,* ]]; }
# any_phase PHASE...: one of them is wanted.
any_phase() {
  local item
  for item in "$@"; do phase "$item" && return 0; done
  return 1
}
version() { [[ ,$VERSIONS, == *,$1,* ]]; }

if (( ! DRY_RUN )); then
  mkdir -p "$OUT" || { echo "onegpu-matrix: cannot create $OUT" >&2; exit 2; }
  OUT=$(cd "$OUT" && pwd -P)
  rm -rf "$LOGS" "$TREE" "${OUT:?}"/{onegpu,logs,check,summary}-"$TAG".*
  mkdir -p "$LOGS" "$SAMPLES"
  : >"$CHECKS"
  : >"$WORK/runs.tsv"
fi
NCCL_289_HOME=$(torch_nccl_home)

# ---------------------------------------------------------------------------------------------
# One run of the driver or of the PyTorch sample

# torch_run RUN NRANKS LIMIT EXPECT WHAT ARGS...: samples/pytorch/onegpu_ranks.py (NCCL 2.28.9,
# PyTorch's own) with NPKIT_EVENTS=all (TORCH_SETTING: another plugin_env setting).
torch_run() {
  local run=$1 nranks=$2 limit=$3 expect=$4 what=$5
  shift 5
  local name="nccl-2.28.9/$run" plugin=()
  RUN_DIR=$SAMPLES/nccl-2.28.9/$run
  fits "$name" $((limit / 2)) || return 1
  limit=$(capped "$limit")
  (( DRY_RUN )) || mkdir -p "$RUN_DIR/dump" "$RUN_DIR/calls"
  read -ra plugin <<<"$(plugin_env "${TORCH_SETTING:-all}" "$RUN_DIR/dump")"
  log "$name: $what"
  launch "$RUN_DIR" 2.28.9 "$limit" "${plugin[@]}" PYTHONUNBUFFERED=1 -- python3 "$TORCH_RANKS" \
    --nranks "$nranks" --log-dir "$RUN_DIR/calls" --timeout-s $((limit - 15)) "$@"
  describe_run "$RUN_DIR" "$name" "$what" "$expect"
  check_status "$name" "$expect"
  check_plugin "$name" "$RUN_DIR" 2.28.9
  return 0
}

# ---------------------------------------------------------------------------------------------
# Phases

NCCL_230_OK=0
NCCL_230_WANTED=0
builds() {
  [[ -n $NCCL_289_HOME ]]
  check "NCCL 2.28.9 of PyTorch's wheel" $? "${NCCL_289_HOME:-python3 -c 'import nvidia.nccl' failed}"
  environment_report "$LOGS/env.txt"
  local need_230=0
  version 2.30.7 && any_phase build matrix inspector hangs cost && need_230=1
  if (( need_230 )); then
    if [[ -f $NCCL_TARBALL ]] || (( DRY_RUN )); then
      start_nccl_230 || check "unpack $NCCL_TARBALL" 1 "tar failed"
    else
      skip "NCCL 2.30.7" "no $NCCL_TARBALL: every 2.30.7 run is skipped"
      need_230=0
    fi
  fi
  build_ours nccl_profiler_npkit npkit-nccl-driver
  if (( ! DRY_RUN )) && [[ ! -f $PLUGIN ]]; then
    PLUGIN=$(find "$BUILD" -name libnccl-profiler-npkit.so -type f | head -1)
  fi
  check_ours PLUGIN DRIVER
  if (( need_230 )) && phase inspector; then build_inspector; check_ours INSPECTOR; fi
  NCCL_230_WANTED=$need_230
}

# nccl_230_ready: waits for the NCCL 2.30.7 build once; true when its library is there.
nccl_230_ready() {
  (( NCCL_230_WANTED )) || return 1
  if (( NCCL_230_OK == 0 )); then
    wait_nccl_230
    check "build NCCL 2.30.7" $? "$NCCL_230_SRC/build/lib ($LOGS/nccl-2.30.7.log)" &&
      NCCL_230_OK=1 || NCCL_230_OK=-1
  fi
  (( NCCL_230_OK == 1 ))
}

matrix_runs() {
  local v=$1 n limit sizes
  for n in $MATRIX_RANKS; do
    sizes=(--min-bytes 4K --max-bytes 1M --step-factor 16 --warmup 1 --iters 4)
    (( n >= 8 )) && sizes=(--min-bytes 64K --max-bytes 64K --warmup 1 --iters 2)
    limit=$(( n <= 2 ? 90 : n <= 4 ? 150 : 300 ))
    if driver_run "$v" "matrix/n$n-default" "$n" "$limit" 0 \
        "six collectives, NCCL's own algorithm choice, NPKIT_EVENTS=all" all -- \
        --colls allreduce,allgather,reducescatter,alltoall,broadcast,sendrecv "${sizes[@]}"; then
      check_dumps "nccl-$v/matrix/n$n-default" "$RUN_DIR" "$n"
      check_results "nccl-$v/matrix/n$n-default" "$RUN_DIR"
      analyze_run "nccl-$v/matrix/n$n-default" "$RUN_DIR" instances
    fi
    limit=$(( n <= 2 ? 60 : n <= 4 ? 90 : 150 ))
    if driver_run "$v" "matrix/n$n-tree" "$n" "$limit" 0 "AllReduce, NCCL_ALGO=Tree, NPKIT_EVENTS=all" \
        all NCCL_ALGO=Tree -- --colls allreduce "${sizes[@]}"; then
      check_dumps "nccl-$v/matrix/n$n-tree" "$RUN_DIR" "$n"
      check_results "nccl-$v/matrix/n$n-tree" "$RUN_DIR"
      analyze_run "nccl-$v/matrix/n$n-tree" "$RUN_DIR" instances
    fi
  done
}

torch_runs() {
  local n
  for n in 2 4; do
    torch_run "torch/n$n" "$n" $(( n == 2 ? 150 : 210 )) 0 \
      "onegpu_ranks.py: six collectives, 4K 64K 1M, 1 + 4 + 1 checked call" &&
      check_dumps "nccl-2.28.9/torch/n$n" "$RUN_DIR" "$n"
  done
  if torch_run hangs/torch-watchdog 2 120 0 \
      "onegpu_ranks.py --hang-skip 1:10: rank 1 skips call 10; PyTorch's watchdog (timeout 20 s)" \
      --hang-skip 1:10; then
    (( DRY_RUN )) && return
    grep -q 'Watchdog caught collective operation timeout' "$RUN_DIR/driver.txt"
    check "nccl-2.28.9/hangs/torch-watchdog: PyTorch's watchdog fired" $? \
      "$(grep -m1 -o 'Watchdog caught collective operation timeout.\{0,80\}' "$RUN_DIR/driver.txt")"
    info "nccl-2.28.9/hangs/torch-watchdog: how it ended" \
      "$(grep -E 'onegpu_ranks: (rank|job|first)' "$RUN_DIR/driver.txt" | paste -sd ';' - | cut -c1-300)"
    analyze_hang "nccl-2.28.9/hangs/torch-watchdog" "$RUN_DIR/dump" 1 "$RUN_DIR/analysis-hang"
  fi
}

inspector_runs() {
  local v=2.30.7 dir name records=()
  # shellcheck disable=SC2054  # commas inside one argument
  local workload=(--colls allreduce,allgather --min-bytes 64K --max-bytes 1M --step-factor 16
                  --warmup 1 --iters 4)
  local inspector_env=(NCCL_INSPECTOR_ENABLE=1 NCCL_INSPECTOR_DUMP_VERBOSE=1
                       NCCL_INSPECTOR_DUMP_THREAD_INTERVAL_MICROSECONDS=500)
  [[ -f $INSPECTOR ]] || (( DRY_RUN )) || { skip "nccl-$v/inspector" "no Inspector build"; return; }
  dir=$SAMPLES/nccl-$v/inspector
  (( DRY_RUN )) || mkdir -p "$dir/inspector-alone/inspector" "$dir/chained/inspector"
  driver_run "$v" inspector/inspector-alone 4 150 0 "NVIDIA's Inspector alone" custom \
    "NCCL_PROFILER_PLUGIN=$INSPECTOR" "${inspector_env[@]}" \
    "NCCL_INSPECTOR_DUMP_DIR=$dir/inspector-alone/inspector" -- "${workload[@]}"
  driver_run "$v" inspector/chained 4 150 0 "npkit with the Inspector chained (NPKIT_CHAIN_PLUGIN)" \
    all "NPKIT_CHAIN_PLUGIN=$INSPECTOR" "${inspector_env[@]}" \
    "NCCL_INSPECTOR_DUMP_DIR=$dir/chained/inspector" -- "${workload[@]}"
  (( DRY_RUN )) && return
  local line
  line=$(loaded_line "$dir/inspector-alone")
  [[ $line == *Loaded* ]]
  check "nccl-$v/inspector/inspector-alone: NCCL loads the Inspector" $? "${line:-no Loaded line}"
  for name in inspector-alone chained; do
    local files bytes
    files=$(find "$dir/$name/inspector" -type f 2>/dev/null | wc -l)
    bytes=$(cat "$dir/$name"/inspector/* 2>/dev/null | wc -c)
    (( files > 0 && bytes > 0 ))
    check "nccl-$v/inspector/$name: Inspector log non-empty" $? "$files file(s), $bytes bytes"
    records+=("$(cat "$dir/$name"/inspector/* 2>/dev/null | grep -c '"coll_perf"')")
  done
  (( records[0] > 0 && records[0] == records[1] ))
  check "nccl-$v/inspector: same Inspector records alone and chained" $? \
    "${records[0]} coll_perf record(s) alone, ${records[1]} chained"
  grep -aq 'capture\.chained_plugin.\{0,4\}Inspector (' "$dir"/chained/dump/*.npkt 2>/dev/null
  check "nccl-$v/inspector/chained: npkit's dump names the chained Inspector" $? \
    "capture.chained_plugin"
  check_dumps "nccl-$v/inspector/chained" "$dir/chained" 4
}

# still_hung VERSION: rank 1 skips call 10 and stays alive; no watchdog, a long grace: the job
# stays hung until the driver's --timeout-s, and the live files are read while it is.
still_hung() {
  local v=$1 n=$HANG_RANKS name="nccl-$1/hangs/still-hung" plugin=()
  RUN_DIR=$SAMPLES/nccl-$v/hangs/still-hung
  fits "$name" 40 || return
  (( DRY_RUN )) || mkdir -p "$RUN_DIR/dump" "$RUN_DIR/calls" "$RUN_DIR/live-while-hung"
  read -ra plugin <<<"$(plugin_env all "$RUN_DIR/dump")"
  log "$name: skip fault, --grace-s 600: hung until --timeout-s 25; live files read meanwhile"
  BACKGROUND=1 launch "$RUN_DIR" "$v" 40 "${plugin[@]}" -- "$DRIVER" --one-gpu --nranks "$n" \
    --calls-log "$RUN_DIR/calls" --csv "$RUN_DIR/driver.csv" --timeout-s 25 --colls allreduce \
    --min-bytes 1M --max-bytes 1M --loop 20 --fault skip:1:10 --grace-s 600
  if (( DRY_RUN )); then
    printf '+ (when rank 1 skipped and rank 0 made call 10) cp --sparse=always %s/dump/*.live.npkt %s/live-while-hung/\n' \
      "$RUN_DIR" "$RUN_DIR"
    analyze_hang "$name (while hung)" "$RUN_DIR/live-while-hung" 1 "$RUN_DIR/analysis-while-hung"
    return
  fi
  local waited=0
  until grep -qs fault_skip "$RUN_DIR/calls/events_rank1.txt" && (( $(last_call "$RUN_DIR" 0) >= 10 )); do
    (( waited++ >= 60 )) && break
    sleep 0.5
  done
  sleep 3
  local alive=0 r
  for (( r = 0; r < n; r++ )); do rank_alive "$RUN_DIR" "$r" && alive=$((alive + 1)); done
  cp --sparse=always "$RUN_DIR"/dump/*.live.npkt "$RUN_DIR/live-while-hung/" 2>/dev/null
  local copied
  copied=$(find "$RUN_DIR/live-while-hung" -name '*.live.npkt' | wc -l)
  (( alive == n ))
  check "$name: every rank alive and waiting when read" $? \
    "$alive of $n alive at +$((SECONDS - RUN_START)) s; rank 0's last call $(last_call "$RUN_DIR" 0)"
  (( copied == n ))
  check "$name: live files copied while hung" $? "$copied of $n"
  analyze_hang "$name (while hung)" "$RUN_DIR/live-while-hung" 1 "$RUN_DIR/analysis-while-hung"
  wait_background
  describe_run "$RUN_DIR" "$name" "skip fault, rank 1 alive; live files copied while every rank waited" 1
  check_status "$name" 1
  # The live files left at the end hold what the copies hold: they go to the logs, not the tree.
  mkdir -p "$LOGS/still-hung-$v"
  mv "$RUN_DIR/dump" "$LOGS/still-hung-$v/dump-at-end"
}

hang_runs() {
  local v=$1 n=$HANG_RANKS base="nccl-$1/hangs"
  local loop=("${HANG_LOOP[@]}")
  if driver_run "$v" hangs/kill "$n" 60 1 "$KILL_HANG_WHAT" all -- "${KILL_HANG_ARGS[@]}"; then
    check_kill_hang "$base/kill" "$RUN_DIR" "$n"
  fi
  if driver_run "$v" hangs/exit "$n" 60 1 "rank 1 exits (status 0, no ncclCommDestroy) before call 10" \
      all -- "${loop[@]}" --fault exit:1:10 --grace-s 5 && (( ! DRY_RUN )); then
    (( $(last_call "$RUN_DIR" 1) == 9 ))
    check "$base/exit: rank 1 never made call 10" $? "last call $(last_call "$RUN_DIR" 1)"
    analyze_hang "$base/exit" "$RUN_DIR/dump" 1 "$RUN_DIR/analysis-hang"
  fi
  if driver_run "$v" hangs/mismatch "$n" 40 '!124' \
      "rank 1 calls ncclAllGather (count / nranks) at call 10 where rank 0 calls AllReduce" \
      all -- "${loop[@]}" --fault mismatch:1:10 --grace-s 5 && (( ! DRY_RUN )); then
    info "$base/mismatch: outcome" "exit $RUN_STATUS; $(grep -E '^npkit-nccl-driver: (rank|still|time)' "$RUN_DIR/driver.txt" | paste -sd ';' - | cut -c1-300)"
    have_analyzer && analyzer hang "$RUN_DIR/dump" >"$RUN_DIR/analysis-hang.txt" 2>&1
  fi
  if driver_run "$v" hangs/watchdog "$n" 60 1 \
      "rank 1 skips call 10, alive; rank 0's watchdog (5 s) calls ncclCommAbort" \
      all -- "${loop[@]}" --fault skip:1:10 --watchdog-s 5 --grace-s 5 && (( ! DRY_RUN )); then
    grep -q comm_abort_returned "$RUN_DIR/calls/events_rank0.txt"
    check "$base/watchdog: rank 0 aborted its communicator" $? \
      "$(grep -E 'watchdog_fired|comm_abort_returned' "$RUN_DIR/calls/events_rank0.txt" | cut -d' ' -f3- | paste -sd ';' -)"
    [[ -n $(find "$RUN_DIR/dump" -name '*_rank0.npkt') ]]
    check "$base/watchdog: rank 0's dump written at ncclCommAbort" $? \
      "$(find "$RUN_DIR/dump" -name '*.npkt' -printf '%f ')"
    analyze_hang "$base/watchdog" "$RUN_DIR/dump" 1 "$RUN_DIR/analysis-hang"
  fi
  # The same without the plugin: whether ncclCommAbort from the watchdog thread, while the main
  # thread waits in the stream synchronize, ends the process by itself (the driver prints the
  # crashing stack, library and offset per frame).
  if driver_run "$v" hangs/watchdog-no-plugin "$n" 60 1 \
      "as hangs/watchdog, NCCL_PROFILER_PLUGIN=none" \
      off -- "${loop[@]}" --fault skip:1:10 --watchdog-s 5 --grace-s 5 && (( ! DRY_RUN )); then
    info "$base/watchdog-no-plugin: rank 0's events" \
      "$(cut -d' ' -f3- "$RUN_DIR/calls/events_rank0.txt" | tail -3 | paste -sd ';' -)"
  fi
  still_hung "$v"
}

# setting_words SETTING: the setting as the run descriptions name it.
setting_words() {
  case $1 in
    sampled) echo "NPKIT_EVENTS=coll,kernel NPKIT_SAMPLE=1/8" ;;
    *) echo "NPKIT_EVENTS=${1/-/,}" ;;
  esac
}

# production_sweep SETTING: AllReduce, AllGather and AlltoAll 4K..1M x4 at 3 ranks.
production_sweep() {
  local base="nccl-2.28.9/production/n3-$1"
  if driver_run 2.28.9 "production/n3-$1" 3 120 0 \
      "AllReduce, AllGather, AlltoAll 4K..1M at 3 ranks, $(setting_words "$1")" \
      "$1" -- --colls allreduce,allgather,alltoall --min-bytes 4K --max-bytes 1M \
      --step-factor 4 --warmup 2 --iters 10; then
    check_dumps "$base" "$RUN_DIR" 3
    check_results "$base" "$RUN_DIR"
  fi
}

# production_runs: what a job that leaves the sampled setting on gives, first what the tests need
# most: the sweep, a rank killed mid-loop, PyTorch's pair groups hung with the Flight Recorder.
production_runs() {
  local base="nccl-2.28.9"
  local loop=("${HANG_LOOP[@]}")
  production_sweep sampled
  if driver_run 2.28.9 hangs/sampled-kill-n3 3 60 1 \
      "rank 2 SIGKILLs itself right after call 10 returned, $(setting_words sampled)" sampled -- \
      "${loop[@]}" --fault kill:2:10 --grace-s 5 && (( ! DRY_RUN )); then
    (( $(last_call "$RUN_DIR" 2) == 10 ))
    check "$base/hangs/sampled-kill-n3: rank 2's calls log ends at call 10" $? \
      "last call $(last_call "$RUN_DIR" 2)"
    check_dumps "$base/hangs/sampled-kill-n3" "$RUN_DIR" 3 live
  fi
  if TORCH_SETTING=sampled torch_run hangs/torch-fr-pairs 4 150 0 \
      "onegpu_ranks.py --groups pairs --hang-skip 2:10 with the Flight Recorder; watchdog 20 s; $(setting_words sampled)" \
      --groups pairs --hang-skip 2:10 --flight-recorder "$SAMPLES/nccl-2.28.9/hangs/torch-fr-pairs/fr" &&
      (( ! DRY_RUN )); then
    local dumps
    dumps=$(find "$RUN_DIR/fr" -name 'nccl_trace_rank_*' | wc -l)
    (( dumps > 0 ))
    check "$base/hangs/torch-fr-pairs: Flight Recorder dumps" $? "$dumps file(s)"
  fi
}

# production_more_runs: the same sweep with coll only and with more, a skipped call under coll, and
# PyTorch jobs (pair groups, torchrun) with the sampled setting; after the launch costs.
production_more_runs() {
  local base="nccl-2.28.9" setting
  for setting in coll coll-kernel all; do production_sweep "$setting"; done
  if driver_run 2.28.9 hangs/coll-skip-n3 3 60 1 \
      "rank 2 skips call 10, alive; rank 0's watchdog (5 s) calls ncclCommAbort; NPKIT_EVENTS=coll" \
      coll -- "${HANG_LOOP[@]}" --fault skip:2:10 --watchdog-s 5 --grace-s 5 && (( ! DRY_RUN )); then
    (( $(last_call "$RUN_DIR" 2) == 9 ))
    check "$base/hangs/coll-skip-n3: rank 2 never made call 10" $? \
      "last call $(last_call "$RUN_DIR" 2)"
  fi
  TORCH_SETTING=sampled torch_run torch/n4-pairs 4 240 0 \
    "onegpu_ranks.py --groups pairs: world sweep plus a pair-group all_reduce after each call, $(setting_words sampled)" \
    --groups pairs --colls allreduce,allgather --sizes 64K,1M &&
    check_dumps "$base/torch/n4-pairs" "$RUN_DIR" 12
  local name="$base/torch/n3-torchrun" plugin=()
  RUN_DIR=$SAMPLES/nccl-2.28.9/torch/n3-torchrun
  if fits "$name" 90; then
    (( DRY_RUN )) || mkdir -p "$RUN_DIR/dump" "$RUN_DIR/calls"
    read -ra plugin <<<"$(plugin_env sampled "$RUN_DIR/dump")"
    log "$name: torchrun --standalone --nproc-per-node=3 onegpu_ranks.py, $(setting_words sampled)"
    launch "$RUN_DIR" 2.28.9 "$(capped 180)" "${plugin[@]}" PYTHONUNBUFFERED=1 -- python3 -m \
      torch.distributed.run --standalone --nproc-per-node=3 "$TORCH_RANKS" \
      --log-dir "$RUN_DIR/calls" --colls allreduce,allgather --sizes 64K,1M
    describe_run "$RUN_DIR" "$name" "torchrun, 3 ranks, $(setting_words sampled)" 0
    check_status "$name" 0
    check_dumps "$name" "$RUN_DIR" 3
  fi
}

cost_runs() {
  local round v setting dir scratch name versions=()
  version 2.28.9 && versions+=(2.28.9)
  version 2.30.7 && nccl_230_ready && versions+=(2.30.7)
  for (( round = 1; round <= COST_ROUNDS; round++ )); do
    for v in "${versions[@]}"; do
      for setting in off coll sampled coll-kernel all; do
        dir=$SAMPLES/nccl-$v/cost
        scratch=$WORK/cost-scratch/$v-$setting-$round
        name="nccl-$v/cost/${setting}_r$round"
        fits "$name" 40 || continue
        (( DRY_RUN )) || { rm -rf "$scratch"; mkdir -p "$dir" "$scratch/dump"; }
        local plugin=()
        read -ra plugin <<<"$(plugin_env "$setting" "$scratch/dump")"
        launch "$scratch" "$v" 60 "${plugin[@]}" -- "$DRIVER" --one-gpu --nranks 2 \
          --launch-cost "$COST_CALLS" --warmup 2 --colls allreduce --min-bytes 1K --max-bytes 1M \
          --step-factor 4 --csv "$dir/${setting}_r$round.csv" --timeout-s 50
        (( DRY_RUN )) && continue
        cp "$scratch/driver.txt" "$dir/${setting}_r$round.txt"
        printf '%s\n' "command: $(quoted "${RUN_COMMAND[@]}")" "exit status: $RUN_STATUS" \
          "NCCL: $(nccl_version_of "$scratch")" "profiler plugin: $(loaded_line "$scratch")" \
          >>"$dir/runs.txt"
        check_status "$name" 0
        [[ $setting == off ]] || check_plugin "$name" "$scratch" "$v"
        rm -rf "$scratch"
      done
    done
  done
  (( DRY_RUN )) && return
  python3 "$HELPERS/cost_summary.py" "$SAMPLES"/nccl-*/cost >"$SAMPLES/cost-summary-$TAG.txt" 2>&1
  log "launch cost:"
  sed 's/^/    | /' "$SAMPLES/cost-summary-$TAG.txt" | tee -a "$LOGS/log.txt"
}

write_tree_readme() {
  cat >"$SAMPLES/README.md" <<'EOF'
# Many NCCL ranks on one H200 (NET/Socket between processes)

Made by `scripts/onegpu-matrix.sh` on the single-H200 machine of the `device` tool: every rank a
process of its own on GPU 0 that sets `NCCL_HOSTID=onegpu-host-<rank>` before its first NCCL
call, so NCCL takes each rank for a host of its own and connects them over NET/Socket on loopback
(docs/capture.md, "Testing on one GPU"). The collectives are real and their results checked; the
times are those of time-sliced kernels over sockets: functional truth, not speed.

Layout: `nccl-<version>/<phase>/<run>/`, version 2.28.9 (PyTorch's wheel) or 2.30.7 (built from
source, sm_90). Each run folder holds `run.txt` (command, environment, NCCL version, the plugin
load line, exit status), `driver.txt` (the program's stdout and stderr), `ENV.txt`, `dump/` (the
plugin's captures, gzip-compressed as `.npkt.gz` / `.live.npkt.gz`, read as they are; live files trimmed of their unwritten tail), `calls/` (per-rank calls and
events logs: samples/nccl-driver/README.md), `nccl-debug/rank<R>.log` (`NCCL_DEBUG=INFO`,
`NCCL_DEBUG_SUBSYS=INIT,ENV`), and with an analyzer `analysis/`. `check-<tag>.txt` lists every
check of the call that made the files, `cost-summary-<tag>.txt` the launch-cost medians.

| phase | runs |
|---|---|
| `matrix/n<N>-default` | npkit-nccl-driver, N ranks, allreduce allgather reducescatter alltoall broadcast sendrecv, NPKIT_EVENTS=all |
| `matrix/n<N>-tree` | the same, AllReduce only, `NCCL_ALGO=Tree` |
| `torch/n<N>` | samples/pytorch/onegpu_ranks.py (2.28.9 only) |
| `inspector/` | NVIDIA's Inspector alone and chained under npkit (2.30.7 only) |
| `hangs/kill`, `exit`, `mismatch`, `watchdog`, `torch-watchdog` | the loop workload with a fault in rank 1 at call 10 |
| `hangs/still-hung` | rank 1 skips call 10 and stays alive: `live-while-hung/` holds the live files copied while every rank waited, `analysis-while-hung.*` what `npkit-analyze hang` said then |
| `cost/` | `--launch-cost` CSVs per plugin setting and round; `runs.txt` |
EOF
}

pack() {
  if (( DRY_RUN )); then
    printf '+ python3 %s %s; gzip -9 -n *.npkt; tar -C %s -czf %s onegpu-h200; tar ... logs-%s\n' \
      "$HELPERS/trim_live.py" "$SAMPLES" "$TREE" "$OUT/onegpu-$TAG.tar.gz" "$TAG"
    return
  fi
  python3 "$HELPERS/trim_live.py" "$SAMPLES" "$LOGS" >"$WORK/trim-live-$TAG.txt" 2>&1
  mv "$WORK/trim-live-$TAG.txt" "$LOGS/trim-live.txt"
  # Captures are committed gzip-compressed (npkit-analyze reads .npkt.gz as it is): a live file's
  # reserved tables are zeros, 30 to 300 times smaller compressed.
  find "$SAMPLES" -name '*.npkt' -exec gzip -9 -n {} +
  write_tree_readme
  cp "$CHECKS" "$SAMPLES/check-$TAG.txt"
  tar -C "$TREE" -czf "$OUT/onegpu-$TAG.tar.gz" onegpu-h200
  tar -C "$WORK" -czf "$OUT/logs-$TAG.tar.gz" "logs-$TAG"
  local file size
  for file in "$OUT/onegpu-$TAG.tar.gz" "$OUT/logs-$TAG.tar.gz"; do
    size=$(stat -c %s "$file")
    (( size < 16 * 1024 * 1024 ))
    check "$(basename "$file") under 16 MiB" $? "$size bytes"
  done
}

summary() {
  local pass fail skip
  pass=$(grep -c '^PASS' "$CHECKS")
  fail=$(grep -c '^FAIL' "$CHECKS")
  skip=$(grep -c '^SKIP' "$CHECKS")
  echo "== onegpu-matrix $TAG: phases $PHASES, versions $VERSIONS, $SECONDS s of ${BUDGET_S} s"
  echo "== checks: $pass PASS, $fail FAIL, $skip SKIP"
  grep -E '^(FAIL|SKIP)' "$CHECKS" | cut -c1-240
  echo "== runs (status/expected, seconds, dumps, live files)"
  awk -F'\t' '{ printf "%-40s %4s/%-4s %4ss %3s %3s\n", $1, $2, $3, $4, $5, $6 }' "$WORK/runs.tsv"
  [[ -f $SAMPLES/cost-summary-$TAG.txt ]] && { echo "== launch cost"; cat "$SAMPLES/cost-summary-$TAG.txt"; }
  echo "== sample tree (apparent bytes)"
  (cd "$SAMPLES" && du -sb --apparent-size ./*/* 2>/dev/null; du -sb --apparent-size . ) | sed 's|\./||'
  echo "== files in OUT"
  find "$OUT" -maxdepth 1 -name "*-$TAG.*" -printf '%s %f\n' | sort -k2
}

main() {
  log "onegpu-matrix: tag $TAG, phases $PHASES, versions $VERSIONS, budget ${BUDGET_S} s, ANALYZER=${ANALYZER:-none}"
  builds
  if version 2.28.9; then
    phase matrix && matrix_runs 2.28.9
    phase torch && torch_runs
    phase hangs && hang_runs 2.28.9
    phase production && production_runs
  fi
  if version 2.30.7 && any_phase matrix inspector hangs; then
    if nccl_230_ready; then
      phase matrix && matrix_runs 2.30.7
      phase inspector && inspector_runs
      phase hangs && hang_runs 2.30.7
    else
      skip "nccl-2.30.7 runs" "NCCL 2.30.7 not built"
    fi
  fi
  phase cost && cost_runs
  version 2.28.9 && phase production && production_more_runs
  phase build && version 2.30.7 && nccl_230_ready >/dev/null
  pack
  (( DRY_RUN )) && { echo "# dry run: nothing was executed"; return 0; }
  summary | tee "$OUT/summary-$TAG.txt"
  return "$FAILED"
}

main
