#include "import/flight_recorder/fr_file.hpp"

#include <charconv>

#include "import/flight_recorder/fr_decode.hpp"
#include "import/flight_recorder/fr_json.hpp"
#include "import/flight_recorder/pickle_reader.hpp"
#include "import/rank_limit.hpp"

namespace npkit {
namespace {

bool contains(std::string_view text, std::initializer_list<std::string_view> words) {
  for (const auto w : words) {
    if (text.find(w) != std::string_view::npos) return true;
  }
  return false;
}

}  // namespace

bool looks_like_flight_recorder(std::span<const std::uint8_t> prefix) {
  const std::string_view text(reinterpret_cast<const char*>(prefix.data()), prefix.size());
  if (prefix.size() >= 2 && prefix[0] == 0x80 && prefix[1] == 0x02) {
    return contains(text.substr(0, 256), {"version", "entries", "pg_config"});
  }
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos || text[first] != '{') return false;
  return contains(text,
                  {"\"entries\"", "\"pg_config\"", "\"comm_lib_version\"", "\"nccl_version\""});
}

bool is_flight_recorder_file(const std::string& path) {
  std::vector<std::uint8_t> prefix;
  if (!io::read_prefix_into(path, kFrSniffBytes, prefix)) return false;
  return looks_like_flight_recorder(prefix);
}

std::optional<FrName> fr_rank_of_name(std::string_view name) {
  std::size_t digits = 0;
  while (digits < name.size() && name[name.size() - 1 - digits] >= '0' &&
         name[name.size() - 1 - digits] <= '9') {
    ++digits;
  }
  if (digits == 0 || digits > 7) return std::nullopt;
  std::int32_t rank = 0;
  const std::string_view tail = name.substr(name.size() - digits);
  std::from_chars(tail.data(), tail.data() + tail.size(), rank);
  if (rank >= static_cast<std::int32_t>(kMaxRanks)) return std::nullopt;
  return FrName{std::string(name.substr(0, name.size() - digits)), rank};
}

Result<FlightRecorderDump> read_flight_recorder_file(const std::string& path, std::int32_t rank,
                                                     std::vector<std::string>& notes) {
  std::vector<std::uint8_t> bytes;
  NPKIT_TRY(io::read_file_into(path, bytes, kFrFileLimit));
  const bool pickle = !bytes.empty() && bytes[0] == 0x80;
  auto tree = pickle ? read_pickle(path, bytes) : read_fr_json(path, bytes);
  if (!tree) return tree.error();
  NPKIT_ASSIGN(auto dump, decode_flight_recorder(path, *tree, bytes.size(), notes));
  dump.path = path;
  dump.rank = rank;
  dump.format = pickle ? "pickle" : "JSON";
  dump.bytes = bytes.size();
  return dump;
}

}  // namespace npkit
