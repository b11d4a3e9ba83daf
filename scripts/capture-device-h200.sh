#!/usr/bin/env bash
# Runs the device event recorder on a host with 2 NVIDIA H200 GPUs, in one unattended call.
#
#   scripts/capture-device-h200.sh [--dry-run] OUT
#
# Run from the repository root. Steps (each logged with timestamps to OUT/log.txt; a failed step is
# recorded and the next one runs; every GPU program runs under `timeout`):
#   a  environment report                                                     -> OUT/env.txt
#   b  build (build-device-h200/): capture side with the device recorder, npkit_device_selftest,
#      npkit-device-collectives (instrumented: events through a block cursor),
#      npkit-device-collectives-handle (events through the handle) and
#      npkit-device-collectives-plain (no events); no analyzer
#      (-DNPKIT_BUILD_ANALYZER=OFF: needs no simdjson, fmt or CLI11), CUDA arch 90
#   c  npkit_device_selftest (checks of both event forms, the cost of one event), its dump in
#      selftest/dump                                                          -> selftest/
#   d  instrumented capture: all-reduce and all-to-all, 64K,1M,16M, 2 warm-up + 5 timed launches,
#      one .npkt per rank                                                     -> capture/
#   e  overhead: plain, handle and instrumented builds in turn, OVERHEAD_REPS repetitions
#      (default 5), 1M..256M, 10 warm-up + 100 timed launches, CSV each; summary.txt: mean time
#      per build and each instrumented build's ratio to plain                 -> overhead/
#   f  pack each folder as OUT/<folder>.tar.gz and remove the folder; print a summary.
# OUT then holds exactly: log.txt env.txt selftest.tar.gz capture.tar.gz overhead.tar.gz.
#
# NVLink multicast is never used (the kernels use plain peer pointers); NCCL_NVLS_ENABLE=0 is
# forced anyway. The whole run keeps to a time budget (CAPTURE_BUDGET_S, default 400 s): each
# step's limit is cut to what is left, and a step with no time left is skipped (the packing always
# runs). Running it again replaces OUT's results; builds are incremental. --dry-run prints the
# commands and changes nothing.
# Exit status: 0 if every step succeeded, 1 if any failed or was skipped, 2 for bad usage.
set -u
set -o pipefail

usage() { echo "usage: $0 [--dry-run] OUT" >&2; exit 2; }

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
[[ -n $OUT ]] || usage
if [[ ! -f samples/device-collectives/CMakeLists.txt || ! -f src/capture/CMakeLists.txt ]]; then
  echo "capture-device-h200: run this from the repository root" >&2
  exit 2
fi

REPO=$(pwd -P)
if (( ! DRY_RUN )); then
  mkdir -p "$OUT" || { echo "capture-device-h200: cannot create $OUT" >&2; exit 2; }
fi
OUT=$(cd "$OUT" 2>/dev/null && pwd -P || echo "$OUT")
LOG=$OUT/log.txt
BUILD=$REPO/build-device-h200
JOBS=$(nproc 2>/dev/null || echo 8)
BUDGET_S=${CAPTURE_BUDGET_S:-400}
PACK_RESERVE_S=20   # kept back for packing
MIN_STEP_S=15       # a step that would get less than this is skipped
SECONDS=0
FOLDERS=(selftest capture overhead)
PEER_TIMEOUT_S=20   # the kernels' own limit for a peer wait (--timeout-s)
OVERHEAD_REPS=${OVERHEAD_REPS:-5}

export NCCL_NVLS_ENABLE=0
unset NPKIT_DUMP_DIR NPKIT_BUFFER_SIZE_MB

STEP_ORDER=()
declare -A STEP_STATUS=()

stamp() { printf '%(%H:%M:%S)T +%ss' -1 "$SECONDS"; }

log() {
  if (( DRY_RUN )); then printf '# %s\n' "$*"; return; fi
  printf '[%s] %s\n' "$(stamp)" "$*" | tee -a "$LOG"
}

