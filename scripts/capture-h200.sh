#!/usr/bin/env bash
# Records the project's real captures on a host with 2 NVIDIA H200 GPUs, in one unattended call.
#
#   NCCL_NVLS_ENABLE=0 scripts/capture-h200.sh [--dry-run] [--steps LIST] OUT
#
# Run from the repository root. Steps (each logged with timestamps to OUT/log.txt; a failed step is
# recorded and the next one runs; every GPU program runs under `timeout`):
#   a  environment report                                  -> OUT/env.txt
#   b  build the capture side (NCCL profiler plugin, npkit_gpu_probe) and npkit-nccl-driver
#      against the NCCL of the pip package nvidia-nccl-cu13 (its lib/ joins LD_LIBRARY_PATH)
#   c  npkit_gpu_probe                                     -> OUT/gpu_probe.txt
#   d  plugin overhead over NVLink: allreduce + allgather 8 B .. 256 MiB, 100 iterations,
#      configurations off (NCCL_PROFILER_PLUGIN=none), coll (NPKIT_EVENTS=coll), coll-kernel
#      (NPKIT_EVENTS=coll,kernel) and all (NPKIT_EVENTS=all), run alternately, 3 repetitions
#                                                           -> overhead/<config>_<rep>.csv
#   e  NVLink capture: all five collectives, 1 KiB .. 64 MiB x16, NPKIT_EVENTS=all -> nvlink/;
#      and a run that never destroys its communicator (process-exit dumps)      -> nvlink/exit/
#   f  network capture over NCCL's socket transport on loopback (P2P and SHM off)   -> socket/
#   g  bandwidth-agreement capture: allreduce 1 MiB .. 256 MiB x4, iters 20,
#      NPKIT_EVENTS=coll,kernel                                                     -> agree/
#   h  PyTorch capture (samples/pytorch/allreduce_capture.py, NPKIT_EVENTS=all)     -> torch/
#   j  protocol pair: allreduce 4 KiB .. 16 MiB x4, iters 20, NPKIT_EVENTS=coll,kernel, once with
#      NCCL_PROTO=LL and once with NCCL_PROTO=Simple (the runs `diff` compares) -> proto/{ll,simple}/
#   k  a job killed without dumping: allreduce 1 MiB, iterations without end, NPKIT_EVENTS=all,
#      NPKIT_BUFFER_SIZE_MB=8; its process group gets SIGKILL after KILL_AFTER_S (6 s): only live
#      files stay                                                                  -> killed/
#   i  pack each folder as OUT/<folder>.tar.gz and remove the folder; print a summary.
# --steps takes a comma list of probe, overhead, nvlink, socket, agree, torch, proto, killed
# (default: all;
# the environment report, the build and the packing always run).
# OUT then holds: log.txt env.txt gpu_probe.txt and one <folder>.tar.gz per step run (overhead,
# nvlink, socket, agree, torch, proto, killed). Every step runs on any number of GPUs (one rank per
# GPU); on one GPU the ranks' collectives are one-rank ones.
#
# NVLink multicast is never used: NCCL_NVLS_ENABLE=0, TORCH_SYMM_MEM_DISABLE_MULTICAST=1 and
# NVSHMEM_DISABLE_NVLS=1 are forced whatever the caller set. The whole run keeps to a time budget
# (CAPTURE_BUDGET_S, default 450 s): each step's limit is cut to what is left, and a step with no
# time left is skipped (the packing always runs). Running it again replaces OUT's results; builds
# are incremental (build-h200/). --dry-run prints the commands and changes nothing.
# Exit status: 0 if every step succeeded, 1 if any failed or was skipped, 2 for bad usage.
set -u
set -o pipefail

usage() { echo "usage: NCCL_NVLS_ENABLE=0 $0 [--dry-run] [--steps LIST] OUT" >&2; exit 2; }

DRY_RUN=0
OUT=""
STEPS=probe,overhead,nvlink,socket,agree,torch,proto,killed
while (( $# )); do
  arg=$1
  shift
  case $arg in
    --dry-run) DRY_RUN=1 ;;
    --steps) (( $# )) || usage; STEPS=$1; shift ;;
    -h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d;s/^# \{0,1\}//'; exit 0 ;;
    -*) usage ;;
    *) [[ -z $OUT ]] || usage; OUT=$arg ;;
  esac
