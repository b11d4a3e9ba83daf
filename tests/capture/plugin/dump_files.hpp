// dump_files.hpp — where the plugin's dumps are expected and how tests read them back.
//
// Contract:
// - dump_file_name / detached_file_name spell the names of docs/format.md ("npkit_<comm hash as
//   16 lower-case hex digits>_rank<R>.npkt", "npkit_detached_pid<pid>.npkt"), computed here
//   independently of the plugin; live_file_name the name of a communicator's live file
//   ("npkit_<hash>_rank<R>.live.npkt").
// - entries_in lists the names directly inside a directory (sorted; [] if it does not exist).
// - read_dump reads a file with the analyzer's reader and REQUIREs (Catch2) that it parses.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "import/npkt/npkt_dump.hpp"

namespace npkit::test {

std::string dump_file_name(uint64_t comm_hash, int rank);
std::string live_file_name(uint64_t comm_hash, int rank);
std::string detached_file_name(int pid);

std::vector<std::string> entries_in(const std::string& dir);

NpktDump read_dump(const std::string& path);

}  // namespace npkit::test
