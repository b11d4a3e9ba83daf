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
  std::uint64_t size = 0;
  bool regular = false;   // a regular file the readers may open (never a link, never untrusted)
  std::string untrusted;  // why a reader must not open it ("" when it may), see list_directory
};

// Lists the entries of `dir` (not recursive), sorted by name, each with its type and size (a stat
// each, on several threads when there are thousands; links are not followed). A directory may be
// shared: an entry that is a symbolic link, or a regular file owned by neither the directory's
// owner nor the invoking user, is listed with regular = false and `untrusted` saying so
// ("a symbolic link", "owned by uid 1001, not by the directory's owner (uid 1000) or you
// (uid 1000)"), so no reader opens it; the caller warns of it.
Result<std::vector<DirEntry>> list_directory(const std::string& dir);

// The most bytes a reader takes from one file of a kind, and the kind's name for the error.
struct SizeLimit {
  std::uint64_t bytes = 0;
  const char* kind = "";  // "an nccl-tests results file"
};

// Reads the whole file into `buffer` (resized to the file's size). The size comes from fstat on
// the open file before anything is allocated: a file larger than `limit` is an error naming the
// path, its size and the limit ("<path>: 3221225472 bytes; <kind> is at most N bytes"), and a
// file that grows while it is read is read only up to the size fstat gave (a sparse or growing
// file never costs more memory than its stated size).
Status read_file_into(const std::string& path, std::vector<std::uint8_t>& buffer,
                      const SizeLimit& limit);

// Reads at most `max_bytes` from the start of the file into `buffer`.
Status read_prefix_into(const std::string& path, std::size_t max_bytes,
                        std::vector<std::uint8_t>& buffer);

// Reads a small text file; a file longer than `max_bytes` is an error before it is read.
Result<std::string> read_text_file(const std::string& path, std::size_t max_bytes = 4096);

// The size fstat gives for the open file `path` (a regular file), without reading it.
Result<std::uint64_t> file_size(const std::string& path);

bool is_directory(const std::string& path);
// True if `path` exists and is not a regular file or directory (a device, FIFO, socket).
bool is_special_file(const std::string& path);
// True if `path` is a regular file (or a link to one) of 0 bytes.
bool is_empty_file(const std::string& path);
bool path_exists(const std::string& path);
// Why `path` cannot be reached, for "PATH: <why>" errors where path_exists is false: "no such
// file or directory", "a symbolic link loop", "a dangling symbolic link (to TARGET)",
// "permission denied" or the OS reason.
std::string unreachable_reason(const std::string& path);

std::string join_path(const std::string& dir, const std::string& name);
// Whether the name ends with `extension` (".json") and has something before it.
bool has_extension(std::string_view name, std::string_view extension);

}  // namespace npkit::io