done
for step in ${STEPS//,/ }; do
  case $step in
    probe|overhead|nvlink|socket|agree|torch|proto|killed) ;;
    *) echo "capture-h200: unknown step '$step' in --steps" >&2; usage ;;
  esac
done
wanted() { [[ ,$STEPS, == *,$1,* ]]; }
[[ -n $OUT ]] || usage
if [[ ! -f samples/nccl-driver/CMakeLists.txt || ! -f src/capture/CMakeLists.txt ]]; then
  echo "capture-h200: run this from the repository root" >&2
  exit 2
fi

REPO=$(pwd -P)
if (( ! DRY_RUN )); then
  mkdir -p "$OUT" || { echo "capture-h200: cannot create $OUT" >&2; exit 2; }
fi
OUT=$(cd "$OUT" 2>/dev/null && pwd -P || echo "$OUT")
LOG=$OUT/log.txt
BUILD=$REPO/build-h200
JOBS=$(nproc 2>/dev/null || echo 8)
BUDGET_S=${CAPTURE_BUDGET_S:-450}
PACK_RESERVE_S=30   # kept back for packing
MIN_STEP_S=20       # a step that would get less than this is skipped
SECONDS=0           # bash counts the run's seconds from here
FOLDERS=()
for folder in overhead nvlink socket agree torch proto killed; do
  wanted "$folder" && FOLDERS+=("$folder")
done
DRIVER_TIMEOUT_S=60   # the driver's own --timeout-s (a sweep takes seconds); the outer one is longer

export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
# Every step sets these itself; leftovers from the caller's shell must not leak in.
unset NCCL_PROFILER_PLUGIN NPKIT_EVENTS NPKIT_DUMP_DIR NCCL_DEBUG NCCL_DEBUG_SUBSYS NCCL_DEBUG_FILE

STEP_ORDER=()
declare -A STEP_STATUS=()

# ---------------------------------------------------------------------------------------------
# Logging and step bookkeeping

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

# Seconds a step may take: its own limit, cut to the time left before the packing reserve.
step_limit() {
  local wanted=$1 left=$((BUDGET_S - SECONDS - PACK_RESERVE_S))
  (( left < wanted )) && wanted=$left
  echo "$wanted"
}

