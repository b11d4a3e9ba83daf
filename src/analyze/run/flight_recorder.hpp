// run/flight_recorder.hpp — what PyTorch's Flight Recorder dumped, one record per rank, as plain
// data the readers fill (import/flight_recorder) and analyses read.
// Contract:
// - A FlightRecorderDump is one rank's file (`<prefix><rank>`): the dump's format version
//   ("2.10"), the communication library's version (comm_lib_version; nccl_version before 2.8),
//   its process groups (pg_config: name, description, global ranks), each group's progress
//   (pg_status) and its ring of entries in the order PyTorch recorded them (oldest first).
// - An entry's optional fields are std::nullopt when the dump does not hold them (JSON dumps
//   write 0 for a time not yet discovered: read as nullopt too). frames index into the dump's
//   `frames`, innermost call first; JSON dumps hold none.
// - Sizes are per tensor, each a list of dimensions, as PyTorch gives them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace npkit {

enum class FrState : std::uint8_t { kScheduled, kStarted, kCompleted };

inline const char* fr_state_name(FrState s) {
  switch (s) {
    case FrState::kScheduled:
      return "scheduled";
    case FrState::kStarted:
      return "started";
    case FrState::kCompleted:
      return "completed";
  }
  return "";
}

struct FrFrame {
  std::string name;  // the function
  std::string filename;
  std::int64_t line = 0;
};

struct FrEntry {
  std::int64_t record_id = 0;
  std::int64_t pg_id = 0;
  std::string pg_name;  // process_group[0]: the group's name ("0", "default_pg")
  std::string pg_desc;  // process_group[1]: its description ("default_pg", "undefined")
  std::int64_t collective_seq_id = 0;
  std::int64_t p2p_seq_id = 0;
  std::int64_t op_id = 0;
  std::string profiling_name;  // "nccl:all_reduce", "nccl:send 0->1", "nccl:coalesced"
  std::int64_t time_created_ns = 0;
  std::optional<double> duration_ms;
  std::vector<std::vector<std::int64_t>> input_sizes;
  std::vector<std::string> input_dtypes;
  std::vector<std::vector<std::int64_t>> output_sizes;
  std::vector<std::string> output_dtypes;
  FrState state = FrState::kScheduled;
  std::optional<std::int64_t> time_discovered_started_ns;
  std::optional<std::int64_t> time_discovered_completed_ns;
  bool retired = false;
  std::optional<std::int64_t> timeout_ms;
  bool is_p2p = false;
  std::vector<std::uint32_t> frames;  // indices into FlightRecorderDump::frames
  std::string thread_id;              // 2.9 on
  std::string thread_name;
};

struct FrGroup {
  std::string name;
  std::string desc;
  std::vector<std::int64_t> ranks;  // global ranks, in group-rank order
};

struct FrGroupStatus {
  std::string pg_id;
  std::int64_t last_enqueued = -1;  // collective_seq_id; -1 when none
  std::int64_t last_started = -1;
  std::int64_t last_completed = -1;
};

struct FlightRecorderDump {
  std::string path;
  std::int32_t rank = 0;  // from the file's name: <prefix><rank>
  std::string format;     // "pickle" or "JSON"
  std::uint64_t bytes = 0;
  std::string version;           // "2.10"
  std::string comm_lib_version;  // "2.28.9"
  std::vector<FrGroup> groups;
  std::vector<FrGroupStatus> status;
  std::vector<FrEntry> entries;
  std::vector<FrFrame> frames;
};

// Every rank's dump of one job, ordered by rank; `prefix` is the file names' common part.
struct FlightRecorderDumps {
  std::string prefix;
  std::vector<FlightRecorderDump> ranks;

  bool empty() const { return ranks.empty(); }
};

}  // namespace npkit
