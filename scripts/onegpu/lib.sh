# shellcheck shell=bash disable=SC2034  # variables are for the scripts that source this
# onegpu/lib.sh — what scripts/onegpu-matrix.sh and scripts/gpu-check.sh share on the GPU machine:
# logging and PASS/FAIL/SKIP lines, the time budget, the builds (kept in $WORK, reused while the
# machine stays warm), and running npkit-nccl-driver or samples/pytorch/onegpu_ranks.py as many
# ranks on one GPU with NCCL's INFO log, the plugin's dump and the per-call logs beside each run.
#
# Sourced, not run. The caller sets first:
#   REPO      the repository root          WORK   scratch kept between calls ($REPO/.device-work)
#   LOGS      where build logs and log.txt go          CHECKS  the file PASS/FAIL lines go to
#   DRY_RUN   1: print every command instead of running it
#   BUDGET_S  seconds this call may take (SECONDS counts from the caller's start)
#   RUN_ROOT  where driver_run puts its run folders (RUN_ROOT/nccl-<version>/<run>)
# Optional: ANALYZER (npkit-analyze built elsewhere; its folder and ../lib join LD_LIBRARY_PATH).
# Every GPU program runs under `timeout`, with NCCL_NVLS_ENABLE=0.

export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
# Each run sets these itself; leftovers from the caller's shell must not leak in.
unset NCCL_PROFILER_PLUGIN NPKIT_EVENTS NPKIT_DUMP_DIR NPKIT_CHAIN_PLUGIN NCCL_DEBUG \
  NCCL_DEBUG_SUBSYS NCCL_DEBUG_FILE NCCL_HOSTID NCCL_ALGO NCCL_PROTO

ONEGPU_JOBS=$(nproc 2>/dev/null || echo 16)
ONEGPU_GENCODE="-gencode=arch=compute_90,code=sm_90"
PACK_RESERVE_S=30          # kept back for packing the results
NCCL_230_VERSION=2.30.7
BUILD=$WORK/build-cuda     # plugin, driver and device self-test: one CMake tree
NCCL_230_SRC=$WORK/nccl-$NCCL_230_VERSION/nccl
PLUGIN=$BUILD/lib/libnccl-profiler-npkit.so
DRIVER=$BUILD/bin/npkit-nccl-driver
SELFTEST=$BUILD/bin/npkit_device_selftest
INSPECTOR=$NCCL_230_SRC/plugins/profiler/inspector/libnccl-profiler-inspector.so
TORCH_RANKS=$REPO/samples/pytorch/onegpu_ranks.py
HELPERS=$REPO/scripts/onegpu
FAILED=0

# ---------------------------------------------------------------------------------------------
# Logging, checks, budget

stamp() { printf '%(%H:%M:%S)T +%ss' -1 "$SECONDS"; }

log() {
  if (( DRY_RUN )); then printf '# %s\n' "$*"; return; fi
  printf '[%s] %s\n' "$(stamp)" "$*" | tee -a "$LOGS/log.txt"
}

quoted() {
  local word text=""
  for word in "$@"; do text+="$(printf '%q' "$word") "; done
  printf '%s' "${text% }"
}

# verdict WORD NAME DETAIL: one line to stdout and $CHECKS.
verdict() {
  if (( DRY_RUN )); then printf '# would check: %s\n' "$2"; return; fi
  printf '%s %s: %s\n' "$1" "$2" "$3" | tee -a "$CHECKS"
}

# check NAME STATUS DETAIL: PASS when STATUS is 0, else FAIL (and FAILED=1); returns STATUS == 0.
check() {
  (( DRY_RUN )) && { verdict PASS "$1" "$3"; return 0; }
  if (( $2 == 0 )); then verdict PASS "$1" "$3"; return 0; fi
  verdict FAIL "$1" "$3"
  FAILED=1
  return 1
}

skip() { verdict SKIP "$1" "$2"; }
info() { verdict INFO "$1" "$2"; }

time_left() { echo $((BUDGET_S - SECONDS - PACK_RESERVE_S)); }

