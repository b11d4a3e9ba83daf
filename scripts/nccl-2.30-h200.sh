#!/usr/bin/env bash
# nccl-2.30-h200.sh — on the GPU machine (the `device` tool), in one call: build NCCL 2.30.7 from a
# source tarball (make src.build, sm_90), NVIDIA's nccl-tests against it, and this repository's
# NCCL profiler plugin (capture targets only), then run nccl-tests on one GPU with the plugin and
# check which profiler API NCCL loaded it as (issue 18 item 1: it must say v6).
#
# Usage (from the repository root; the tarballs in an ignored folder carried along):
#   scripts/nccl-2.30-h200.sh NCCL_TARBALL NCCL_TESTS_TARBALL OUT
# NCCL_TARBALL unpacks to nccl/ (git archive --prefix=nccl/ v2.30.7-1), NCCL_TESTS_TARBALL to
# nccl-tests/. OUT then holds:
#   env.txt          GPU, driver, nvcc, cmake, the NCCL version built
#   build.txt        the three builds: exit status, seconds, the tail of each log
#   <test>.txt       nccl-tests output with NCCL_DEBUG=INFO (NCCL_DEBUG_SUBSYS=INIT,ENV)
#   dump.tar.gz      the plugin's dumps (NPKIT_DUMP_DIR) of every run
#   check.txt        one line per check; the script's exit status is 0 when every check passed
# Runs: all_reduce_perf and all_gather_perf, 1 rank (-g 1), 8 B .. 1 MiB, NPKIT_EVENTS=all. A
# one-rank communicator takes NCCL's one-rank path (no Coll events), and copy-engine collectives
# need two ranks or more (ncclCeAvailable is never reached with nRanks 1, src/enqueue.cc), so a
# single GPU shows the v6 load, the init and the API events only.
# Every GPU program runs under `timeout`; NCCL_NVLS_ENABLE=0 as on every run here.
set -uo pipefail
nccl_tarball=${1:?usage: nccl-2.30-h200.sh NCCL_TARBALL NCCL_TESTS_TARBALL OUT}
tests_tarball=${2:?usage: nccl-2.30-h200.sh NCCL_TARBALL NCCL_TESTS_TARBALL OUT}
out=${3:?usage: nccl-2.30-h200.sh NCCL_TARBALL NCCL_TESTS_TARBALL OUT}
if [[ ! -f src/capture/CMakeLists.txt ]]; then
  echo "nccl-2.30-h200: run this from the repository root" >&2
  exit 2
fi
mkdir -p "$out"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
repo=$(pwd -P)
work=$(mktemp -d)
jobs=$(nproc 2>/dev/null || echo 16)
gencode="-gencode=arch=compute_90,code=sm_90"

{
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  nvcc --version | tail -1
  cmake --version | head -1
  echo "cpus: $jobs"
} > "$out/env.txt" 2>&1

# shellcheck source=scripts/device-steps.sh
source "$repo/scripts/device-steps.sh"  # unpack, build, build_plugin, check

unpack "$nccl_tarball" "$tests_tarball"

# The plugin builds while NCCL does (it needs no NCCL header).
build_plugin &
plugin_job=$!
build nccl 420 make -C "$work/nccl" -j "$jobs" src.build NVCC_GENCODE="$gencode"
nccl_status=$?
wait "$plugin_job"
plugin_status=$?
nccl_home=$work/nccl/build
grep -h "define NCCL_MAJOR\|define NCCL_MINOR\|define NCCL_PATCH" "$nccl_home/include/nccl.h" \
  >> "$out/env.txt" 2>&1
tests_status=1
if (( nccl_status == 0 )); then
  build nccl-tests 180 make -C "$work/nccl-tests" -j "$jobs" MPI=0 NCCL_HOME="$nccl_home" \
    CUDA_HOME=/usr/local/cuda NVCC_GENCODE="$gencode"
  tests_status=$?
fi
plugin=$work/plugin/lib/libnccl-profiler-npkit.so

failed=0
check "build NCCL 2.30.7" "$nccl_status" "make src.build" || failed=1
check "build nccl-tests" "$tests_status" "make MPI=0 against it" || failed=1
check "build plugin" "$plugin_status" "$(nm -D --defined-only "$plugin" 2>/dev/null |
  awk '/ncclProfiler_v/ {printf "%s ", $3}')" || failed=1

dumps=$work/dumps
mkdir -p "$dumps"
if (( nccl_status == 0 && tests_status == 0 && plugin_status == 0 )); then
  for test in all_reduce_perf all_gather_perf; do
    log=$out/$test.txt
    LD_LIBRARY_PATH=$nccl_home/lib:${LD_LIBRARY_PATH:-} NCCL_PROFILER_PLUGIN=$plugin \
      NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,ENV NPKIT_EVENTS=all NPKIT_DUMP_DIR=$dumps/$test \
      timeout 120 "$work/nccl-tests/build/$test" -b 8 -e 1M -f 4 -g 1 -n 5 -w 2 > "$log" 2>&1
    status=$?
    check "$test runs" "$status" "exit $status" || failed=1
    loaded=$(grep -o "PROFILER/Plugin: Loaded [^ ]* (v[0-9]*)" "$log" | head -1)
    [[ $loaded == *"(v6)" ]]
    check "$test loads the plugin as v6" $? "${loaded:-no 'PROFILER/Plugin: Loaded' line}" ||
      failed=1
    files=$(find "$dumps/$test" -name '*.npkt' 2>/dev/null | wc -l)
    (( files > 0 ))
    check "$test dump written" $? "$files .npkt file(s)" || failed=1
  done
else
  echo "SKIP runs: a build failed (build.txt)" | tee -a "$out/check.txt"
  failed=1
fi
tar -C "$work" -czf "$out/dump.tar.gz" dumps
exit $failed
