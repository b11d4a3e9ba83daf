#include "recorder/new_file.hpp"

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif

namespace npkit::capture {
namespace {

// Names tried after the one asked for, before giving up (each is 32 fresh random bits).
constexpr int kFreshNameTries = 16;

uint64_t mixed(uint64_t x) {  // splitmix64's finalizer
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// Bits an onlooker cannot predict: the kernel's random source, else the clock, pid and a counter.
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

std::string hex_digits(uint64_t value, int digits) {
  char text[17];
  std::snprintf(text, sizeof(text), "%0*" PRIx64, digits, value);
  return std::string(text).substr(0, static_cast<size_t>(digits));
}

bool ends_with(const std::string& text, const char* suffix) {
  const size_t size = std::strlen(suffix);
  return text.size() > size && text.compare(text.size() - size, size, suffix) == 0;
}

// Opens `name` new: no link followed, nothing that exists reused. -1 with errno set.
int open_new(const DumpDirectory& directory, const std::string& name) {
  return openat(directory.fd(), name.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                0644);
}

bool identify(int fd, CreatedFile* file) {
  struct stat info;
  if (fstat(fd, &info) != 0) return false;
  file->device = info.st_dev;
  file->inode = info.st_ino;
  return true;
}

std::string clash_text(const DumpDirectory& directory, const std::string& wanted,
                       const std::string& found, const std::string& taken) {
  return directory.file_path(wanted) + " is already there (" + found + "); writing " +
         directory.file_path(taken) + " instead";
}

int rename_without_replacing(const DumpDirectory& directory, const std::string& from,
                             const std::string& to) {
  return static_cast<int>(syscall(SYS_renameat2, directory.fd(), from.c_str(), directory.fd(),
                                  to.c_str(), RENAME_NOREPLACE));
}

}  // namespace

std::string fresh_name(const std::string& name) {
  size_t cut = name.size();
  if (ends_with(name, ".live.npkt")) {
    cut -= std::strlen(".live.npkt");
  } else if (ends_with(name, ".npkt")) {
    cut -= std::strlen(".npkt");
  } else if (const size_t dot = name.rfind('.'); dot != std::string::npos && dot > 0) {
    cut = dot;
  }
  return name.substr(0, cut) + "." + hex_digits(random_bits(), 8) + name.substr(cut);
}

std::string describe_entry(const DumpDirectory& directory, const std::string& name) {
  struct stat info;
  if (fstatat(directory.fd(), name.c_str(), &info, AT_SYMLINK_NOFOLLOW) != 0) {
    return errno == ENOENT
               ? "nothing"
               : std::string("an entry that cannot be examined: ") + std::strerror(errno);
  }
  if (S_ISLNK(info.st_mode)) {
    char target[4096];
    const ssize_t size = readlinkat(directory.fd(), name.c_str(), target, sizeof(target) - 1);
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

CreatedFile create_new_file(const DumpDirectory& directory, const std::string& name,
                            std::string* why_not) {
  CreatedFile file;
  std::string attempt = name;
  for (int tries = 0; tries <= kFreshNameTries; ++tries) {
    file.fd = open_new(directory, attempt);
    if (file.fd >= 0) break;
    if (errno != EEXIST) {
      *why_not = directory.file_path(attempt) + ": " + std::strerror(errno);
      return file;
    }
    if (file.clash.empty()) file.clash = describe_entry(directory, name);
    attempt = fresh_name(name);
  }
  if (file.fd < 0) {
    *why_not = directory.file_path(name) + ": no free name after " +
               std::to_string(kFreshNameTries) + " tries";
    return file;
  }
  file.name = attempt;
  if (!file.clash.empty()) file.clash = clash_text(directory, name, file.clash, attempt);
  if (!identify(file.fd, &file)) {
    *why_not = directory.file_path(attempt) + ": " + std::strerror(errno);
    close(file.fd);
    file.fd = -1;
  }
  return file;
}

CreatedFile create_temporary_file(const DumpDirectory& directory, const std::string& for_name,
                                  std::string* why_not) {
  CreatedFile file;
  for (int tries = 0; tries <= kFreshNameTries && file.fd < 0; ++tries) {
    file.name = "." + for_name + "." + hex_digits(random_bits(), 16) + ".tmp";
    file.fd = open_new(directory, file.name);
    if (file.fd < 0 && errno != EEXIST) break;
  }
  if (file.fd < 0 || !identify(file.fd, &file)) {
    *why_not = directory.file_path(file.name) + ": " + std::strerror(errno);
    if (file.fd >= 0) close(file.fd);
    file.fd = -1;
  }
  return file;
}

bool publish_file(const DumpDirectory& directory, const CreatedFile& temporary,
                  const std::string& wanted_name, std::string* published_name, std::string* clash,
                  std::string* why_not) {
  clash->clear();
  std::string found;
  std::string target = wanted_name;
  bool can_rename = true;
  for (int tries = 0; tries <= kFreshNameTries; ++tries) {
    int result = -1;
    if (can_rename) {
      result = rename_without_replacing(directory, temporary.name, target);
      if (result != 0 && (errno == EINVAL || errno == ENOSYS || errno == ENOTSUP)) {
        can_rename = false;  // the file system (or kernel) has no RENAME_NOREPLACE
      }
    }
    if (!can_rename) {
      result = linkat(directory.fd(), temporary.name.c_str(), directory.fd(), target.c_str(), 0);
      if (result == 0) remove_created_file(directory, temporary);
    }
    if (result == 0) {
      *published_name = target;
      if (!found.empty()) *clash = clash_text(directory, wanted_name, found, target);
      return true;
    }
    if (errno != EEXIST) {
      *why_not = "publishing " + directory.file_path(temporary.name) + " as " +
                 directory.file_path(target) + ": " + std::strerror(errno);
      return false;
    }
    if (found.empty()) found = describe_entry(directory, wanted_name);
    target = fresh_name(wanted_name);
  }
  *why_not = directory.file_path(wanted_name) + ": no free name after " +
             std::to_string(kFreshNameTries) + " tries";
  return false;
}

void remove_created_file(const DumpDirectory& directory, const CreatedFile& file) {
  struct stat info;
  if (fstatat(directory.fd(), file.name.c_str(), &info, AT_SYMLINK_NOFOLLOW) != 0) return;
  if (info.st_dev != file.device || info.st_ino != file.inode) return;
  unlinkat(directory.fd(), file.name.c_str(), 0);
}

}  // namespace npkit::capture
