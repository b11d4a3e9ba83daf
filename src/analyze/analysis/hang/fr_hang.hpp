// analysis/hang/fr_hang.hpp — where a job stopped, judged from PyTorch Flight Recorder dumps alone
// (run/flight_recorder.hpp), the way PyTorch's fr_trace judges them: per process group, the
// latest collective any rank recorded and which member ranks did not record it.
// Contract:
// - A group's members are the global ranks its pg_config names (in any dump), else the ranks
//   whose dumps hold its entries. Each member's latest collective is its entry of the group with
//   the highest collective_seq_id that is not point-to-point (is_p2p); the group's is the highest
//   over its members. A group without collective entries is left out.
// - missing: members with a dump whose latest is below the group's; waiting: members that
//   recorded it and did not complete it; without_dump: members with no dump. mismatches: a
//   member whose entry of that collective has another operation, input sizes or input dtypes
//   than the lowest rank that recorded it ("global rank 3: all_gather, not all_reduce").
// - stalled: some member is missing or waiting; cannot_tell: not stalled, and members lack a dump.
// - called_from: of the first waiting member's entry (else the first that recorded it), the
//   innermost frame outside PyTorch's own files (a filename without "torch/"), as
//   "file:line (function)"; "" when the dump holds no frames (JSON dumps).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "run/flight_recorder.hpp"

namespace npkit {

struct FrMemberState {
  std::int64_t global_rank = 0;
  bool has_dump = false;
  std::int64_t last_seq = -1;  // -1: no collective of the group recorded
  std::string operation;       // "all_reduce" (profiling_name without "nccl:")
  FrState state = FrState::kScheduled;
  std::vector<std::vector<std::int64_t>> input_sizes;
  std::vector<std::string> input_dtypes;
};

struct FrGroupHang {
  std::string name;
  std::string desc;
  std::vector<std::int64_t> members;
  std::int64_t seq = -1;  // the latest collective_seq_id any member recorded
  std::string operation;
  std::vector<std::vector<std::int64_t>> input_sizes;
  std::vector<std::string> input_dtypes;
  std::string called_from;
  std::vector<std::int64_t> missing;
  std::vector<std::int64_t> waiting;
  std::vector<std::int64_t> without_dump;
  std::vector<std::string> mismatches;
  std::vector<FrMemberState> ranks;  // by global rank

  bool stalled() const { return !missing.empty() || !waiting.empty(); }
  bool cannot_tell() const { return !stalled() && !without_dump.empty(); }
};

struct FrHangAnalysis {
  std::vector<FrGroupHang> groups;  // by name

  bool stalled() const;
  bool cannot_tell() const;
};

FrHangAnalysis analyze_fr_hang(const FlightRecorderDumps& dumps);

}  // namespace npkit