# run_step STEP LIMIT_S OUTPUT_FILE COMMAND...: runs COMMAND under `timeout`, stdout and stderr
# appended to OUTPUT_FILE; records ok / FAILED (exit N) / FAILED (timeout) / skipped.
run_step() {
  local step=$1 wanted=$2 output=$3
  shift 3
  if (( DRY_RUN )); then
    printf '+ timeout -k 15 %s %s >> %s 2>&1\n' "$wanted" "$(quoted "$@")" "$output"
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
  timeout -k 15 "$limit" "$@" >>"$output" 2>&1
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

# have STEP FILE WHAT: true if FILE exists (always in a dry run); otherwise records STEP as skipped.
have() {
  (( DRY_RUN )) && return 0
  [[ -f $2 ]] && return 0
  log "$1: SKIPPED: no $3 ($2)"
  record "$1" "skipped (no $3)"
  return 1
}

# Logs how many dump files a capture left; a step that succeeded without any is recorded as failed.
expect_dumps() {
  local step=$1 dir=$2
  (( DRY_RUN )) && return 0
  [[ -n ${STEP_STATUS[$step]:-} && ${STEP_STATUS[$step]} != skipped* ]] || return 0
  local files bytes
  files=$(find "$dir" -type f -name '*.npkt' 2>/dev/null | wc -l)
  bytes=$(du -sb "$dir" 2>/dev/null | cut -f1)
  log "$step: $files .npkt dump file(s), ${bytes:-0} bytes in $dir"
  if (( files == 0 )) && [[ ${STEP_STATUS[$step]} == ok ]]; then
    log "$step: FAILED: the run succeeded but left no .npkt dump"
    record "$step" "FAILED (no dump)"
  fi
}

# Logs the NCCL debug lines (INIT/ENV/NET subsystems) that show the profiler plugin loading and a few
# of the transport choices ("Channel 00/0 : 0[0] -> 1[1] via ...").
log_nccl_lines() {
  local step=$1 dir=$2
  (( DRY_RUN )) && return 0
  local lines
  lines=$(grep -h -i -E 'PROFILER/Plugin|profiler plugin' "$dir"/nccl-debug.*.log 2>/dev/null |
          sed 's/^[^ ]* *[^ ]* *//' | sort -u | head -n 4)
  lines+=$'\n'$(grep -h -m 2 ' via ' "$dir"/nccl-debug.*.log 2>/dev/null)
  if [[ -n ${lines//$'\n'/} ]]; then
    log "$step: NCCL says:"
    printf '%s\n' "$lines" | sed '/^$/d;s/^/    | /' | tee -a "$LOG"
  else
    log "$step: no profiler plugin or transport line in $dir/nccl-debug.*.log"
  fi
}

# ---------------------------------------------------------------------------------------------
# a. Environment report

env_section() {  # env_section TITLE COMMAND...
  local title=$1
  shift
  if (( DRY_RUN )); then printf '+ timeout 30 %s >> %s\n' "$(quoted "$@")" "$OUT/env.txt"; return; fi
  { printf '\n===== %s: %s\n' "$title" "$(quoted "$@")"; timeout 30 "$@" 2>&1; } >>"$OUT/env.txt"
  local rc=$?
  (( rc == 0 )) || log "a_environment: '$title' failed (exit $rc)"
}

step_environment() {
  log "a_environment: -> $OUT/env.txt"
  (( DRY_RUN )) || : >"$OUT/env.txt"
  env_section "date" date -u '+%Y-%m-%dT%H:%M:%SZ'
  env_section "host" uname -a
  env_section "project commit" git -C "$REPO" log -1 '--format=%H %cd %s'
  env_section "project changes" git -C "$REPO" status --short
  env_section "GPUs" nvidia-smi -L
  env_section "topology" nvidia-smi topo -m
  env_section "nvidia-smi" nvidia-smi
  env_section "nvcc" nvcc --version
  env_section "cmake" cmake --version
  env_section "c++" c++ --version
  env_section "python" python3 --version
  env_section "torch" python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, "nccl", torch.cuda.nccl.version(), "devices", torch.cuda.device_count())'
  env_section "pip nccl" python3 -m pip show nvidia-nccl-cu13
  env_section "pip nccl dir" echo "${NCCL_DIR:-<not found>}"
  env_section "cpu" lscpu
  env_section "environment" bash -c 'env | grep -E "^(NCCL_|NPKIT_|TORCH_|NVSHMEM_|CUDA_|LD_LIBRARY_PATH=)" | sort'
  record a_environment "$( (( DRY_RUN )) && echo "dry run" || echo ok)"
}

# ---------------------------------------------------------------------------------------------
# b. Build

# The folder of the pip package nvidia-nccl-cu13 (holding include/nccl.h and lib/libnccl.so.2).
find_pip_nccl() {
  python3 - <<'EOF' 2>/dev/null
import os
import nvidia.nccl as nccl
roots = [os.path.dirname(nccl.__file__)] if getattr(nccl, "__file__", None) else list(nccl.__path__)
for root in roots:
    if os.path.exists(os.path.join(root, "lib", "libnccl.so.2")):
        print(root)
        break
EOF
}

PLUGIN=$BUILD/capture/lib/libnccl-profiler-npkit.so
PROBE=$BUILD/capture/bin/npkit_gpu_probe
DRIVER=$BUILD/driver/bin/npkit-nccl-driver

step_build() {
  local capture_flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DNPKIT_BUILD_ANALYZER=OFF
                       -DNPKIT_BUILD_CUDA=OFF -DNPKIT_BUILD_TESTS=OFF -DNPKIT_BUILD_BENCH=OFF)
  local driver_flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DNPKIT_BUILD_ANALYZER=OFF
                      -DNPKIT_BUILD_CAPTURE=OFF -DNPKIT_BUILD_CUDA=ON -DNPKIT_BUILD_TESTS=OFF
                      -DNPKIT_BUILD_BENCH=OFF)
  [[ -n $NCCL_DIR ]] && driver_flags+=("-DNCCL_ROOT=$NCCL_DIR")
  run_step b_build_capture 180 "$LOG" cmake -S "$REPO" -B "$BUILD/capture" "${capture_flags[@]}" &&
    run_step b_build_capture 180 "$LOG" cmake --build "$BUILD/capture" -j "$JOBS" \
      --target nccl_profiler_npkit npkit_gpu_probe
  run_step b_build_driver 180 "$LOG" cmake -S "$REPO" -B "$BUILD/driver" "${driver_flags[@]}" &&
    run_step b_build_driver 180 "$LOG" cmake --build "$BUILD/driver" -j "$JOBS" \
      --target npkit-nccl-driver
  (( DRY_RUN )) && return
  local found name
  for name in PLUGIN PROBE DRIVER; do
    if [[ ! -f ${!name} ]]; then
      # Output folders are the projects' defaults; look for the file elsewhere before giving up.
      found=$(find "$BUILD" -name "$(basename "${!name}")" -type f 2>/dev/null | head -n 1)
      [[ -n $found ]] && printf -v "$name" '%s' "$found"
    fi
    log "b_build: $name = ${!name} $([[ -f ${!name} ]] && echo '(present)' || echo '(MISSING)')"
  done
  [[ -f $PLUGIN && -f $PROBE ]] || record b_build_capture "FAILED (missing output)"
  [[ -f $DRIVER ]] || record b_build_driver "FAILED (missing output)"
}

# ---------------------------------------------------------------------------------------------
# c. GPU probe

step_probe() {
  (( DRY_RUN )) || : >"$OUT/gpu_probe.txt"
  have c_gpu_probe "$PROBE" npkit_gpu_probe || return
  run_step c_gpu_probe 60 "$OUT/gpu_probe.txt" "$PROBE"
}

# ---------------------------------------------------------------------------------------------
# d.-g. Driver runs

# driver_env CONFIG DUMP_DIR: prints the env assignments (one per line) of a plugin configuration:
# off, coll, coll-kernel or all.
driver_env() {
  case $1 in
    off) echo "NCCL_PROFILER_PLUGIN=none" ;;
    coll) printf '%s\n' "NCCL_PROFILER_PLUGIN=$PLUGIN" "NPKIT_EVENTS=coll" "NPKIT_DUMP_DIR=$2" ;;
    coll-kernel) printf '%s\n' "NCCL_PROFILER_PLUGIN=$PLUGIN" "NPKIT_EVENTS=coll,kernel" "NPKIT_DUMP_DIR=$2" ;;
    all) printf '%s\n' "NCCL_PROFILER_PLUGIN=$PLUGIN" "NPKIT_EVENTS=all" "NPKIT_DUMP_DIR=$2" ;;
  esac
}