# capped LIMIT: LIMIT, or the time left when that is less (at least 20 s).
capped() {
  local left
  left=$(time_left)
  (( DRY_RUN || left >= $1 )) && { echo "$1"; return; }
  echo $(( left > 20 ? left : 20 ))
}

# fits NAME SECONDS: true when SECONDS more fit in the budget; else a SKIP line. Runs ask for
# half their time limit (most end well within it) and have the limit cut to the time left.
fits() {
  (( DRY_RUN )) && return 0
  local left
  left=$(time_left)
  (( left >= $2 )) && return 0
  skip "$1" "needs about $2 s, $left s left of the ${BUDGET_S} s budget"
  return 1
}

# The NCCL of the pip wheel nvidia-nccl-cu13 that PyTorch loads (include/ and lib/).
torch_nccl_home() {
  python3 - <<'PYTHON' 2>/dev/null
import os
import nvidia.nccl as nccl
roots = [os.path.dirname(nccl.__file__)] if getattr(nccl, "__file__", None) else list(nccl.__path__)
for root in roots:
    if os.path.exists(os.path.join(root, "lib", "libnccl.so.2")):
        print(root)
        break
PYTHON
}

# nccl_lib VERSION: the folder holding that version's libnccl.so.2.
nccl_lib() {
  case $1 in
    2.28.9) echo "$NCCL_289_HOME/lib" ;;
    "$NCCL_230_VERSION") echo "$NCCL_230_SRC/build/lib" ;;
  esac
}

# api_of VERSION: the profiler API version NCCL loads the plugin as.
api_of() { case $1 in 2.28.9) echo v5 ;; *) echo v6 ;; esac; }

# have_analyzer: ANALYZER is given and runs here (checked once; a SKIP line says why not).
ANALYZER_OK=""
have_analyzer() {
  if [[ -z $ANALYZER_OK ]]; then
    ANALYZER_OK=0
    if [[ -n ${ANALYZER:-} && -x $ANALYZER ]] && analyzer --version >/dev/null 2>&1; then
      ANALYZER_OK=1
    elif [[ -n ${ANALYZER:-} ]]; then
      skip "analyzer" "$ANALYZER does not run here: $(analyzer --version 2>&1 | head -1)"
    fi
  fi
  (( ANALYZER_OK ))
}

analyzer() {
  local dir
  dir=$(dirname "$ANALYZER")
  LD_LIBRARY_PATH="$dir:$dir/../lib:${LD_LIBRARY_PATH:-}" "$ANALYZER" "$@"
}

environment_report() {
  (( DRY_RUN )) && { log "environment report -> $1"; return; }
  {
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "commit: $(git -C "$REPO" rev-parse HEAD 2>/dev/null || echo unknown)"
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1
    nvcc --version 2>&1 | tail -1
    cmake --version 2>&1 | head -1
    echo "cpus: $ONEGPU_JOBS"
    python3 -c 'import torch; print("torch", torch.__version__, "nccl", torch.cuda.nccl.version())' 2>&1
    echo "NCCL 2.28.9 (PyTorch's wheel): $NCCL_289_HOME"
    echo "ANALYZER: ${ANALYZER:-none}"
  } >"$1"
}

# ---------------------------------------------------------------------------------------------
# Builds (idempotent: a warm machine reuses $WORK)

# build_step NAME LIMIT COMMAND...: COMMAND under `timeout`, output to $LOGS/NAME.log; a summary
# line and the log's tail go to $LOGS/build.txt.
build_step() {
  local name=$1 limit=$2
  shift 2
  if (( DRY_RUN )); then
    printf '+ timeout %s %s > %s 2>&1\n' "$limit" "$(quoted "$@")" "$LOGS/$name.log"
    return 0
  fi
  local start=$SECONDS status
  timeout "$limit" "$@" >>"$LOGS/$name.log" 2>&1
  status=$?
  {
    echo "== $name: exit $status after $((SECONDS - start)) s: $(quoted "$@")"
    tail -15 "$LOGS/$name.log"
  } >>"$LOGS/build.txt"
  log "build $name: exit $status after $((SECONDS - start)) s"
  return "$status"
}

