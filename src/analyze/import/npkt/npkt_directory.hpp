// import/npkt/npkt_directory.hpp — finds the npkit dump format v1 files (.npkt) of a directory.
// Contract: lists only the directory itself (not subdirectories); returns the paths of the
// regular files whose name ends in ".npkt", sorted by name. A directory holding none, or one
// that cannot be read, is an Error naming it. Temporary files of an unfinished dump
// ("*.npkt.tmp.<pid>") are not dumps and are not listed; nor is a live file ("X.live.npkt") next
// to the dump it became ("X.npkt").
#pragma once

#include <string>
#include <vector>

#include "util/result.hpp"

namespace npkit::ingest {

Result<std::vector<std::string>> find_npkt_files(const std::string& dir);

}  // namespace npkit::ingest
