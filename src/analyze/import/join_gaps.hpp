// import/join_gaps.hpp — what a join across ranks could not use, in one wording for every input
// that joins collectives by (function, seq): .npkt captures, profiler-plugin JSON traces and
// Inspector logs. Each gap goes to RunCommunicator::gaps and is warned about once.
// Contract:
// - operations_agree: the members of an instance agree when every one names the same count,
//   bytes, data type, algorithm and protocol. add_count_mismatch adds the "count mismatch" gap
//   that names each member's values ("...; not used": analyses leave the instance out).
// - add_seq_gaps (per rank, per function, the seq numbers the rank holds; duplicates allowed):
//   "seq start" when the lowest is above 0, "seq jump" when values between the lowest and the
//   highest are missing (how many, the first three ranges named); `causes` words why. Warned as
//   "seq gaps" with the number of values missing.
// - add_rank_gaps, after the instances are joined: "absent ranks" (RunCommunicator::absent_ranks;
//   not warned about: --ranks leaves ranks out on purpose), "missing ranks" (collectives, not
//   Send/Recv pairs, that ranks with data lack; the first three named) and one "count mismatch"
//   warning counting the instances whose members disagree.
// - warn_ranks_without_data: one "ranks without data" warning per communicator whose absent
//   ranks include ranks `selected` asks for: "INPUT: comm X: 3 of 4 ranks have data; none from
//   rank(s) 3 (WHY)", WHY "no readable file" for a directory, "only one file given" for a file.
//   Ranks that --ranks leaves out are not warned about.
// - warn_duplicate_rank / warn_differing_sizes: one wording for the files of a communicator that
//   every input groups by rank (.npkt files, plugin traces, Inspector logs).
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "run/rank_filter.hpp"
#include "run/run.hpp"
#include "util/diagnostics.hpp"

namespace npkit {

// Why sequence numbers are missing, in the gap messages: between seen values, and below the
// lowest. `shared`, where the input leaves operations out by design on every rank alike (the
// Inspector's minimum size), explains the seq numbers that no rank has: they are a gap of the
// data ("seq filtered"), not a warning; only those some ranks have and others lack are warned
// about.
struct SeqGapCauses {
  std::string_view jump = "events the plugin dropped";
  std::string_view start = "dropped, or the trace began late";
  std::string_view shared = "";
};

// What one member's operation says it is.
struct MemberOperation {
  std::int32_t rank = 0;
  std::uint64_t count = 0;
  std::uint64_t bytes = 0;
  std::string_view type;
  std::string_view algo;
  std::string_view proto;
};

bool operations_agree(std::span<const MemberOperation> members);

void add_count_mismatch(RunCommunicator& comm, const RunInstance& inst,
                        std::span<const MemberOperation> members);

// Per function name, the seq numbers of one rank's operations.
using SeqsByFunc = std::map<std::string_view, std::vector<std::uint64_t>>;

void add_seq_gaps(RunCommunicator& comm, std::int32_t rank, SeqsByFunc seqs,
                  const SeqGapCauses& causes, Diagnostics& diagnostics);

// The seq gaps of every rank of a communicator: add_seq_gaps per rank, or, with causes.shared,
// one "seq filtered" gap per function for the seq numbers no rank has (below the highest seen)
// and add_seq_gaps per rank against the seq numbers some rank has.
void add_communicator_seq_gaps(RunCommunicator& comm, std::map<std::int32_t, SeqsByFunc> by_rank,
                               const SeqGapCauses& causes, Diagnostics& diagnostics);

void add_rank_gaps(RunCommunicator& comm, Diagnostics& diagnostics);

void warn_ranks_without_data(const RunCommunicator& comm, const RankFilter& selected,
                             const std::string& input, std::string_view why,
                             Diagnostics& diagnostics);

// Grouping files by communicator: a second file (`path`) of a (communicator, rank) already read
// from `kept` is warned about as "duplicate rank" (the caller ignores it); files of one
// communicator that disagree on its size as "differing sizes" (the caller uses the larger).
void warn_duplicate_rank(Diagnostics& diagnostics, const std::string& path, std::uint64_t comm_hash,
                         std::int32_t rank, const std::string& kept);
void warn_differing_sizes(Diagnostics& diagnostics, const std::string& path,
                          std::uint64_t comm_hash, std::int32_t nranks, std::int32_t other);

}  // namespace npkit
