#!/usr/bin/env bash
# A PyTorch profiler trace and the plugin's capture of the same job, for laying side by side
# (docs/cli.md, "trace", "Beside a PyTorch profiler trace"). Run on a machine with one GPU, PyTorch
# and CUDA (the `device` tool's single-H200 machine), from the repository root:
#
#   scripts/torch-beside.sh OUT
#
# Builds the plugin (capture side only) against PyTorch's own NCCL (the nvidia-nccl wheel), then
# runs samples/pytorch/onegpu_ranks.py with 2 ranks on GPU 0 (NCCL_HOSTID per rank, NET/Socket),
# AllReduce at 64K and 1M (1 warm-up, 4 timed, 1 checked call each) under torch.profiler, with
# the plugin loaded (NPKIT_EVENTS=all, NCCL_NVLS_ENABLE=0), every step under `timeout`.
# OUT then holds torch-beside.tar.gz: dump/ (the .npkt files, gzip), kineto/ (kineto_rank<R>.json,
# gzip), driver.txt (the script's table), run.txt (versions and commands), build.log.
# Exit status: 0 when the run and both outputs are there, 1 otherwise, 2 for bad usage.
set -u
set -o pipefail
[[ $# -eq 1 ]] || { echo "usage: $0 OUT" >&2; exit 2; }
OUT=$1
REPO=$(pwd)
WORK=$(mktemp -d)
RUN=$WORK/torch-beside
mkdir -p "$OUT" "$RUN/dump" "$RUN/kineto" "$RUN/logs"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1

NCCL_HOME=$(python3 -c 'import os, nvidia.nccl as n; r = list(n.__path__)[0]; print(r)' 2>/dev/null)
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $(git -C "$REPO" rev-parse HEAD 2>/dev/null || echo unknown)"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1
  python3 -c 'import torch; print("torch", torch.__version__, "nccl", torch.cuda.nccl.version())'
  echo "NCCL (PyTorch's wheel): $NCCL_HOME"
} >"$RUN/run.txt" 2>&1

BUILD=$WORK/build
timeout 300 cmake -S "$REPO" -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DNPKIT_BUILD_ANALYZER=OFF -DNPKIT_BUILD_CAPTURE=ON -DNPKIT_BUILD_CUDA=OFF \
  -DNPKIT_BUILD_TESTS=OFF -DNPKIT_BUILD_BENCH=OFF "-DNCCL_ROOT=$NCCL_HOME" >"$RUN/build.log" 2>&1 &&
  timeout 300 cmake --build "$BUILD" -j "$(nproc)" --target nccl_profiler_npkit >>"$RUN/build.log" 2>&1
PLUGIN=$(find "$BUILD" -name 'libnccl-profiler-npkit.so' | head -1)
echo "plugin: ${PLUGIN:-not built}" >>"$RUN/run.txt"

status=1
if [[ -n $PLUGIN ]]; then
  command=(timeout 240 python3 samples/pytorch/onegpu_ranks.py --nranks 2 --colls allreduce
           --sizes 64K,1M --warmup 1 --iters 4 --log-dir "$RUN/logs" --profile-dir "$RUN/kineto"
           --timeout-s 200)
  echo "command: NCCL_PROFILER_PLUGIN=$PLUGIN NPKIT_EVENTS=all NPKIT_DUMP_DIR=dump ${command[*]}" \
    >>"$RUN/run.txt"
  NCCL_PROFILER_PLUGIN=$PLUGIN NPKIT_EVENTS=all NPKIT_DUMP_DIR=$RUN/dump \
    "${command[@]}" >"$RUN/driver.txt" 2>&1
  status=$?
  echo "exit: $status" >>"$RUN/run.txt"
fi
gzip -9 "$RUN"/dump/*.npkt "$RUN"/kineto/*.json 2>/dev/null
ls "$RUN"/dump/*.npkt.gz "$RUN"/kineto/*.json.gz >/dev/null 2>&1 || status=1
tar -C "$WORK" -czf "$OUT/torch-beside.tar.gz" torch-beside
(( status == 0 ))
