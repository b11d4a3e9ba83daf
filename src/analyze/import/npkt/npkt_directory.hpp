// import/npkt/npkt_directory.hpp — finds the captures (npkit dump format v1 files) of a directory:
// dumps and live files, as they are (.npkt, .live.npkt) or gzip-compressed (.npkt.gz,
// .live.npkt.gz).
// Contract:
// - is_npkt_file_name(name): the name ends in ".npkt" or ".npkt.gz" with something before
//   ".npkt".
// - find_npkt_files lists only the directory itself (not subdirectories) and returns the paths of
//   the regular files with such a name, sorted by their name without ".gz" (a directory reads in
//   the same order compressed or not). A directory holding none, or one that cannot be read, is
//   an Error naming it. Temporary files of an unfinished dump ("*.npkt.tmp.<pid>") are not
//   listed. Nor is a live file ("X.live.npkt", "X.live.npkt.gz") next to the dump it became
//   ("X.npkt" or "X.npkt.gz"). A capture present both as it is and compressed ("X.npkt" and
//   "X.npkt.gz", as `gzip -k` leaves them) is read once, from the uncompressed file: the
//   compressed one goes to `skipped_copies`, one message each, for the caller to warn about.
// - An entry with such a name that is no readable regular file (a link to nothing, a link loop,
//   a directory, a file it may not read) goes to `unreadable`: "<dir>/X.npkt: a link to nothing
//   (dangling): its rank's data is missing", one message each, for the caller to warn about.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "util/result.hpp"

namespace npkit {

struct NpktFiles {
  std::vector<std::string> paths;
  // "<dir>/X.npkt.gz: skipped, the uncompressed X.npkt beside it is read".
  std::vector<std::string> skipped_copies;
  std::vector<std::string> unreadable;  // see the contract
};

bool is_npkt_file_name(std::string_view name);

Result<NpktFiles> find_npkt_files(const std::string& dir);

}  // namespace npkit
