// import/spans/occurrence_join.hpp — collective instances joined across ranks by order of
// occurrence, for inputs without sequence numbers (legacy NPKit dumps: top-level collective spans
// per GPU buffer; device-recorder event records and Chrome traces of spans: spans per stream).
// Contract:
// - OccurrenceTable takes the spans one at a time: per (rank, track) in occurrence order, tracks
//   in any interleaving, each with its collective's name id (define() gives an id its event name
//   and the collective its phase rule names: func as --coll spells it, algo) and its size field.
//   It keeps, per (name, size, rank), one member per occurrence and per (track, size) a count —
//   memory grows with the instances, not the spans — and merge() adds a table of other tracks
//   (the parallel readers' runs).
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
// - note_incomplete (e.g. "buffer probably overflowed") becomes a "dropped records" gap for each
//   (rank, name, track) of that track.
// - The instance: func = NCCL's name of the rule's collective ("AllReduce"; the rule's own word
//   when NCCL has none), algo in upper case, bytes = nccl-tests' S from the size field (× nranks
//   for AllGather, ReduceScatter and AlltoAll), seq = m, label "NAME SIZE B #m"; no type, protocol
//   or count. Members carry no launch time or group; order is the member's position among the
//   rank's members in start order.
// - The communicator: hash 0, scope and time_source as given, nranks as given; ranks = `ranks`
//   and every rank with a span, with their hosts from `hosts` (all cleared unless every such rank
//   names one); absent_ranks = 0..nranks-1 without data. Instances are ordered by their earliest
//   start over ranks, then name, size and m.
// - The RankInstanceTimes form (spans listed per rank, name and track) gives the same join.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "run/run.hpp"

namespace npkit {

class OccurrenceTable {
 public:
  void define(std::uint16_t name, std::string event, std::string func, std::string algo);
  void add(std::int32_t rank, std::uint32_t track, std::uint16_t name, std::uint64_t size,
           std::int64_t start_ns, std::int64_t end_ns);
  // The rank's track carries the name, though none of its spans is added (e.g. spans on a clock
  // that cannot be compared across ranks): the rank counts for the name, with 0 spans.
  void touch(std::int32_t rank, std::uint32_t track, std::uint16_t name);
  void note_incomplete(std::int32_t rank, std::uint32_t track, const std::string& why);
  void set_track_kind(std::string kind) { track_kind_ = std::move(kind); }
  void merge(OccurrenceTable&& other);

  RunCommunicator join(std::string scope, std::string time_source, std::int32_t nranks,
                       const std::vector<std::int32_t>& ranks,
                       const std::map<std::int32_t, std::string>& hosts) const;

 private:
  struct Name {
    std::string event;
    std::string func;
    std::string algo;
  };
  struct Member {
    std::int64_t start_ns = INT64_MAX;
    std::int64_t end_ns = INT64_MIN;
    std::uint32_t channels = 0;
  };
  struct Series {
    std::vector<Member> members;  // by occurrence m
  };
  using SeriesKey = std::tuple<std::uint16_t, std::uint64_t, std::int32_t>;  // name, size, rank
  using TrackKey = std::tuple<std::int32_t, std::uint32_t, std::uint16_t>;   // rank, track, name

  std::map<std::uint16_t, Name> names_;
  std::string track_kind_ = "buffer";
  std::map<SeriesKey, Series> series_;
  std::map<TrackKey, std::map<std::uint64_t, std::uint64_t>> seen_;  // per size, spans so far
  std::map<std::pair<std::int32_t, std::uint32_t>, std::string> incomplete_;
  // The last track added to, so a run of spans on one track looks it up once.
  TrackKey last_key_{-1, 0, 0};
  std::map<std::uint64_t, std::uint64_t>* last_seen_ = nullptr;
  SeriesKey last_series_key_{0, 0, -1};
  Series* last_series_ = nullptr;
};

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
