// import/spans/occurrence_join.hpp — collective instances joined across ranks by order of
// occurrence, for inputs without sequence numbers (legacy NPKit dumps: top-level collective spans
// per GPU buffer; device-recorder event records and Chrome traces of spans: spans per stream).
// Contract:
// - Input: per (rank, event name, track) the spans in occurrence order, each with its size field,
//   and the collective its phase rule names (func as --coll spells it, algo).
// - On each track, the m-th span of a size (m counted in occurrence order) is the m-th operation
//   of that (name, size) on the rank: NCCL runs small sizes on fewer channels and asymmetric
//   algorithms (the split tree) on different buffers per rank, so raw per-track indexes do not
//   line up across tracks or ranks, while per-size occurrence does. The rank's member for it is
//   timed from the earliest start to the latest end over its tracks; channels = those tracks.
// - Consistency, per (name, size): the tracks of a rank that carry the size must hold the same
//   number of its spans ("track mismatch" gap naming each track's count), and every rank of the
//   name must hold the same number ("count mismatch" gap naming each rank's count). Occurrence
//   order cannot tell where a missing span was, so an inconsistent (name, size) is not joined at
//   all ("not joined" gap with how many instances that leaves out); nothing is guessed.
// - `incomplete` on an input entry (e.g. "buffer probably overflowed") becomes a "dropped
//   records" gap for that (rank, name, track).
// - The instance: func = NCCL's name of the rule's collective ("AllReduce"; the rule's own word
//   when NCCL has none), algo in upper case, bytes = nccl-tests' S from the size field (× nranks
//   for AllGather, ReduceScatter and AlltoAll), seq = m, label "NAME SIZE B #m"; no type, protocol
//   or count. Members carry no launch time or group; order is the member's position among the
//   rank's members in start order.
// - The communicator: hash 0, scope and time_source as given, nranks as given; ranks = `ranks`
//   and every rank of an entry, with the entries' hosts (all cleared unless every entry names
//   one); absent_ranks = 0..nranks-1 without data. Instances are ordered by their earliest start
//   over ranks, then name, size and m.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "run/run.hpp"

namespace npkit {

struct OccurrenceSpan {
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  std::uint64_t size = 0;
};

struct RankInstanceTimes {
  std::int32_t rank = 0;
  std::string host;                   // "" = unknown
  std::string name;                   // event name, e.g. ALL_REDUCE_RING
  std::string func;                   // the rule's collective, e.g. allreduce
  std::string algo;                   // the rule's algorithm, e.g. ring
  std::uint32_t track = 0;            // GPU buffer, stream
  std::string track_kind = "buffer";  // how gaps name the track: "buffer 3", "stream 3"
  std::vector<OccurrenceSpan> spans;  // occurrence order
  std::string incomplete;             // why spans may be missing on this track ("" = nothing known)
};

RunCommunicator join_by_occurrence(const std::vector<RankInstanceTimes>& times, std::string scope,
                                   std::string time_source, std::int32_t nranks,
                                   const std::vector<std::int32_t>& ranks = {});

}  // namespace npkit
