// import/flight_recorder/fr_decode.hpp — the Flight Recorder record of one rank
// (run/flight_recorder.hpp) from the values of its dump (data_tree.hpp), pickle or JSON alike.
// Contract:
// - The root is a dict with "version" ("2.N"); pg_config, pg_status, entries and
//   comm_lib_version (nccl_version before 2.8) are read when present. An entry needs record_id,
//   process_group (name, description), collective_seq_id, profiling_name, time_created_ns and
//   state (scheduled, started or completed); its other fields are optional (unknown keys are
//   ignored). pg_config's ranks are a string "[0, 1]" (or a list of integers).
// - Errors name the file, the value's offset and its path ("entries[3].state: expected a
//   string, found an integer"). A major version other than 2 is an Error; a minor version above
//   10 or below 4 is a note in `notes` (read by the fields 2.10 has).
// - Work is bounded by the file, not by what its values claim: walking lists costs at most
//   4 × `file_bytes` + 65,536 elements and copying strings 32 × `file_bytes` + 1 MiB bytes (a
//   pickle's memo lets one value appear many times); past either is an Error.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "import/flight_recorder/data_tree.hpp"
#include "run/flight_recorder.hpp"
#include "util/result.hpp"

namespace npkit {

Result<FlightRecorderDump> decode_flight_recorder(const std::string& name, const DataTree& tree,
                                                  std::uint64_t file_bytes,
                                                  std::vector<std::string>& notes);

}  // namespace npkit
