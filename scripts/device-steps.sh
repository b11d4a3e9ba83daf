# shellcheck shell=bash disable=SC2154
# device-steps.sh — the build and check steps shared by the one-call device scripts
# (nccl-2.30-h200.sh, chain-inspector-h200.sh). Sourced, not run: the caller sets `repo` (the
# repository root), `work` (a scratch folder) and `out` (the folder whose files come back) first.

# unpack TARBALL...: unpacks each into $work; exits 2 when one cannot be unpacked.
unpack() {
  local tarball
  for tarball in "$@"; do
    tar -C "$work" -xzf "$tarball" || {
      echo "cannot unpack $tarball" >&2
      exit 2
    }
  done
}

# build NAME SECONDS COMMAND...: runs a build under `timeout`, logs to $work/NAME.log and appends
# its status, time and log tail to $out/build.txt.
build() {
  local name=$1 limit=$2
  shift 2
  local start=$SECONDS status
  timeout "$limit" "$@" > "$work/$name.log" 2>&1
  status=$?
  {
    echo "== $name: exit $status after $((SECONDS - start)) s: $*"
    tail -15 "$work/$name.log"
  } >> "$out/build.txt"
  return $status
}

# check NAME STATUS DETAIL: prints and appends "PASS|FAIL NAME: DETAIL" to $out/check.txt;
# returns STATUS == 0.
check() {
  local verdict=FAIL
  (( $2 == 0 )) && verdict=PASS
  echo "$verdict $1: $3" | tee -a "$out/check.txt"
  (( $2 == 0 ))
}

# build_plugin: builds npkit's NCCL profiler plugin alone (no analyzer, tests, CUDA or benchmarks;
# it needs no NCCL header) as the step "plugin": $work/plugin/lib/libnccl-profiler-npkit.so.
build_plugin() {
  build plugin 300 bash -c "cmake -S '$repo' -B '$work/plugin' -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DNPKIT_BUILD_ANALYZER=OFF -DNPKIT_BUILD_CUDA=OFF -DNPKIT_BUILD_TESTS=OFF \
    -DNPKIT_BUILD_BENCH=OFF && cmake --build '$work/plugin' -j 4 --target nccl_profiler_npkit"
}
