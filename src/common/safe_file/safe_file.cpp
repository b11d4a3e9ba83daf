#include "safe_file/safe_file.hpp"

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstring>

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif

namespace npkit::safe_file {
namespace {

// Names tried after a taken one, before giving up (each is 64 fresh random bits).
constexpr int kFreshNameTries = 16;

uint64_t mixed(uint64_t x) {  // splitmix64's finalizer
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

uint64_t random_bits() {
  uint64_t value = 0;
  if (getrandom(&value, sizeof(value), GRND_NONBLOCK) == static_cast<ssize_t>(sizeof(value))) {
    return value;
  }
  static std::atomic<uint64_t> counter{0};
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return mixed(static_cast<uint64_t>(now.tv_nsec) ^ (static_cast<uint64_t>(now.tv_sec) << 32) ^
               (static_cast<uint64_t>(getpid()) << 20) ^ counter.fetch_add(1));
}

}  // namespace

bool identify(int fd, CreatedFile* file) {
  struct stat info;
  if (fstat(fd, &info) != 0) return false;
  file->device = info.st_dev;
  file->inode = info.st_ino;
  return true;
}

std::string random_hex(int digits) {
  char text[17];
  std::snprintf(text, sizeof(text), "%016" PRIx64, random_bits());
  return std::string(text, static_cast<size_t>(digits < 1 ? 1 : digits > 16 ? 16 : digits));
}

int open_new(int directory_fd, const std::string& name, mode_t mode) {
  return openat(directory_fd, name.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                mode);
}

bool create_temporary(int directory_fd, const std::string& for_name, mode_t mode,
                      CreatedFile* file) {
  file->fd = -1;
  for (int tries = 0; tries <= kFreshNameTries && file->fd < 0; ++tries) {
    file->name = "." + for_name + "." + random_hex(16) + ".tmp";
    file->fd = open_new(directory_fd, file->name, mode);
    if (file->fd < 0 && errno != EEXIST) return false;
  }
  if (file->fd < 0) return false;
  if (!identify(file->fd, file)) {
    const int error = errno;
    close(file->fd);
    file->fd = -1;
    errno = error;
    return false;
  }
  return true;
}

int rename_within(int directory_fd, const std::string& from, const std::string& to, bool replace) {
  if (replace) return renameat(directory_fd, from.c_str(), directory_fd, to.c_str());
  return static_cast<int>(syscall(SYS_renameat2, directory_fd, from.c_str(), directory_fd,
                                  to.c_str(), RENAME_NOREPLACE));
}

int link_within(int directory_fd, const std::string& from, const std::string& to) {
  return linkat(directory_fd, from.c_str(), directory_fd, to.c_str(), 0);
}

void remove_created(int directory_fd, const CreatedFile& file) {
  struct stat info;
  if (fstatat(directory_fd, file.name.c_str(), &info, AT_SYMLINK_NOFOLLOW) != 0) return;
  if (info.st_dev != file.device || info.st_ino != file.inode) return;
  unlinkat(directory_fd, file.name.c_str(), 0);
}

std::string describe_entry(int directory_fd, const std::string& name) {
  struct stat info;
  if (fstatat(directory_fd, name.c_str(), &info, AT_SYMLINK_NOFOLLOW) != 0) {
    return errno == ENOENT
               ? "nothing"
               : std::string("an entry that cannot be examined: ") + std::strerror(errno);
  }
  if (S_ISLNK(info.st_mode)) {
    char target[4096];
    const ssize_t size = readlinkat(directory_fd, name.c_str(), target, sizeof(target) - 1);
    if (size < 0) return "a symbolic link";
    return "a symbolic link to " + std::string(target, static_cast<size_t>(size));
  }
  if (S_ISREG(info.st_mode)) {
    std::string text = "a regular file of " + std::to_string(info.st_size) +
                       " bytes owned by uid " + std::to_string(info.st_uid);
    if (info.st_nlink > 1) text += ", with " + std::to_string(info.st_nlink) + " hard links";
    return text;
  }
  if (S_ISDIR(info.st_mode)) return "a directory";
  if (S_ISFIFO(info.st_mode)) return "a FIFO";
  if (S_ISSOCK(info.st_mode)) return "a socket";
  if (S_ISCHR(info.st_mode) || S_ISBLK(info.st_mode)) return "a device file";
  return "an entry of an unknown type";
}

}  // namespace npkit::safe_file
