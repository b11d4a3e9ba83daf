// import/flight_recorder/fr_file.hpp — one rank's Flight Recorder dump file, told by its content
// and read as pickle or JSON.
// Contract:
// - looks_like_flight_recorder: the first bytes (up to kFrSniffBytes) are a protocol 2 pickle
//   (0x80 0x02) naming "version", "entries" or "pg_config" within them, or a JSON object naming
//   one of "entries", "pg_config", "comm_lib_version", "nccl_version" (PyTorch's JSON dump sorts
//   its keys, so "comm_lib_version" comes first).
// - fr_rank_of_name: the rank a dump's file name ends with (<prefix><rank>, PyTorch's
//   TORCH_FR_DUMP_TEMP_FILE / TORCH_NCCL_DEBUG_INFO_TEMP_FILE naming) and the prefix before it;
//   nullopt for a name without trailing digits or a rank of 2^20 or more.
// - read_flight_recorder_file reads the file within kFrFileLimit (util/file_io.hpp), decodes it
//   (pickle_reader.hpp or fr_json.hpp, then fr_decode.hpp) and returns the rank's record; its
//   errors name the file and offset. Notes (a version this reader does not know) go to `notes`.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "run/flight_recorder.hpp"
#include "util/file_io.hpp"
#include "util/result.hpp"

namespace npkit {

inline constexpr std::size_t kFrSniffBytes = 4096;
inline constexpr io::SizeLimit kFrFileLimit{std::uint64_t{256} << 20, "a Flight Recorder dump"};

bool looks_like_flight_recorder(std::span<const std::uint8_t> prefix);
bool is_flight_recorder_file(const std::string& path);

struct FrName {
  std::string prefix;
  std::int32_t rank = 0;
};
std::optional<FrName> fr_rank_of_name(std::string_view name);

Result<FlightRecorderDump> read_flight_recorder_file(const std::string& path, std::int32_t rank,
                                                     std::vector<std::string>& notes);

}  // namespace npkit
