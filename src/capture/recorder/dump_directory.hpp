// recorder/dump_directory.hpp — where dump files go and what they are called.
//
// Contract:
// - absolute_directory() turns a relative directory into one under the current working
//   directory (so a later chdir of the application does not move the dumps); "" when the working
//   directory cannot be read.
// - make_directories() creates `path` and its missing parents (mode 0755, like mkdir -p); an
//   existing directory is success; false with "<the component that failed>: <strerror>"
//   otherwise (a regular file in the way is "Not a directory"), also when the
//   directory exists but this process cannot create files in it.
// - Names: npkit_<comm hash as 16 lower-case hex digits>_rank<rank>.npkt for a communicator,
//   npkit_detached_pid<pid>.npkt for the process's detached PXN operations.
#pragma once

#include <cstdint>
#include <string>

namespace npkit::capture {

std::string absolute_directory(const std::string& directory);
bool make_directories(const std::string& path, std::string* why_not);
std::string communicator_dump_name(uint64_t comm_hash, int32_t rank);
std::string detached_dump_name(int32_t pid);

}  // namespace npkit::capture