quoted() { local word out=""; for word in "$@"; do out+="$(printf '%q' "$word") "; done; printf '%s' "${out% }"; }

record() {  # record STEP STATUS: the last status recorded for a step wins
  [[ -n ${STEP_STATUS[$1]+set} ]] || STEP_ORDER+=("$1")
  STEP_STATUS[$1]=$2
}

step_limit() {
  local wanted=$1 left=$((BUDGET_S - SECONDS - PACK_RESERVE_S))
  (( left < wanted )) && wanted=$left
  echo "$wanted"
}

# run_step STEP LIMIT_S OUTPUT_FILE COMMAND...: COMMAND under `timeout`, stdout and stderr appended
# to OUTPUT_FILE; records ok / FAILED (exit N) / FAILED (timeout) / skipped.
run_step() {
  local step=$1 wanted=$2 output=$3
  shift 3
  if (( DRY_RUN )); then
    printf '+ timeout -k 10 %s %s >> %s 2>&1\n' "$wanted" "$(quoted "$@")" "$output"
    record "$step" "dry run"
    return 0
  fi
  local limit
  limit=$(step_limit "$wanted")
  if (( limit < MIN_STEP_S )); then
    log "$step: SKIPPED, time budget spent ($BUDGET_S s; CAPTURE_BUDGET_S)"
    record "$step" "skipped (time budget)"
    return 1
  fi
  log "$step: start (limit ${limit}s): $(quoted "$@")"
  local began=$SECONDS rc
  timeout -k 10 "$limit" "$@" >>"$output" 2>&1
  rc=$?
  local took=$((SECONDS - began))
  if (( rc == 0 )); then
    log "$step: ok (${took}s)"
    record "$step" "ok"
  elif (( rc == 124 || rc == 137 )); then
    log "$step: FAILED: timed out after ${took}s (limit ${limit}s); output: $output"
    record "$step" "FAILED (timeout)"
  else
    log "$step: FAILED: exit status $rc after ${took}s; last lines of $output:"
    tail -n 15 "$output" | sed 's/^/    | /' | tee -a "$LOG"
    record "$step" "FAILED (exit $rc)"
  fi
  return "$rc"
}

have() {  # have STEP FILE WHAT: true if FILE exists (always in a dry run), else records a skip
  (( DRY_RUN )) && return 0
  [[ -f $2 ]] && return 0
  log "$1: SKIPPED: no $3 ($2)"
  record "$1" "skipped (no $3)"
  return 1
}

# ---------------------------------------------------------------------------------------------
# a. Environment report

step_environment() {
  log "a_environment: -> $OUT/env.txt"
  if (( DRY_RUN )); then record a_environment "dry run"; return; fi
  {
    local title command
    for title in "date:date -u +%Y-%m-%dT%H:%M:%SZ" "host:uname -a" \
                 "project commit:git -C $REPO log -1 --format=%H%n%cd%n%s" \
                 "project changes:git -C $REPO status --short" "GPUs:nvidia-smi -L" \
                 "topology:nvidia-smi topo -m" \
                 "clocks:nvidia-smi --query-gpu=index,clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu --format=csv" \
                 "nvcc:nvcc --version" "cmake:cmake --version" "c++:c++ --version"; do
      command=${title#*:}
      printf '\n===== %s: %s\n' "${title%%:*}" "$command"
      # shellcheck disable=SC2086  # the command is split into words on purpose
      timeout 30 $command 2>&1
    done
  } >"$OUT/env.txt"
  record a_environment ok
}

# ---------------------------------------------------------------------------------------------
# b. Build

SELFTEST=$BUILD/bin/npkit_device_selftest
INSTRUMENTED=$BUILD/bin/npkit-device-collectives
HANDLE=$BUILD/bin/npkit-device-collectives-handle
PLAIN=$BUILD/bin/npkit-device-collectives-plain

step_build() {
  export PATH="/usr/local/cuda/bin:$PATH"
  local flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DNPKIT_BUILD_ANALYZER=OFF -DNPKIT_BUILD_CUDA=ON
               -DNPKIT_BUILD_TESTS=ON -DNPKIT_BUILD_BENCH=OFF -DCMAKE_CUDA_ARCHITECTURES=90
               -DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc)
  run_step b_build 240 "$LOG" cmake -S "$REPO" -B "$BUILD" "${flags[@]}" &&
    run_step b_build 240 "$LOG" cmake --build "$BUILD" -j "$JOBS" --target npkit_device_selftest \
      npkit-device-collectives npkit-device-collectives-handle npkit-device-collectives-plain
  (( DRY_RUN )) && return
  local name
  for name in SELFTEST INSTRUMENTED HANDLE PLAIN; do
    log "b_build: $name = ${!name} $([[ -f ${!name} ]] && echo '(present)' || echo '(MISSING)')"
    [[ -f ${!name} ]] || record b_build "FAILED (missing output)"
  done
}