# build_ours TARGET...: configures $BUILD once (capture side, CUDA samples, tests for the device
# self-test; the driver against PyTorch's NCCL 2.28.9 headers, RUNPATH so that LD_LIBRARY_PATH
# picks the NCCL a run wants) and builds the targets.
build_ours() {
  local flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DNPKIT_BUILD_ANALYZER=OFF -DNPKIT_BUILD_CAPTURE=ON
               -DNPKIT_BUILD_CUDA=ON -DNPKIT_BUILD_TESTS=ON -DNPKIT_BUILD_BENCH=OFF
               -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc
               "-DNCCL_ROOT=$NCCL_289_HOME" "-DCMAKE_EXE_LINKER_FLAGS=-Wl,--enable-new-dtags")
  if [[ ! -f $BUILD/CMakeCache.txt ]] || (( DRY_RUN )); then
    build_step configure 240 cmake -S "$REPO" -B "$BUILD" "${flags[@]}" || return 1
  fi
  build_step build 300 cmake --build "$BUILD" -j "$ONEGPU_JOBS" --target "$@"
}

# check_ours NAME...: one PASS/FAIL line per output (plugin, driver, selftest).
check_ours() {
  local name path
  for name in "$@"; do
    path=${!name}
    [[ -f $path ]]
    check "build $name" $? "$path"
  done
}

# start_nccl_230: unpacks $NCCL_TARBALL into $WORK and starts `make src.build` in the background
# (NCCL_230_JOB); a finished earlier build (its marker file) is reused.
NCCL_230_JOB=""
start_nccl_230() {
  if [[ -f $NCCL_230_SRC/.npkit-built ]] && (( ! DRY_RUN )); then
    log "NCCL $NCCL_230_VERSION: reusing $NCCL_230_SRC/build"
    return 0
  fi
  if (( DRY_RUN )); then
    printf '+ tar -C %s -xzf %s\n' "$(quoted "$WORK/nccl-$NCCL_230_VERSION")" "$(quoted "$NCCL_TARBALL")"
  elif [[ ! -f $NCCL_230_SRC/makefiles/version.mk ]]; then
    mkdir -p "$WORK/nccl-$NCCL_230_VERSION"
    tar -C "$WORK/nccl-$NCCL_230_VERSION" -xzf "$NCCL_TARBALL" || return 1
  fi
  build_step "nccl-$NCCL_230_VERSION" 480 make -C "$NCCL_230_SRC" -j "$ONEGPU_JOBS" src.build \
    "NVCC_GENCODE=$ONEGPU_GENCODE" &
  NCCL_230_JOB=$!
}

# wait_nccl_230: waits for the background build; true when the library is there.
wait_nccl_230() {
  (( DRY_RUN )) && return 0
  if [[ -n $NCCL_230_JOB ]]; then
    wait "$NCCL_230_JOB" && touch "$NCCL_230_SRC/.npkit-built"
    NCCL_230_JOB=""
  fi
  [[ -f $NCCL_230_SRC/.npkit-built && -e $NCCL_230_SRC/build/lib/libnccl.so.2 ]]
}

# build_inspector: NVIDIA's Inspector plugin from the same NCCL tree (its own Makefile).
build_inspector() {
  [[ -f $INSPECTOR ]] && (( ! DRY_RUN )) && return 0
  build_step inspector 180 make -C "$NCCL_230_SRC/plugins/profiler/inspector" -j 4 \
    CUDA_HOME=/usr/local/cuda
}

# ---------------------------------------------------------------------------------------------
# Runs

