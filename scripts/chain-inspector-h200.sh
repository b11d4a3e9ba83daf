#!/usr/bin/env bash
# chain-inspector-h200.sh — on the GPU machine (the `device` tool), in one call: build NCCL's
# Inspector profiler plugin (plugins/profiler/inspector of NVIDIA/nccl), NVIDIA's nccl-tests and
# this repository's plugin against the NCCL that PyTorch ships (pip nvidia-nccl-cu13), then run the
# same nccl-tests workload three times — npkit alone, the Inspector alone, npkit with the Inspector
# chained (NPKIT_CHAIN_PLUGIN) — and check that chaining changes neither plugin's records.
#
# Usage (from the repository root; the tarballs in an ignored folder carried along):
#   scripts/chain-inspector-h200.sh INSPECTOR_TARBALL NCCL_TESTS_TARBALL OUT
# INSPECTOR_TARBALL unpacks to inspector/ (git archive --prefix=inspector/ v2.30.7-1:plugins/
# profiler/inspector), NCCL_TESTS_TARBALL to nccl-tests/. OUT then holds:
#   env.txt      GPU, driver, nvcc, the NCCL version run
#   build.txt    the three builds: exit status, seconds, the tail of each log
#   check.txt    one line per check; the script's exit status is 0 when every check passed
#   runs.tar.gz  runs/<run>/: nccl-tests output (NCCL_DEBUG=INFO), npkit's dump, the Inspector's logs
# The workload is sendrecv_perf on one GPU (-g 1): a one-rank communicator sends to and receives
# from itself. Unlike a one-rank collective (NCCL's one-rank path emits no profiler event), its
# Send and Recv go through NCCL's P2P path, so both plugins get Group and P2p events (but no
# KernelCh events: see the last check). Sizes 8 KiB .. 8 MiB, at or above the Inspector's default
# minimum (NCCL_INSPECTOR_DUMP_MIN_SIZE_BYTES = 8192), so it keeps every operation it completes. The Inspector's dump
# thread runs every 500 µs (its README's example): at its default interval, -1, the Inspector of
# v2.30.7 starts no dump thread and writes no log at all, at teardown either (inspector.cc,
# inspectorStartDumpThread), although its README says the output is then written at teardown.
# Every GPU program runs under `timeout`; NCCL_NVLS_ENABLE=0 as on every run here.
set -uo pipefail
usage="usage: chain-inspector-h200.sh INSPECTOR_TARBALL NCCL_TESTS_TARBALL OUT"
inspector_tarball=${1:?$usage}
tests_tarball=${2:?$usage}
out=${3:?$usage}
if [[ ! -f src/capture/CMakeLists.txt ]]; then
  echo "chain-inspector-h200: run this from the repository root" >&2
  exit 2
fi
mkdir -p "$out"
export NCCL_NVLS_ENABLE=0
repo=$(pwd -P)
work=$(mktemp -d)
jobs=$(nproc 2>/dev/null || echo 16)

nccl_home=${NCCL_HOME:-$(python3 -c 'import nvidia.nccl, os; print(os.path.dirname(nvidia.nccl.__file__))' 2>/dev/null ||
  python3 -c 'import nvidia, os; print(os.path.join(list(nvidia.__path__)[0], "nccl"))')}
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  nvcc --version | tail -1
  echo "cpus: $jobs"
  echo "nccl_home=$nccl_home"
  grep -h "define NCCL_MAJOR\|define NCCL_MINOR\|define NCCL_PATCH" "$nccl_home/include/nccl.h"
} > "$out/env.txt" 2>&1
# The wheel ships libnccl.so.2 only; the link needs the unversioned name.
[[ -e $nccl_home/lib/libnccl.so ]] || ln -s libnccl.so.2 "$nccl_home/lib/libnccl.so"

# shellcheck source=scripts/device-steps.sh
source "$repo/scripts/device-steps.sh"  # unpack, build, build_plugin, check

unpack "$inspector_tarball" "$tests_tarball"

build_plugin &
plugin_job=$!
build inspector 120 make -C "$work/inspector" -j 4 CUDA_HOME=/usr/local/cuda &
inspector_job=$!
build nccl-tests 300 make -C "$work/nccl-tests" -j "$jobs" MPI=0 NCCL_HOME="$nccl_home" \
  CUDA_HOME=/usr/local/cuda NVCC_GENCODE="-gencode=arch=compute_90,code=sm_90"
tests_status=$?
wait "$plugin_job"
plugin_status=$?
wait "$inspector_job"
inspector_status=$?
npkit=$work/plugin/lib/libnccl-profiler-npkit.so
inspector=$work/inspector/libnccl-profiler-inspector.so

