// commands/trace_merge.hpp — `trace --merge FILE`: another tool's Chrome JSON trace on the host's
// wall clock (PyTorch's profiler, Kineto: ts in µs after its baseTimeNanoseconds) laid into a
// JSON trace of ours, so that one file opens both in Perfetto on one timeline.
// Contract:
// - read_merged_trace reads FILE (plain or gzip-compressed JSON): an object with traceEvents and
//   baseTimeNanoseconds (an Error names FILE otherwise: without it, its ts are on no known clock).
// - merge_into(json, merged) makes `json` write, before it ends, each of FILE's events as FILE
//   has it but for two members: ts, moved from FILE's base to the origin `json` was begun on
//   (exact ns: ts · 1000 rounded, plus the difference of the bases), and a numeric pid, plus
//   kMergedPidBase so that its processes never meet ours (a string pid is kept). Our trace must
//   be on the wall clock (TraceTimes::on_wall_clock), else finish() gives an Error.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "output/trace/json_trace_encoder.hpp"
#include "util/result.hpp"

namespace npkit::cli {

inline constexpr std::uint64_t kMergedPidBase = 1'000'000'000;

struct MergedTrace {
  std::string path;
  std::int64_t base_ns = 0;
  std::string text;  // the file's JSON, padded for simdjson
};

Result<MergedTrace> read_merged_trace(const std::string& path);

void merge_into(JsonTraceEncoder& json, const MergedTrace& merged);

}  // namespace npkit::cli