# plugin_env SETTING DUMP: the VAR=VALUE words of a plugin setting (off, coll, sampled, coll-kernel,
# all). sampled: Coll/P2p for every operation, KernelCh for every 8th collective of a communicator.
plugin_env() {
  case $1 in
    off) echo "NCCL_PROFILER_PLUGIN=none" ;;
    coll) echo "NCCL_PROFILER_PLUGIN=$PLUGIN NPKIT_EVENTS=coll NPKIT_DUMP_DIR=$2" ;;
    sampled)
      echo "NCCL_PROFILER_PLUGIN=$PLUGIN NPKIT_EVENTS=coll,kernel NPKIT_SAMPLE=1/8 NPKIT_DUMP_DIR=$2" ;;
    coll-kernel) echo "NCCL_PROFILER_PLUGIN=$PLUGIN NPKIT_EVENTS=coll,kernel NPKIT_DUMP_DIR=$2" ;;
    all) echo "NCCL_PROFILER_PLUGIN=$PLUGIN NPKIT_EVENTS=all NPKIT_DUMP_DIR=$2" ;;
  esac
}

# launch DIR VERSION LIMIT VAR=VALUE... -- COMMAND...: runs COMMAND under `timeout -k 5 LIMIT`
# with that version's NCCL first on LD_LIBRARY_PATH, NCCL's INFO log per process in
# DIR/nccl-debug/ and the given variables; output to DIR/driver.txt. In the background when
# BACKGROUND=1 (RUN_JOB is its job, RUN_STATUS_FILE gets its status). Sets RUN_STATUS, RUN_SECONDS
# and RUN_COMMAND; writes DIR/ENV.txt.
launch() {
  local dir=$1 version=$2 limit=$3
  shift 3
  local assignments=("LD_LIBRARY_PATH=$(nccl_lib "$version")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
                     "NCCL_NVLS_ENABLE=0" "NCCL_DEBUG=INFO" "NCCL_DEBUG_SUBSYS=INIT,ENV"
                     "NCCL_DEBUG_FILE=$dir/nccl-debug/%p.log")
  while (( $# )) && [[ $1 != -- ]]; do assignments+=("$1"); shift; done
  shift
  RUN_COMMAND=(env "${assignments[@]}" timeout -k 5 "$limit" "$@")
  if (( DRY_RUN )); then
    printf '+ %s > %s 2>&1%s\n' "$(quoted "${RUN_COMMAND[@]}")" "$dir/driver.txt" \
      "$( (( ${BACKGROUND:-0} )) && echo ' &')"
    RUN_STATUS=0
    RUN_SECONDS=0
    return 0
  fi
  mkdir -p "$dir/nccl-debug"
  printf '%s\n' "${assignments[@]:1}" >"$dir/ENV.txt"
  local start=$SECONDS
  if (( ${BACKGROUND:-0} )); then
    RUN_STATUS_FILE=$WORK/run-status.$$
    rm -f "$RUN_STATUS_FILE"
    ( "${RUN_COMMAND[@]}" >"$dir/driver.txt" 2>&1; echo $? >"$RUN_STATUS_FILE" ) &
    RUN_JOB=$!
    RUN_START=$start
    return 0
  fi
  "${RUN_COMMAND[@]}" >"$dir/driver.txt" 2>&1
  RUN_STATUS=$?
  RUN_SECONDS=$((SECONDS - start))
}

# wait_background: waits for a BACKGROUND=1 launch; sets RUN_STATUS and RUN_SECONDS.
wait_background() {
  (( DRY_RUN )) && return 0
  wait "$RUN_JOB"
  RUN_STATUS=$(cat "$RUN_STATUS_FILE" 2>/dev/null || echo 255)
  RUN_SECONDS=$((SECONDS - RUN_START))
}

# name_debug_logs DIR: renames DIR/nccl-debug/<pid>.log to rank<R>.log (the events logs' pids).
name_debug_logs() {
  local events pid rank
  for events in "$1"/calls/events_rank*.txt; do
    [[ -f $events ]] || continue
    rank=${events##*events_rank}
    rank=${rank%.txt}
    pid=$(grep -o ' start pid=[0-9]*' "$events" | head -1 | cut -d= -f2)
    [[ -n $pid && -f $1/nccl-debug/$pid.log ]] && mv "$1/nccl-debug/$pid.log" "$1/nccl-debug/rank$rank.log"
  done
}

# loaded_line DIR: the distinct "PROFILER/Plugin: Loaded ..." lines of a run, joined by "; ".
loaded_line() {
  cat "$1"/nccl-debug/*.log 2>/dev/null | grep -o 'PROFILER/Plugin: Loaded [^ ]* (v[0-9]*)' |
    sort | uniq -c | sed 's/^ *//' | paste -sd ';' - | sed 's/;/; /g'
}

# nccl_version_of DIR: the NCCL version the run reports (driver preamble, or NCCL's own banner).
nccl_version_of() {
  local version
  version=$(grep -o '^# npkit-nccl-driver: .*NCCL [0-9.]*' "$1/driver.txt" 2>/dev/null |
    grep -o 'NCCL [0-9.]*$' | head -1)
  [[ -n $version ]] || version=$(cat "$1"/nccl-debug/*.log 2>/dev/null |
    grep -o 'NCCL version [0-9.]*' | head -1 | sed 's/ version//')
  echo "${version:-unknown}"
}

# describe_run DIR NAME WHAT EXPECTED: writes DIR/run.txt (how the run was made and what it gave)
# and appends a row to $WORK/runs.tsv for the summary.
describe_run() {
  local dir=$1 name=$2 what=$3 expected=$4
  (( DRY_RUN )) && return 0
  name_debug_logs "$dir"
  local dumps live
  dumps=$(find "$dir" -name '*.npkt' ! -name '*.live.npkt' 2>/dev/null | wc -l)
  live=$(find "$dir" -name '*.live.npkt' 2>/dev/null | wc -l)
  {
    echo "run: $name"
    echo "what: $what"
    echo "made by: scripts/onegpu-matrix.sh or scripts/gpu-check.sh (scripts/onegpu/lib.sh), $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "machine: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)"
    local command
    command=$(quoted "${RUN_COMMAND[@]}")
    echo "command (from the repository root):"
    echo "  ${command//$REPO\//}"
    echo "NCCL: $(nccl_version_of "$dir")"
    echo "profiler plugin: $(loaded_line "$dir")"
    echo "exit status: $RUN_STATUS (expected $expected) after $RUN_SECONDS s"
    echo "files: $dumps dump(s), $live live file(s), driver.txt (stdout and stderr), ENV.txt,"
    echo "  nccl-debug/rank<R>.log (NCCL_DEBUG=INFO, NCCL_DEBUG_SUBSYS=INIT,ENV), calls/ (per-call logs)"
    echo "what the program said on stderr:"
    grep -E '^(npkit-nccl-driver|onegpu_ranks|rank [0-9]+)[: ]' "$dir/driver.txt" | head -20 | sed 's/^/  /'
  } >"$dir/run.txt"
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$RUN_STATUS" "$expected" "$RUN_SECONDS" "$dumps" \
    "$live" >>"$WORK/runs.tsv"
}

# check_status NAME EXPECTED: EXPECTED is a status, or "!124" (the program ended itself, not the
# outer timeout).
check_status() {
  (( DRY_RUN )) && return 0
  if [[ $2 == '!124' ]]; then
    (( RUN_STATUS != 124 && RUN_STATUS != 137 ))
    check "$1: ended by itself" $? "exit $RUN_STATUS after $RUN_SECONDS s (124/137: outer timeout)"
  else
    (( RUN_STATUS == $2 ))
    check "$1: exit status" $? "$RUN_STATUS (expected $2) after $RUN_SECONDS s"
  fi
}

# check_plugin NAME DIR VERSION: every process loaded npkit as that version's profiler API.
check_plugin() {
  (( DRY_RUN )) && return 0
  local want seen
  want=$(api_of "$3")
  seen=$(cat "$2"/nccl-debug/*.log 2>/dev/null | grep -o 'Loaded npkit (v[0-9]*)' | sort -u |
    paste -sd ' ' -)
  [[ $seen == "Loaded npkit ($want)" ]]
  check "$1: plugin loaded as $want" $? "$(loaded_line "$2")"
}

# check_nccl_version NAME DIR VERSION
check_nccl_version() {
  (( DRY_RUN )) && return 0
  local seen
  seen=$(nccl_version_of "$2")
  [[ $seen == "NCCL $3" ]]
  check "$1: runs NCCL $3" $? "$seen"
}

# check_dumps NAME DIR MIN [live]: at least MIN .npkt files (dumps; or live files with `live`).
check_dumps() {
  (( DRY_RUN )) && return 0
  local n
  if [[ ${4:-} == live ]]; then
    n=$(find "$2" -path '*/dump/*' -name '*.live.npkt' | wc -l)
  else
    n=$(find "$2" -path '*/dump/*' -name '*.npkt' ! -name '*.live.npkt' | wc -l)
  fi
  (( n >= $3 ))
  check "$1: ${4:-dump} files" $? "$n (at least $3)"
}

# check_results NAME DIR: every table's check clean ("Out of bounds values : 0 OK").
check_results() {
  (( DRY_RUN )) && return 0
  local ok bad
  ok=$(grep -c 'Out of bounds values : 0 OK' "$2/driver.txt")
  bad=$(grep -c 'Out of bounds values : .* FAILED' "$2/driver.txt")
  (( ok > 0 && bad == 0 ))
  check "$1: result check" $? "$ok table(s) clean, $bad with wrong values"
}

# analyze_run NAME DIR [instances]: with ANALYZER, info/bandwidth (and instances) of DIR/dump into
# DIR/analysis/, and with `instances` a check that the analyzer counts the driver's calls.
analyze_run() {
  have_analyzer || return 0
  (( DRY_RUN )) && { printf '+ %s info|bandwidth|instances %s/dump\n' "$ANALYZER" "$2"; return; }
  mkdir -p "$2/analysis"
  analyzer info "$2/dump" >"$2/analysis/info.txt" 2>&1
  analyzer bandwidth "$2/dump" >"$2/analysis/bandwidth.txt" 2>&1
  [[ ${3:-} == instances ]] || return 0
  analyzer instances "$2/dump" -q >"$2/analysis/instances.jsonl" 2>"$2/analysis/instances.err"
  analyzer bandwidth "$2/dump" --format csv --view collectives -q >"$2/analysis/bandwidth.csv" \
    2>>"$2/analysis/instances.err"
  python3 "$HELPERS/analysis_check.py" instances "$2/analysis/instances.jsonl" "$2/calls" \
    >"$2/analysis/instances-vs-calls.txt" 2>&1
  check "$1: analyzer instances = driver calls" $? \
    "$(paste -sd ';' "$2/analysis/instances-vs-calls.txt" | cut -c1-400)"
  python3 "$HELPERS/analysis_check.py" bandwidth "$2/analysis/bandwidth.csv" "$2/calls" \
    >"$2/analysis/bandwidth-vs-calls.txt" 2>&1
  check "$1: analyzer bandwidth instances = driver calls" $? \
    "$(paste -sd ';' "$2/analysis/bandwidth-vs-calls.txt" | cut -c1-300)"
}

# analyze_hang NAME FOLDER RANK OUTPUT_PREFIX: with ANALYZER, `hang` of FOLDER (text and JSON),
# checks that it finds a stall and singles out RANK.
analyze_hang() {
  if ! have_analyzer; then
    skip "$1: analyzer hang" "no ANALYZER given"
    return 0
  fi
  (( DRY_RUN )) && { printf '+ %s hang %s\n' "$ANALYZER" "$2"; return; }
  analyzer hang "$2" >"$4.txt" 2>&1
  local status=$?
  analyzer hang "$2" --format json -q -o "$4.json" >/dev/null 2>&1
  (( status == 1 ))
  check "$1: analyzer hang finds a stall" $? "exit $status ($(head -2 "$4.txt" | paste -sd ' ' | cut -c1-200))"
  python3 "$HELPERS/analysis_check.py" hang "$4.json" "$3" >"$4.verdict.txt" 2>&1
  check "$1: analyzer hang names rank $3" $? "$(paste -sd ' ' "$4.verdict.txt" | cut -c1-300)"
}

# driver_run VERSION RUN NRANKS LIMIT EXPECT WHAT SETTING [VAR=VALUE...] -- DRIVER_ARGS...: the
# driver in $RUN_ROOT/nccl-VERSION/RUN with plugin SETTING (plugin_env; `custom`: only the given
# variables), its calls log and CSV; checks status, NCCL version and, for npkit settings, the
# plugin's API version. False when skipped. RUN_DIR is the run's folder.
driver_run() {
  local version=$1 run=$2 nranks=$3 limit=$4 expect=$5 what=$6 setting=$7
  shift 7
  local name="nccl-$version/$run" vars=()
  RUN_DIR=$RUN_ROOT/nccl-$version/$run
  while (( $# )) && [[ $1 != -- ]]; do vars+=("$1"); shift; done
  shift
  fits "$name" $((limit / 2)) || return 1
  limit=$(capped "$limit")
  (( DRY_RUN )) || mkdir -p "$RUN_DIR/dump" "$RUN_DIR/calls"
  local plugin=()
  [[ $setting == custom ]] || read -ra plugin <<<"$(plugin_env "$setting" "$RUN_DIR/dump")"
  log "$name: $what"
  launch "$RUN_DIR" "$version" "$limit" "${plugin[@]}" "${vars[@]}" -- "$DRIVER" --one-gpu \
    --nranks "$nranks" --calls-log "$RUN_DIR/calls" --csv "$RUN_DIR/driver.csv" \
    --timeout-s $((limit - 10)) "$@"
  describe_run "$RUN_DIR" "$name" "$what" "$expect"
  check_status "$name" "$expect"
  check_nccl_version "$name" "$RUN_DIR" "$version"
  [[ $setting == custom || $setting == off ]] || check_plugin "$name" "$RUN_DIR" "$version"
  return 0
}

# The hang workload and its kill fault, as onegpu-matrix.sh and gpu-check.sh run it: AllReduce of
# 1 MiB, 20 calls each followed by a synchronize; rank 1 SIGKILLs itself right after call 10.
HANG_LOOP=(--colls allreduce --min-bytes 1M --max-bytes 1M --loop 20)
KILL_HANG_ARGS=("${HANG_LOOP[@]}" --fault kill:1:10 --grace-s 5)
KILL_HANG_WHAT="rank 1 SIGKILLs itself right after call 10 returned"

# check_kill_hang NAME DIR NRANKS: what the kill fault must leave: rank 1's calls log ending at
# call 10, the driver's report of the signal, a live file per rank, and with ANALYZER a stall
# that names rank 1.
check_kill_hang() {
  (( DRY_RUN )) && { analyze_hang "$1" "$2/dump" 1 "$2/analysis-hang"; return; }
  (( $(last_call "$2" 1) == 10 ))
  check "$1: rank 1's calls log ends at call 10" $? "last call $(last_call "$2" 1)"
  grep -q 'rank 1 was killed by signal 9' "$2/calls/events_parent.txt"
  check "$1: the driver reports rank 1 killed by signal 9" $? \
    "$(head -1 "$2/calls/events_parent.txt" | cut -d' ' -f3-)"
  check_dumps "$1" "$2" "$3" live
  analyze_hang "$1" "$2/dump" 1 "$2/analysis-hang"
}

# rank_alive DIR RANK: the rank's process (pid from its events log) is alive.
rank_alive() {
  local pid
  pid=$(grep -o ' start pid=[0-9]*' "$1/calls/events_rank$2.txt" 2>/dev/null | head -1 | cut -d= -f2)
  [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null
}

# last_call DIR RANK: the highest call number in the rank's calls log (-1: none).
last_call() {
  [[ -f $1/calls/calls_rank$2.csv ]] || { echo -1; return; }
  awk -F, 'NR > 1 && $9 == "" { last = $2 } END { print (last == "" ? -1 : last) }' \
    "$1/calls/calls_rank$2.csv" 2>/dev/null
}