step_overhead() {
  local dir=$OUT/overhead rep config scratch
  local -A timed_out=()
  (( DRY_RUN )) || mkdir -p "$dir"
  for rep in 1 2 3; do
    for config in off coll coll-kernel all; do
      local step=d_overhead_${config}_$rep
      have "$step" "$DRIVER" npkit-nccl-driver || continue
      if [[ -n ${timed_out[$config]:-} ]]; then  # a hang repeats: keep the time for other steps
        log "$step: SKIPPED: this configuration timed out in repetition ${timed_out[$config]}"
        record "$step" "skipped (timed out before)"
        continue
      fi
      [[ $config == off ]] || have "$step" "$PLUGIN" "profiler plugin" || continue
      scratch="<scratch folder>"
      (( DRY_RUN )) || scratch=$(mktemp -d "${TMPDIR:-/tmp}/npkit-overhead.XXXXXX")
      local assignments
      mapfile -t assignments < <(driver_env "$config" "$scratch")
      run_step "$step" $((DRIVER_TIMEOUT_S + 20)) "$dir/${config}_$rep.txt" \
        env "${assignments[@]}" "$DRIVER" --colls allreduce,allgather --min-bytes 8 \
        --max-bytes 256M --step-factor 2 --warmup 5 --iters 100 --timeout-s "$DRIVER_TIMEOUT_S" \
        --csv "$dir/${config}_$rep.csv"
      [[ ${STEP_STATUS[$step]} == "FAILED (timeout)" ]] && timed_out[$config]=$rep
      if [[ $config != off ]] && (( ! DRY_RUN )); then
        # Only the CSVs matter here; the dumps are listed (proof the plugin ran), not kept.
        (cd "$scratch" && find . -type f -printf '%s\t%p\n' | sort -k2) >"$dir/${config}_${rep}_dump_listing.tsv"
        expect_dumps "$step" "$scratch"
      fi
      (( DRY_RUN )) || rm -rf "$scratch"
    done
  done
  (( DRY_RUN )) || summarize_overhead "$dir" >"$dir/summary.txt" 2>&1 ||
    log "d_overhead: summary failed (see $dir/summary.txt)"
}

