// recorder/dump_directory.hpp — the directory a capture writes into, opened once, and what its
// files are called.
//
// Contract:
// - absolute_directory() turns a relative directory into one under the current working
//   directory (so a later chdir of the application does not move the dumps); "" when the working
//   directory cannot be read.
// - open_dump_directory() makes `path` absolute, creates it and its missing parents (mkdir with
//   mode 0755: the umask applies, and no directory is ever made wider than 0755), opens it and
//   keeps the descriptor, through which every file of the capture is created (recorder/
//   new_file.hpp). The process shares one DumpDirectory per path, opened once: a later call
//   returns it also when the path now names something else (the directory renamed, or swapped
//   for a link: no communicator follows the swap), and opens the path again only once the
//   directory was removed or can no longer be written. nullptr with "<the component that
//   failed>: <strerror>" when it cannot be created or opened (a regular file in the way is "Not a
//   directory"), or when this process cannot create files in it; a path of PATH_MAX bytes or more,
//   or with a component longer than NAME_MAX, is refused before anything is created.
//   *newly_opened (may be null) is true only for the call that opened it, so a caller warns about
//   a directory once.
// - warning() is non-empty when another user could rename or remove the capture's files there
//   (never write through them: the capture opens nothing it did not create): the directory is
//   owned by another user than the process's effective one, or its group or every user can write
//   into it and its sticky bit is not set.
// - Names: npkit_<comm hash as 16 lower-case hex digits>_rank<rank>.npkt for a communicator,
//   npkit_detached_pid<pid>.npkt for the process's detached PXN operations.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace npkit::capture {

class DumpDirectory {
 public:
  DumpDirectory(int fd, std::string path, std::string warning);
  ~DumpDirectory();
  DumpDirectory(const DumpDirectory&) = delete;
  DumpDirectory& operator=(const DumpDirectory&) = delete;

  int fd() const noexcept { return fd_; }
  const std::string& path() const noexcept { return path_; }
  const std::string& warning() const noexcept { return warning_; }
  std::string file_path(const std::string& name) const { return path_ + "/" + name; }

 private:
  int fd_;
  std::string path_;
  std::string warning_;
};

std::string absolute_directory(const std::string& directory);
std::shared_ptr<const DumpDirectory> open_dump_directory(const std::string& path,
                                                         std::string* why_not,
                                                         bool* newly_opened = nullptr);
std::string communicator_dump_name(uint64_t comm_hash, int32_t rank);
std::string detached_dump_name(int32_t pid);

}  // namespace npkit::capture