symbols() { nm -D --defined-only "$1" 2>/dev/null | awk '/ncclProfiler_v/ {printf "%s ", $3}'; }
failed=0
check "build plugin" "$plugin_status" "$(symbols "$npkit")" || failed=1
check "build Inspector" "$inspector_status" "$(symbols "$inspector")" || failed=1
check "build nccl-tests" "$tests_status" "make MPI=0 against $nccl_home" || failed=1
if (( plugin_status != 0 || inspector_status != 0 || tests_status != 0 )); then
  echo "SKIP runs: a build failed (build.txt)" | tee -a "$out/check.txt"
  exit 1
fi

runs=$work/runs
# run NAME PLUGIN [VAR=VALUE...]: sendrecv_perf on one GPU with NCCL_PROFILER_PLUGIN=PLUGIN.
run() {
  local name=$1 plugin=$2
  shift 2
  local dir=$runs/$name
  mkdir -p "$dir/npkit" "$dir/inspector"
  env LD_LIBRARY_PATH="$nccl_home/lib:${LD_LIBRARY_PATH:-}" NCCL_PROFILER_PLUGIN="$plugin" \
    NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,ENV "$@" \
    timeout 120 "$work/nccl-tests/build/sendrecv_perf" -b 8K -e 8M -f 4 -g 1 -n 20 -w 5 \
    > "$dir/nccl-tests.txt" 2>&1
  local status=$?
  check "$name runs" "$status" "exit $status" || failed=1
}
npkit_env=(NPKIT_EVENTS=all)
inspector_env=(NCCL_INSPECTOR_ENABLE=1 NCCL_INSPECTOR_DUMP_VERBOSE=1
  NCCL_INSPECTOR_DUMP_THREAD_INTERVAL_MICROSECONDS=500)
run npkit-alone "$npkit" "${npkit_env[@]}" NPKIT_DUMP_DIR="$runs/npkit-alone/npkit"
run inspector-alone "$inspector" "${inspector_env[@]}" \
  NCCL_INSPECTOR_DUMP_DIR="$runs/inspector-alone/inspector"
run chained "$npkit" "${npkit_env[@]}" NPKIT_DUMP_DIR="$runs/chained/npkit" \
  NPKIT_CHAIN_PLUGIN="$inspector" "${inspector_env[@]}" \
  NCCL_INSPECTOR_DUMP_DIR="$runs/chained/inspector"

loaded() { grep -o "PROFILER/Plugin: Loaded [^ ]* (v[0-9]*)" "$runs/$1/nccl-tests.txt" | head -1; }
dumps() { find "$runs/$1/npkit" -name '*.npkt' | wc -l; }
p2p_records() { cat "$runs/$1"/inspector/*.log 2>/dev/null | grep -c '"p2p_perf"'; }
for name in npkit-alone chained; do
  line=$(loaded "$name")
  [[ $line == *"Loaded npkit"* ]]
  check "$name: NCCL loads npkit" $? "${line:-no 'PROFILER/Plugin: Loaded' line}" || failed=1
  n=$(dumps "$name")
  (( n > 0 ))
  check "$name: npkit's dump written" $? "$n .npkt file(s)" || failed=1
done
# The dump's capture.chained_plugin metadata: "<name> (<path>)" once the chained init succeeded.
grep -aq "capture\.chained_plugin.\{0,4\}Inspector (" "$runs"/chained/npkit/*.npkt 2>/dev/null
check "chained: npkit's dump says the Inspector is chained" $? "capture.chained_plugin" || failed=1
line=$(loaded inspector-alone)
[[ -n $line ]]
check "inspector-alone: NCCL loads the Inspector" $? "${line:-no 'PROFILER/Plugin: Loaded' line}" ||
  failed=1
for name in inspector-alone chained; do
  n=$(find "$runs/$name/inspector" -name '*.log' | wc -l)
  (( n > 0 ))
  check "$name: the Inspector's log written" $? "$n log file(s)" || failed=1
done
# On one GPU both counts are 0: NCCL starts KernelCh events from a profiler proxy operation it
# adds only beside a P2P proxy operation with steps (src/enqueue.cc, addProfilerProxyOpIfNeeded);
# a Send/Recv to itself is a copy inside the kernel with none, and the Inspector completes (and
# logs) a P2P operation at its last KernelCh stop. With two ranks or more both are the number of
# operations of 8 KiB or more.
alone=$(p2p_records inspector-alone)
chained=$(p2p_records chained)
[[ $alone == "$chained" ]]
check "the Inspector logs the same operations chained as alone" $? \
  "$alone p2p_perf record(s) alone, $chained chained" || failed=1
tar -C "$work" -czf "$out/runs.tar.gz" runs
exit $failed
