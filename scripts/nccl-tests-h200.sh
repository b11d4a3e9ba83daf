#!/usr/bin/env bash
# nccl-tests-h200.sh — on the GPU machine (the `device` tool), in one call: build NVIDIA's
# nccl-tests from a source tarball against the NCCL that PyTorch ships (pip nvidia-nccl-cu13) and
# run all_reduce_perf and all_gather_perf on one GPU with JSON results (-J), for the analyzer's
# nccl-tests reader (issue: newer NCCL, other plugins, the logs people already have).
#
# Usage (from the repository root, the tarball in an ignored folder carried along):
#   scripts/nccl-tests-h200.sh build-carry/nccl-tests.tar.gz "$OUT"
# OUT then holds build.log, one <test>.json and <test>.txt per test, and env.txt (versions).
# Every GPU program runs under `timeout`; NCCL_NVLS_ENABLE=0 as on every run here.
set -uo pipefail
tarball=${1:?usage: nccl-tests-h200.sh TARBALL OUT}
out=${2:?usage: nccl-tests-h200.sh TARBALL OUT}
mkdir -p "$out"
export NCCL_NVLS_ENABLE=0

nccl_home=$(python3 -c 'import nvidia.nccl, os; print(os.path.dirname(nvidia.nccl.__file__))' 2>/dev/null ||
  python3 -c 'import nvidia, os; print(os.path.join(list(nvidia.__path__)[0], "nccl"))')
{
  echo "nccl_home=$nccl_home"
  ls "$nccl_home/include" "$nccl_home/lib"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  nvcc --version | tail -1
  grep -h "define NCCL_VERSION_CODE\|define NCCL_MAJOR\|define NCCL_MINOR\|define NCCL_PATCH" "$nccl_home/include/nccl.h"
} > "$out/env.txt" 2>&1
# The wheel ships libnccl.so.2 only; the link needs the unversioned name.
[[ -e $nccl_home/lib/libnccl.so ]] || ln -s libnccl.so.2 "$nccl_home/lib/libnccl.so"

work=$(mktemp -d)
tar -C "$work" -xzf "$tarball"
if ! timeout 300 make -C "$work/nccl-tests" -j16 MPI=0 NCCL_HOME="$nccl_home" CUDA_HOME=/usr/local/cuda \
  NVCC_GENCODE="-gencode=arch=compute_90,code=sm_90" > "$out/build.log" 2>&1; then
  echo "build failed: tail of $out/build.log" >&2
  tail -20 "$out/build.log" >&2
  exit 1
fi
export LD_LIBRARY_PATH=$nccl_home/lib:${LD_LIBRARY_PATH:-}
status=0
for test in all_reduce_perf all_gather_perf; do
  timeout 120 "$work/nccl-tests/build/$test" -b 8 -e 64M -f 4 -g 1 -n 20 -w 5 \
    -J "$out/$test.json" > "$out/$test.txt" 2>&1 || status=1
  echo "$test: exit ${PIPESTATUS[0]:-?}, $(wc -c < "$out/$test.json" 2>/dev/null || echo 0) bytes of JSON"
done
exit $status
