// perfetto_reader.hpp — a test-side reader of Perfetto protobuf traces (perfetto.protos.Trace),
// written from Perfetto's proto definitions, independent of the encoder it checks.
// Contract: read_perfetto_trace decodes the wire format (varint, fixed64, length-delimited
// fields; unknown fields skipped), follows each packet sequence's state (cleared / needed flags,
// interned event names, categories and annotation names, sequence-scoped incremental clocks from
// clock snapshots, TracePacketDefaults' clock and track), and rebuilds every slice: SLICE_BEGIN /
// SLICE_END paired per track with a stack, INSTANT as a slice of length 0. Timestamps are ns on
// the snapshot's clock (primary_clock and snapshot_clocks say which). Counter tracks (a
// TrackDescriptor with a CounterDescriptor, under a process track described before it) and their
// TYPE_COUNTER values (double or integer) become samples. Any malformed byte, unknown iid, END
// without BEGIN, slice left open, counter value on a track that is not a counter or slice on one
// that is, is an error (the `error` string, first one only).
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace npkit::test {

struct PerfettoSlice {
  std::int64_t pid = 0;
  std::int64_t tid = 0;
  std::string name;
  std::string category;
  bool instant = false;
  std::uint64_t start_ns = 0;
  std::uint64_t end_ns = 0;
  // Debug annotations, each value as text: integers in decimal, doubles with three decimals,
  // strings as they are, arrays as "[a,b]".
  std::map<std::string, std::string> args;
};

struct PerfettoCounterSample {
  std::int64_t pid = 0;
  std::string track;  // the counter track's name
  std::uint64_t ts = 0;
  double value = 0;
};

struct PerfettoTrace {
  std::map<std::int64_t, std::string> process_names;  // by pid
  std::map<std::pair<std::int64_t, std::int64_t>, std::string> thread_names;
  std::vector<PerfettoSlice> slices;            // in the order they ended
  std::vector<PerfettoCounterSample> counters;  // in the order written
  std::uint64_t packets = 0;
  // ClockSnapshot.primary_trace_clock (0: not set), and every clock id snapshots name besides
  // the sequence-scoped incremental ones (the builtin clocks the sequences are anchored to).
  std::uint64_t primary_clock = 0;
  std::set<std::uint64_t> snapshot_clocks;
  std::string error;
};

PerfettoTrace read_perfetto_trace(const std::string& bytes);

}  // namespace npkit::test
