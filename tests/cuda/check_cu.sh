#!/usr/bin/env bash
# Compiles one .cu file with nvcc (to an object file, keeping the PTX) under a set of npkit/device.cuh switches and
# checks what the PTX holds. Registered as CTest tests by tests/cuda/CMakeLists.txt.
#
#   check_cu.sh NVCC ARCH MODE SOURCE INCLUDE_DIR WORK_DIR
#
# MODE (the recorder parameter is the kernel parameter of 40 bytes, sizeof(npkit::DeviceRecorder)):
#   disabled   no NPKIT_ENABLE (NPKIT_ENABLE_ALL_EVENTS=1 set, which must not matter): no
#              %globaltimer read and no load of a recorder parameter anywhere
#   enabled    NPKIT_ENABLE, NPKIT_ENABLE_ALL_EVENTS=1: files that use event macros read
#              %globaltimer and load their recorder parameter
#   cycles     enabled plus NPKIT_CLOCK_CYCLES: no %globaltimer; files with events read %clock64
#   selection  NPKIT_ENABLE, NPKIT_ENABLE_ALL_REDUCE=1, NPKIT_ENABLE_EVENT_CHECK_SOLO=1 on
#              tests/cuda/selection_kernels.cu: exactly the entries of those events read
#              %globaltimer
#   cursor     enabled, on tests/cuda/cursor_kernels.cu: the entries with a block or warp cursor
#              load one word from global memory (the state word) for three events, the entry
#              using the handle three, and each reads %globaltimer three times
# Exit status 0 when the file compiles and every check holds; the first failing check is printed.
set -euo pipefail
[[ $# -eq 6 ]] || { echo "usage: $0 NVCC ARCH MODE SOURCE INCLUDE_DIR WORK_DIR" >&2; exit 2; }
nvcc=$1 arch=$2 mode=$3 source=$4 include=$5 work=$6

case $mode in
  disabled) defines=(-DNPKIT_ENABLE_ALL_EVENTS=1) ;;
  enabled) defines=(-DNPKIT_ENABLE -DNPKIT_ENABLE_ALL_EVENTS=1) ;;
  cycles) defines=(-DNPKIT_ENABLE -DNPKIT_ENABLE_ALL_EVENTS=1 -DNPKIT_CLOCK_CYCLES) ;;
  selection) defines=(-DNPKIT_ENABLE -DNPKIT_ENABLE_ALL_REDUCE=1 -DNPKIT_ENABLE_EVENT_CHECK_SOLO=1) ;;
  cursor) defines=(-DNPKIT_ENABLE -DNPKIT_ENABLE_ALL_EVENTS=1) ;;
  *) echo "unknown mode $mode" >&2; exit 2 ;;
esac

name=$(basename "$source" .cu)
dir=$work/$mode/$name
rm -rf "$dir"
mkdir -p "$dir"
# One compilation to an object file; --keep leaves the PTX it went through in $dir.
"$nvcc" -std=c++17 -arch="sm_$arch" "${defines[@]}" -I"$include" -I"$(dirname "$source")" \
  -c "$source" -o "$dir/$name.o" --keep --keep-dir "$dir"
ptx=$dir/$name.ptx
[[ -f $ptx ]] || { echo "FAIL ($mode, $source): nvcc left no $ptx" >&2; exit 1; }

fail() { echo "FAIL ($mode, $source): $*" >&2; exit 1; }

# Names of the 40-byte parameters (npkit::DeviceRecorder passed by value).
recorder_params() { grep -oE '[A-Za-z0-9_$]+_param_[0-9]+\[40\]' "$ptx" | sed 's/\[40\]$//' | sort -u; }
loads_param() { grep -qE "ld\.param[^;]*\[$1(\+[0-9]+)?\]" "$ptx"; }
uses_events() { grep -qE 'NPKIT_(WARP_)?EVENT_(ENTRY|EXIT|INSTANT)\(' "$source"; }

# "entry loads timer_reads" per entry: its ld.global instructions and %globaltimer reads.
entry_loads_and_timer_reads() {
  awk '/\.entry[ \t]+[A-Za-z0-9_$]+/ { match($0, /\.entry[ \t]+[A-Za-z0-9_$]+/); entry = substr($0, RSTART, RLENGTH); sub(/\.entry[ \t]+/, "", entry); order[++n] = entry }
       /ld\.global/ && entry != "" { loads[entry]++ }
       /%globaltimer/ && entry != "" { timers[entry]++ }
       END { for (i = 1; i <= n; ++i) print order[i], loads[order[i]] + 0, timers[order[i]] + 0 }' "$ptx"
}

# Entry names whose body reads %globaltimer, one per line.
entries_reading_timer() {
  awk '/\.entry[ \t]+[A-Za-z0-9_$]+/ { match($0, /\.entry[ \t]+[A-Za-z0-9_$]+/); entry = substr($0, RSTART, RLENGTH); sub(/\.entry[ \t]+/, "", entry) }
       /%globaltimer/ && entry != "" { print entry }' "$ptx" | sort -u
}

case $mode in
  disabled)
    if grep -q '%globaltimer' "$ptx"; then fail "the disabled build reads %globaltimer"; fi
    for param in $(recorder_params); do
      if loads_param "$param"; then fail "the disabled build loads recorder parameter $param"; fi
    done
    ;;
  enabled)
    if uses_events; then
      grep -q '%globaltimer' "$ptx" || fail "events are compiled in but nothing reads %globaltimer"
      params=$(recorder_params)
      [[ -n $params ]] || fail "no recorder parameter (40 bytes) in the PTX"
      for param in $params; do
        loads_param "$param" || fail "the enabled build never loads recorder parameter $param"
      done
    fi
    ;;
  cycles)
    if grep -q '%globaltimer' "$ptx"; then fail "NPKIT_CLOCK_CYCLES still reads %globaltimer"; fi
    if uses_events; then
      grep -q '%clock64' "$ptx" || fail "events with NPKIT_CLOCK_CYCLES but no %clock64 read"
    fi
    ;;
  selection)
    expected=$'check_all_reduce_group\ncheck_single_event\ncheck_warp_events'
    actual=$(entries_reading_timer)
    [[ $actual == "$expected" ]] ||
      fail "entries reading %globaltimer: '${actual//$'\n'/ }', expected '${expected//$'\n'/ }'"
    ;;
  cursor)
    expected=$'check_block_cursor 1 3\ncheck_warp_cursor 1 3\ncheck_handle_events 3 3'
    actual=$(entry_loads_and_timer_reads)
    [[ $actual == "$expected" ]] ||
      fail "entry, global loads, timer reads: '${actual//$'\n'/; }', expected '${expected//$'\n'/; }'"
    ;;
esac
echo "ok ($mode, $source)"
