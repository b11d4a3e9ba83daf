// file_io.hpp — bounded, checked access to files and directories for the readers.
// Contract: every function reports failures as an Error naming the path and the OS reason;
// nothing throws. read_file_into reuses the caller's buffer so a reader that walks thousands of
// files touches fresh memory only for its largest file.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "util/result.hpp"

namespace npkit::io {

struct DirEntry {
  std::string name;
  std::uint64_t size = 0;  // 0 as well when listed without sizes
  bool regular = false;    // a regular file, or a link to one
};

enum class EntrySizes : std::uint8_t { kRead, kSkip };

// Lists the entries of `dir` (not recursive), sorted by name. kSkip leaves every size at 0 and
// stats only entries whose type the directory does not give (links, some file systems): a
// directory of thousands of files lists with one system call per few hundred entries.
Result<std::vector<DirEntry>> list_directory(const std::string& dir,
                                             EntrySizes sizes = EntrySizes::kRead);

// Fills in the type and size of `entries` (listed from `dir` without sizes), a stat each, on
// several threads when there are thousands.
Status read_entry_sizes(const std::string& dir, std::vector<DirEntry>& entries);

// Reads the whole file into `buffer` (resized to the file's size).
Status read_file_into(const std::string& path, std::vector<std::uint8_t>& buffer);

// Reads at most `max_bytes` from the start of the file into `buffer`.
Status read_prefix_into(const std::string& path, std::size_t max_bytes,
                        std::vector<std::uint8_t>& buffer);

// Reads a small text file; files longer than `max_bytes` are an error.
Result<std::string> read_text_file(const std::string& path, std::size_t max_bytes = 4096);

bool is_directory(const std::string& path);
// True if `path` exists and is not a regular file or directory (a device, FIFO, socket).
bool is_special_file(const std::string& path);
// True if `path` is a regular file (or a link to one) of 0 bytes.
bool is_empty_file(const std::string& path);
bool path_exists(const std::string& path);

std::string join_path(const std::string& dir, const std::string& name);
// Whether the name ends with `extension` (".json") and has something before it.
bool has_extension(std::string_view name, std::string_view extension);

}  // namespace npkit::io