# Per (collective, size): time of each plugin configuration relative to 'off' (mean of the reps).
summarize_overhead() {
  python3 - "$1" <<'EOF'
import csv, glob, os, sys
from collections import defaultdict
times = defaultdict(list)  # (config, coll, size) -> [time_us]
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*_[0-9].csv"))):
    config = os.path.basename(path).rsplit("_", 1)[0]
    with open(path) as handle:
        for row in csv.DictReader(handle):
            times[(config, row["coll"], int(row["size_bytes"]))].append(float(row["time_us"]))
mean = {key: sum(v) / len(v) for key, v in times.items()}
configs = ["off", "coll", "coll-kernel", "all"]
print("# time per launch (us, mean over repetitions) and ratio to 'off'")
print(f"{'coll':<10} {'size(B)':>10} " + " ".join(f"{c:>12}" for c in configs) +
      " " + " ".join(f"{c + '/off':>16}" for c in configs[1:]))
for coll, size in sorted({(k[1], k[2]) for k in mean}):
    base = mean.get(("off", coll, size))
    cells = [f"{mean[(c, coll, size)]:>12.2f}" if (c, coll, size) in mean else f"{'-':>12}"
             for c in configs]
    ratios = [f"{mean[(c, coll, size)] / base:>16.3f}" if base and (c, coll, size) in mean
              else f"{'-':>16}" for c in configs[1:]]
    print(f"{coll:<10} {size:>10} " + " ".join(cells) + " " + " ".join(ratios))
EOF
}

