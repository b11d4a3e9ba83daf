// safe_file/safe_file.hpp — the one place where the capture and the analyzer create, rename and
// remove files: always relative to an opened directory, never through a link, never over
// anything that is there unless asked to.
//
// Contract:
// - open_new() creates `name` in the directory with O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
//   (`mode`, less the umask): whatever is at that name — a file, a link (dangling or not), a
//   FIFO, a directory — is left untouched and the call fails with EEXIST.
// - create_temporary() creates a hidden, unpredictable name for a file to be published:
//   ".<for_name>.<16 random hex digits>.tmp"; it tries fresh names while one is taken.
// - rename_within() renames `from` to `to` in the directory: replacing whatever is at `to` (a
//   link there is replaced itself, never followed) or, without `replace`, failing with EEXIST
//   when `to` is taken (EINVAL, ENOSYS or ENOTSUP: the file system cannot tell; link_within()
//   then publishes without replacing).
// - remove_created() unlinks a name only while it still is the file that was created there (same
//   device and inode): what the caller did not create is never removed. Call it while a
//   descriptor of the file is still open, so that its inode cannot have been reused.
// - random_hex() gives bits an onlooker cannot predict (the kernel's random source, else the
//   clock, the process id and a counter).
// - Errors: -1 / fd -1 with errno set; callers name the file in their own messages.
#pragma once

#include <sys/types.h>

#include <string>

namespace npkit::safe_file {

struct CreatedFile {
  int fd = -1;
  std::string name;  // the name it got, within the directory
  dev_t device = 0;  // identity of the created file, for remove_created()
  ino_t inode = 0;
};

int open_new(int directory_fd, const std::string& name, mode_t mode);
// Records the identity (device, inode) of the open `fd` in `file`; false with errno set.
bool identify(int fd, CreatedFile* file);
// Fills in `file` (fd, name, identity); false with errno set and no file left behind.
bool create_temporary(int directory_fd, const std::string& for_name, mode_t mode,
                      CreatedFile* file);
int rename_within(int directory_fd, const std::string& from, const std::string& to, bool replace);
int link_within(int directory_fd, const std::string& from, const std::string& to);
void remove_created(int directory_fd, const CreatedFile& file);

// `digits` (1 to 16) lower-case hex digits of fresh random bits.
std::string random_hex(int digits);

// What is at `name` in the directory, for messages: "a symbolic link to /x", "a regular file of
// 12 bytes owned by uid 1001", "a directory", "a FIFO", ...; "nothing" when the name is free.
std::string describe_entry(int directory_fd, const std::string& name);

}  // namespace npkit::safe_file
