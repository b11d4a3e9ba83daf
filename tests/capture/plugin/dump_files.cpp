#include "capture/plugin/dump_files.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <filesystem>

#include <catch2/catch.hpp>

namespace npkit::test {

std::string dump_file_name(uint64_t comm_hash, int rank) {
  char name[96];
  std::snprintf(name, sizeof(name), "npkit_%016" PRIx64 "_rank%d.npkt", comm_hash, rank);
  return name;
}

std::string live_file_name(uint64_t comm_hash, int rank) {
  char name[96];
  std::snprintf(name, sizeof(name), "npkit_%016" PRIx64 "_rank%d.live.npkt", comm_hash, rank);
  return name;
}

std::string detached_file_name(int pid) {
  return "npkit_detached_pid" + std::to_string(pid) + ".npkt";
}

std::vector<std::string> entries_in(const std::string& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

NpktDump read_dump(const std::string& path) {
  Result<NpktDump> dump = read_npkt_file(path);
  INFO(path << ": " << (dump.ok() ? "" : dump.error().message));
  REQUIRE(dump.ok());
  return std::move(dump).value();
}

}  // namespace npkit::test