# ---------------------------------------------------------------------------------------------
# c. Self-test

step_selftest() {
  local dir=$OUT/selftest
  (( DRY_RUN )) || mkdir -p "$dir/dump"
  have c_selftest "$SELFTEST" npkit_device_selftest || return
  run_step c_selftest 60 "$dir/selftest.txt" "$SELFTEST" --dump-dir "$dir/dump"
  (( DRY_RUN )) || grep -E '^(PASS|FAIL)' "$dir/selftest.txt" | sed 's/^/    | /' | tee -a "$LOG"
}

# ---------------------------------------------------------------------------------------------
# d. Instrumented capture

step_capture() {
  local dir=$OUT/capture
  (( DRY_RUN )) || mkdir -p "$dir/dump"
  have d_capture "$INSTRUMENTED" npkit-device-collectives || return
  run_step d_capture 90 "$dir/run.txt" "$INSTRUMENTED" --sizes 64K,1M,16M --iters 5 --warmup 2 \
    --timeout-s "$PEER_TIMEOUT_S" --dump-dir "$dir/dump" --csv "$dir/results.csv"
  (( DRY_RUN )) && return
  local files bytes
  files=$(find "$dir/dump" -name '*.npkt' | wc -l)
  bytes=$(du -sb "$dir/dump" | cut -f1)
  log "d_capture: $files .npkt file(s), $bytes bytes in $dir/dump"
  if [[ ${STEP_STATUS[d_capture]} == ok ]] && (( files == 0 )); then
    record d_capture "FAILED (no dump)"
  fi
}

# ---------------------------------------------------------------------------------------------
# e. Overhead: plain vs instrumented (cursor) vs handle

step_overhead() {
  local dir=$OUT/overhead rep build program
  (( DRY_RUN )) || mkdir -p "$dir"
  for rep in $(seq 1 "$OVERHEAD_REPS"); do
    for build in plain handle instrumented; do
      local step=e_overhead_${build}_$rep
      case $build in
        plain) program=$PLAIN ;;
        handle) program=$HANDLE ;;
        *) program=$INSTRUMENTED ;;
      esac
      have "$step" "$program" "$(basename "$program")" || continue
      run_step "$step" 60 "$dir/${build}_$rep.txt" "$program" --sizes 1M..256M --iters 100 \
        --warmup 10 --timeout-s "$PEER_TIMEOUT_S" --csv "$dir/${build}_$rep.csv"
    done
  done
  (( DRY_RUN )) && return
  summarize_overhead "$dir" >"$dir/summary.txt" 2>&1 || log "e_overhead: summary failed"
  sed 's/^/    | /' "$dir/summary.txt" | tee -a "$LOG"
}

