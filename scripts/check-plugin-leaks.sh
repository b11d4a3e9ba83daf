#!/usr/bin/env bash
# Runs the NCCL profiler plugin's whole life in one process — dlopen, communicators recording every
# event type, dumps (finalize and npkitProfilerFlush), dlclose, three times over — under valgrind's
# memcheck with full leak checking. Any invalid access, use of uninitialised memory or leaked block
# (definite, indirect or possible) fails the run.
#
#   scripts/check-plugin-leaks.sh [BUILD_DIR]
#
# The driver is the Catch2 test "[leak]" (tests/capture/stress/plugin_leak_cycle_test.cpp) of
# BUILD_DIR's npkit_capture_tests (default build-leaks, configured here if missing, without
# sanitizers: valgrind and AddressSanitizer do not mix). valgrind is installed from Debian's archive when
# missing. The same test runs under LeakSanitizer in `make test-sanitize`.
set -euo pipefail
cd "$(dirname "$0")/.."

build_dir=${1:-build-leaks}
scripts/install-deps.sh --extra valgrind

if [[ ! -f $build_dir/CMakeCache.txt ]]; then
  cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNPKIT_BUILD_BENCH=OFF \
    -DNPKIT_BUILD_CUDA=OFF
fi
if grep -q '^NPKIT_SANITIZE:STRING=.\+' "$build_dir/CMakeCache.txt"; then
  echo "check-plugin-leaks: $build_dir is a sanitizer build; valgrind needs a plain one" >&2
  exit 2
fi
cmake --build "$build_dir" --target npkit_capture_tests nccl_profiler_npkit -j"${JOBS:-2}"

valgrind --tool=memcheck --leak-check=full --show-leak-kinds=definite,indirect,possible \
  --errors-for-leak-kinds=definite,indirect,possible --track-origins=yes --error-exitcode=1 \
  "$build_dir/bin/npkit_capture_tests" "[leak]"
echo "check-plugin-leaks: no leak and no memory error in the plugin's load/record/dump/unload cycle"