# capture_run STEP FOLDER EVENTS EXTRA_ENV... -- DRIVER_ARGS...: a driver run with the plugin and
# NCCL INIT/ENV/NET debug lines (one file per process), dumps in FOLDER/dump, CSV FOLDER/driver.csv.
capture_run() {
  local step=$1 dir=$2 events=$3
  shift 3
  local extra_env=()
  while (( $# )) && [[ $1 != -- ]]; do extra_env+=("$1"); shift; done
  shift
  (( DRY_RUN )) || mkdir -p "$dir/dump"
  have "$step" "$DRIVER" npkit-nccl-driver && have "$step" "$PLUGIN" "profiler plugin" || return
  local assignments=("NCCL_PROFILER_PLUGIN=$PLUGIN" "NPKIT_EVENTS=$events" "NPKIT_DUMP_DIR=$dir/dump"
                     "NCCL_DEBUG=INFO" "NCCL_DEBUG_SUBSYS=INIT,ENV,NET" "NCCL_DEBUG_FILE=$dir/nccl-debug.%p.log"
                     "${extra_env[@]}")
  (( DRY_RUN )) || printf '%s\n' "NCCL_NVLS_ENABLE=$NCCL_NVLS_ENABLE" "${assignments[@]}" >"$dir/ENV.txt"
  run_step "$step" $((DRIVER_TIMEOUT_S + 20)) "$dir/driver.txt" env "${assignments[@]}" "$DRIVER" \
    --timeout-s "$DRIVER_TIMEOUT_S" --csv "$dir/driver.csv" "$@"
  expect_dumps "$step" "$dir/dump"
  log_nccl_lines "$step" "$dir"
}

step_nvlink() {
  capture_run e_nvlink "$OUT/nvlink" all -- \
    --colls allreduce,allgather,reducescatter,alltoall,broadcast --min-bytes 1K --max-bytes 64M \
    --step-factor 16 --warmup 2 --iters 5
  # Communicators never destroyed: the plugin's process-exit dump writes them.
  capture_run e_exit_dump "$OUT/nvlink/exit" all -- \
    --colls allreduce --min-bytes 1K --max-bytes 1M --step-factor 32 --warmup 1 --iters 2 --no-destroy
}

step_socket() {
  local dir=$OUT/socket
  capture_run f_socket "$dir" all NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 NCCL_NET=Socket \
    NCCL_SOCKET_IFNAME=lo -- \
    --colls allreduce,allgather,reducescatter --min-bytes 1K --max-bytes 16M --step-factor 16 \
    --warmup 2 --iters 5
  (( DRY_RUN )) && return
  [[ ${STEP_STATUS[f_socket]:-} == ok ]] || return
  local proof
  proof=$(cat "$dir"/nccl-debug.*.log 2>/dev/null | grep -c "via NET/Socket")
  if (( proof > 0 )); then
    log "f_socket: transport confirmed: $proof NCCL line(s) 'via NET/Socket', e.g.:"
    grep -h -m 2 "via NET/Socket" "$dir"/nccl-debug.*.log | sed 's/^/    | /' | tee -a "$LOG"
  else
    log "f_socket: FAILED: no 'via NET/Socket' line in $dir/nccl-debug.*.log"
    record f_socket "FAILED (transport not NET/Socket)"
  fi
}

step_agree() {
  capture_run g_agree "$OUT/agree" coll,kernel -- \
    --colls allreduce --min-bytes 1M --max-bytes 256M --step-factor 4 --warmup 2 --iters 20
}

# Two captures identical but for NCCL_PROTO: what `npkit-analyze diff` is shown on.
step_proto() {
  local proto
  for proto in LL Simple; do
    capture_run "j_proto_${proto,,}" "$OUT/proto/${proto,,}" coll,kernel "NCCL_PROTO=$proto" -- \
      --colls allreduce --min-bytes 4K --max-bytes 16M --step-factor 4 --warmup 2 --iters 20
  done
}

# A job that is killed, not finalized: the plugin's live files are all that stays.
KILL_AFTER_S=6
step_killed() {
  local dir=$OUT/killed step=k_killed
  (( DRY_RUN )) || mkdir -p "$dir/dump"
  have "$step" "$DRIVER" npkit-nccl-driver && have "$step" "$PLUGIN" "profiler plugin" || return
  local assignments=("NCCL_PROFILER_PLUGIN=$PLUGIN" "NPKIT_EVENTS=all" "NPKIT_DUMP_DIR=$dir/dump"
                     "NPKIT_BUFFER_SIZE_MB=8" "NCCL_DEBUG=INFO" "NCCL_DEBUG_SUBSYS=INIT,ENV"
                     "NCCL_DEBUG_FILE=$dir/nccl-debug.%p.log")
  local command=(env "${assignments[@]}" "$DRIVER" --timeout-s "$DRIVER_TIMEOUT_S" --colls allreduce
                 --min-bytes 1M --max-bytes 1M --warmup 2 --iters 1000000)
  if (( DRY_RUN )); then
    printf '+ setsid %s > %s 2>&1 & sleep %s; kill -KILL -- -PGID\n' "$(quoted "${command[@]}")" \
      "$(quoted "$dir/driver.txt")" "$KILL_AFTER_S"
    record "$step" "dry run"
    return
  fi
  printf '%s\n' "NCCL_NVLS_ENABLE=$NCCL_NVLS_ENABLE" "${assignments[@]}" >"$dir/ENV.txt"
  log "$step: $(quoted "${command[@]}"), SIGKILL to its process group after ${KILL_AFTER_S}s"
  setsid "${command[@]}" >"$dir/driver.txt" 2>&1 &
  local leader=$!
  sleep "$KILL_AFTER_S"
  kill -KILL -- "-$leader" 2>/dev/null
  wait "$leader" 2>/dev/null
  local status=$?
  local live dumps
  live=$(find "$dir/dump" -name '*.live.npkt' | wc -l)
  dumps=$(find "$dir/dump" -name '*.npkt' ! -name '*.live.npkt' | wc -l)
  log "$step: ended with status $status; $live live file(s), $dumps dump(s) in $dir/dump"
  (cd "$dir/dump" && find . -type f -printf '%s\t%p\n' | sort -k2) | sed 's/^/    | /' | tee -a "$LOG"
  if (( status == 137 && live > 0 && dumps == 0 )); then
    record "$step" ok
  else
    record "$step" "FAILED (status $status, $live live file(s), $dumps dump(s))"
  fi
  log_nccl_lines "$step" "$dir"
}

# ---------------------------------------------------------------------------------------------
# h. PyTorch

step_torch() {
  local dir=$OUT/torch
  (( DRY_RUN )) || mkdir -p "$dir/dump"
  have h_torch "$PLUGIN" "profiler plugin" || return
  local assignments=("NCCL_PROFILER_PLUGIN=$PLUGIN" "NPKIT_EVENTS=all" "NPKIT_DUMP_DIR=$dir/dump"
                     "NCCL_DEBUG=INFO" "NCCL_DEBUG_SUBSYS=INIT,ENV,NET" "NCCL_DEBUG_FILE=$dir/nccl-debug.%p.log")
  (( DRY_RUN )) || printf '%s\n' "NCCL_NVLS_ENABLE=$NCCL_NVLS_ENABLE" \
    "TORCH_SYMM_MEM_DISABLE_MULTICAST=$TORCH_SYMM_MEM_DISABLE_MULTICAST" \
    "NVSHMEM_DISABLE_NVLS=$NVSHMEM_DISABLE_NVLS" "${assignments[@]}" >"$dir/ENV.txt"
  run_step h_torch 180 "$dir/run.txt" env "${assignments[@]}" \
    python3 "$REPO/samples/pytorch/allreduce_capture.py" --out "$dir" --nprocs 2
  expect_dumps h_torch "$dir/dump"
  log_nccl_lines h_torch "$dir"
}

# ---------------------------------------------------------------------------------------------
# i. Pack and summarize

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
      log "i_pack: FAILED to pack $folder"
      record i_pack "FAILED ($folder)"
    fi
  done
  [[ -n ${STEP_STATUS[i_pack]+set} ]] || record i_pack "$( (( DRY_RUN )) && echo "dry run" || echo ok)"
}

summarize() {
  local step failed=0 file size
  log "summary:"
  for step in "${STEP_ORDER[@]}"; do
    log "  $(printf '%-24s %s' "$step" "${STEP_STATUS[$step]}")"
    [[ ${STEP_STATUS[$step]} == ok || ${STEP_STATUS[$step]} == "dry run" ]] || failed=1
  done
  (( DRY_RUN )) && { log "dry run: nothing was executed"; return 0; }
  log "files in $OUT:"
  for file in log.txt env.txt gpu_probe.txt "${FOLDERS[@]/%/.tar.gz}"; do
    size=$(stat -c %s "$OUT/$file" 2>/dev/null || echo missing)
    log "  $(printf '%-16s %s' "$file" "$size")"
    if [[ $size != missing ]] && (( size > 16 * 1024 * 1024 )); then
      log "  WARNING: $file is over 16 MiB"
      failed=1
    fi
  done
  log "total time $SECONDS s (budget $BUDGET_S s)"
  return "$failed"
}

# ---------------------------------------------------------------------------------------------

clean_previous_results() {
  (( DRY_RUN )) && return
  local item
  for item in log.txt env.txt gpu_probe.txt "${FOLDERS[@]}" "${FOLDERS[@]/%/.tar.gz}"; do
    rm -rf "${OUT:?}/$item"
  done
}

main() {
  clean_previous_results
  log "capture-h200: repository $REPO, output $OUT, budget ${BUDGET_S}s, NCCL_NVLS_ENABLE=$NCCL_NVLS_ENABLE"
  NCCL_DIR=$(find_pip_nccl)
  if [[ -n $NCCL_DIR ]]; then
    export LD_LIBRARY_PATH="$NCCL_DIR/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    log "pip NCCL: $NCCL_DIR (lib/ added to LD_LIBRARY_PATH)"
  else
    NCCL_DIR=""
    log "pip NCCL (python3 -c 'import nvidia.nccl') not found; the driver build searches the CUDA toolkit"
  fi
  step_environment
  step_build
  wanted probe && step_probe
  wanted overhead && step_overhead
  wanted nvlink && step_nvlink
  wanted socket && step_socket
  wanted agree && step_agree
  wanted torch && step_torch
  wanted proto && step_proto
  wanted killed && step_killed
  step_pack
  summarize
}

main
