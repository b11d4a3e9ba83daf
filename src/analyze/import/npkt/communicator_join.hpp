// import/npkt/communicator_join.hpp — the collective instances of each communicator across its
// ranks. Contract:
// - Captures are grouped by comm_hash; files with a negative rank (the detached proxy-op file)
//   take no part. A second file for the same (comm, rank) is ignored with a warning; files of one
//   comm that disagree on nranks are warned about and the largest value is used.
// - Coll events join by (func, seq); a key a rank holds more than once (graph replays freeze seq,
//   or the same seq repeats) gets an occurrence index in host start order on each rank, and the
//   k-th occurrences join. Derived AlltoAll operations join by their k-th index the same way.
//   CeColl events (copy-engine collectives) join the same way among themselves: their seq is
//   NCCL's CE sequence, so they never join a kernel collective.
// - Send/Recv join in pairs: the k-th Send from a to b with the k-th Recv at b from a. Send/Recv
//   that are part of a derived AlltoAll are not joined on their own.
// - An instance lists the ranks that should hold it (every rank with a file for a collective; the
//   two ends for a pair, where they have files) but do not, in missing_ranks; nothing is guessed.
// - Instances are ordered by their earliest host start.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "import/npkt/profiler_capture.hpp"
#include "util/diagnostics.hpp"

namespace npkit {

struct InstanceMember {
  std::int32_t rank = 0;
  const ProfilerCollective* op = nullptr;
};

struct CollectiveInstance {
  NcclFunc func = NcclFunc::kOther;  // kSend for a Send/Recv pair
  std::string_view func_name;
  std::uint64_t seq = 0;
  std::uint32_t occurrence = 0;
  std::int32_t sender = -1;  // Send/Recv pairs
  std::int32_t receiver = -1;
  std::vector<InstanceMember> members;  // by rank
  std::vector<std::int32_t> missing_ranks;
  std::int64_t first_host_start_ns = 0;
  bool copy_engine = false;  // CeColl members (their own seq numbers)

  bool is_pair() const { return sender >= 0; }
};

struct Communicator {
  std::uint64_t comm_hash = 0;
  std::int32_t nranks = 0;
  std::string name;                        // comm_name metadata, may be empty
  std::vector<const RankCapture*> ranks;   // by rank
  std::vector<std::int32_t> absent_ranks;  // 0..nranks-1 without a file (or not selected)
  std::vector<CollectiveInstance> instances;
  std::uint64_t instances_missing_ranks = 0;
};

// Communicators ordered by comm_hash.
std::vector<Communicator> join_communicators(const std::vector<const RankCapture*>& captures,
                                             Diagnostics& diagnostics);

}  // namespace npkit