# Per (collective, size): mean time of each build over the repetitions, and each instrumented
# build's overhead against plain (handle: events through the handle; instrumented: through a
# block cursor).
summarize_overhead() {
  python3 - "$1" <<'PYTHON'
import csv, glob, os, sys
from collections import defaultdict
times = defaultdict(list)  # (build, coll, size) -> [time_us]
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*_[0-9]*.csv"))):
    with open(path) as handle:
        for row in csv.DictReader(handle):
            times[(row["build"], row["coll"], int(row["size_bytes"]))].append(float(row["time_us"]))
mean = {key: sum(v) / len(v) for key, v in times.items()}
builds = ["plain", "handle", "instrumented"]
print("# time per launch (us, mean of the repetitions); overhead = build / plain - 1")
print(f"{'coll':<10} {'size(B)':>10} {'plain':>9} {'handle':>9} {'instrumented':>13} "
      f"{'handle':>8} {'instr.':>8} {'reps':>5}")
cell = lambda value, width: f"{value:>{width}.2f}" if value else f"{'-':>{width}}"
for coll, size in sorted({(k[1], k[2]) for k in mean}):
    m = {b: mean.get((b, coll, size)) for b in builds}
    over = lambda b: f"{(m[b] / m['plain'] - 1) * 100:>7.2f}%" if m[b] and m["plain"] else f"{'-':>8}"
    reps = min(len(times.get((b, coll, size), [])) for b in builds)
    print(f"{coll:<10} {size:>10} {cell(m['plain'], 9)} {cell(m['handle'], 9)} "
          f"{cell(m['instrumented'], 13)} {over('handle')} {over('instrumented')} {reps:>5}")
PYTHON
}

# ---------------------------------------------------------------------------------------------
# f. Pack and summarize

step_pack() {
  local folder
  for folder in "${FOLDERS[@]}"; do
    if (( DRY_RUN )); then
      printf '+ tar -C %s -czf %s %s && rm -rf %s\n' "$(quoted "$OUT")" \
        "$(quoted "$OUT/$folder.tar.gz")" "$folder" "$(quoted "$OUT/$folder")"
      continue
    fi
    mkdir -p "$OUT/$folder"
    if tar -C "$OUT" -czf "$OUT/$folder.tar.gz" "$folder"; then
      rm -rf "${OUT:?}/$folder"
    else
      log "f_pack: FAILED to pack $folder"
      record f_pack "FAILED ($folder)"
    fi
  done
  [[ -n ${STEP_STATUS[f_pack]+set} ]] || record f_pack "$( (( DRY_RUN )) && echo "dry run" || echo ok)"
}

summarize() {
  local step failed=0 file size
  log "summary:"
  for step in "${STEP_ORDER[@]}"; do
    log "  $(printf '%-26s %s' "$step" "${STEP_STATUS[$step]}")"
    [[ ${STEP_STATUS[$step]} == ok || ${STEP_STATUS[$step]} == "dry run" ]] || failed=1
  done
  (( DRY_RUN )) && { log "dry run: nothing was executed"; return 0; }
  log "files in $OUT:"
  for file in log.txt env.txt "${FOLDERS[@]/%/.tar.gz}"; do
    size=$(stat -c %s "$OUT/$file" 2>/dev/null || echo missing)
    log "  $(printf '%-18s %s' "$file" "$size")"
  done
  log "total time $SECONDS s (budget $BUDGET_S s)"
  return "$failed"
}

clean_previous_results() {
  (( DRY_RUN )) && return
  local item
  for item in log.txt env.txt "${FOLDERS[@]}" "${FOLDERS[@]/%/.tar.gz}"; do
    rm -rf "${OUT:?}/$item"
  done
}

main() {
  clean_previous_results
  log "capture-device-h200: repository $REPO, output $OUT, budget ${BUDGET_S}s, NCCL_NVLS_ENABLE=$NCCL_NVLS_ENABLE"
  step_environment
  step_build
  step_selftest
  step_capture
  step_overhead
  step_pack
  summarize
}

main
