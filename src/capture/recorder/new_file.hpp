// recorder/new_file.hpp — the only way the capture creates, names and removes a file: always a new
// file in an opened dump directory, never through a link, never over anything already there. The
// system calls are those of safe_file/safe_file.hpp, which the analyzer's outputs use as well.
//
// Contract:
// - Every call works relative to DumpDirectory::fd(): a directory renamed or replaced after it was
//   opened does not redirect the files.
// - create_new_file() creates `name` with O_CREAT | O_EXCL | O_NOFOLLOW (mode 0644, less the
//   umask). Whatever is at that name — a file, a link (dangling or not), a directory — is left
//   untouched and the file is created under a fresh name instead (fresh_name(): 8 random hex digits
//   before the extension); `clash` then says what was there and where the records go
//   ("<dir>/<name> is already there (a symbolic link to /x); writing <dir>/<fresh> instead").
// - create_temporary_file() creates a hidden, unpredictable name for a file to be published:
//   ".<for_name>.<16 random hex digits>.tmp".
// - publish_file() gives a finished temporary file its final name without replacing anything:
//   renameat2(RENAME_NOREPLACE), or link + unlink where the file system lacks it. A name that is
//   taken gets a fresh one, as create_new_file() does, with `clash` set.
// - remove_created_file() unlinks a name only while it still is the file that was created there
//   (same device and inode): what the capture did not create is never removed. Call it while a
//   descriptor of the file is still open, so that its inode cannot have been reused.
// - Errors: false / fd -1 with "<dir>/<name>: <strerror>" in *why_not.
#pragma once

#include <sys/types.h>

#include <string>

#include "recorder/dump_directory.hpp"
#include "safe_file/safe_file.hpp"

namespace npkit::capture {

// fd, name (within the directory) and identity (for remove_created_file()) of a created file.
struct CreatedFile : safe_file::CreatedFile {
  std::string clash;  // non-empty when `name` is not the name asked for: what was there
};

CreatedFile create_new_file(const DumpDirectory& directory, const std::string& name,
                            std::string* why_not);
CreatedFile create_temporary_file(const DumpDirectory& directory, const std::string& for_name,
                                  std::string* why_not);
bool publish_file(const DumpDirectory& directory, const CreatedFile& temporary,
                  const std::string& wanted_name, std::string* published_name, std::string* clash,
                  std::string* why_not);
void remove_created_file(const DumpDirectory& directory, const CreatedFile& file);

// `name` with 8 random hex digits before its extension (".live.npkt", ".npkt", or its last
// suffix): "npkit_..._rank0.live.npkt" -> "npkit_..._rank0.1a2b3c4d.live.npkt".
std::string fresh_name(const std::string& name);

// What is at `name` in the directory, for messages: "a symbolic link to /x", "a regular file of
// 12 bytes owned by uid 1001", "a directory", ...; "nothing" when the name is free.
std::string describe_entry(const DumpDirectory& directory, const std::string& name);

}  // namespace npkit::capture
