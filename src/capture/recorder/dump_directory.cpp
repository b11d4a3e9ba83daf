#include "recorder/dump_directory.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cinttypes>
#include <climits>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>

namespace npkit::capture {
namespace {

// The directories this process writes into, by absolute path; never freed (dumps are written
// during process exit too). fork() takes and releases g_mutex around itself, so a child never
// inherits it locked.
using OpenedDirectories = std::map<std::string, std::shared_ptr<const DumpDirectory>>;
std::mutex g_mutex;
OpenedDirectories* g_opened = nullptr;

OpenedDirectories& opened_directories() {
  static std::once_flag once;
  std::call_once(once, [] {
    g_opened = new OpenedDirectories();
    pthread_atfork([] { g_mutex.lock(); }, [] { g_mutex.unlock(); }, [] { g_mutex.unlock(); });
  });
  return *g_opened;
}

bool is_directory(const std::string& path) {
  struct stat info;
  return stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

bool make_directories(const std::string& path, std::string* why_not) {
  size_t position = 0;
  while (position != std::string::npos) {
    position = path.find('/', position + 1);
    const std::string prefix = path.substr(0, position);
    if (prefix.empty() || prefix == "/" || is_directory(prefix)) continue;
    if (mkdir(prefix.c_str(), 0755) != 0) {
      int error = errno;
      if (error == EEXIST) {
        if (is_directory(prefix)) continue;
        error = ENOTDIR;  // a file is in the way
      }
      *why_not =
          prefix == path ? std::string(std::strerror(error)) : prefix + ": " + std::strerror(error);
      return false;
    }
  }
  return true;
}

// "" when `path` is short enough to be created; otherwise why not. Checked before anything is
// created, so that a path the kernel refuses half-way leaves no directories behind.
std::string length_problem(const std::string& path) {
  if (path.size() >= PATH_MAX) {
    return "the path is " + std::to_string(path.size()) + " bytes long; the limit is " +
           std::to_string(PATH_MAX - 1) + " (PATH_MAX)";
  }
  size_t begin = 0;
  while (begin < path.size()) {
    size_t end = path.find('/', begin);
    if (end == std::string::npos) end = path.size();
    if (end - begin > NAME_MAX) {
      return "a component is " + std::to_string(end - begin) + " bytes long; the limit is " +
             std::to_string(NAME_MAX) + " (NAME_MAX)";
    }
    begin = end + 1;
  }
  return "";
}

// Why others could tamper with files in a directory of this owner and mode; "" when they cannot.
std::string tamper_warning(const std::string& path, const struct stat& info) {
  const uid_t user = geteuid();
  std::string others;
  if (info.st_uid != user) {
    others = "is owned by uid " + std::to_string(info.st_uid) +
             ", not by this process's user (uid " + std::to_string(user) + "): its owner";
  } else if ((info.st_mode & (S_IWGRP | S_IWOTH)) != 0 && (info.st_mode & S_ISVTX) == 0) {
    others = (info.st_mode & S_IWOTH) != 0
                 ? "can be written by every user"
                 : "can be written by its group (gid " + std::to_string(info.st_gid) + ")";
    others += " and has no sticky bit: another user";
  } else {
    return "";
  }
  char mode[8];
  std::snprintf(mode, sizeof(mode), "%04o", static_cast<unsigned>(info.st_mode & 07777));
  return path + " (mode " + mode + ") " + others +
         " can rename or remove the dumps there (the capture never writes through a file it did "
         "not create); use a directory of your own, or one with the sticky bit set (chmod +t)";
}

// Whether the directory opened earlier is still the one to write into: it is kept for the
// process's life, also when its path now names something else (renamed, replaced by a link),
// unless it was removed or can no longer be written.
bool still_usable(const DumpDirectory& opened) {
  struct stat by_fd;
  return fstat(opened.fd(), &by_fd) == 0 && by_fd.st_nlink > 0 &&
         faccessat(opened.fd(), ".", W_OK | X_OK, 0) == 0;
}

std::shared_ptr<const DumpDirectory> open_directory(const std::string& path, std::string* why_not) {
  const std::string too_long = length_problem(path);
  if (!too_long.empty()) {
    *why_not = path.substr(0, 200) + (path.size() > 200 ? "...: " : ": ") + too_long;
    return nullptr;
  }
  if (!make_directories(path, why_not)) {
    *why_not = path + ": " + *why_not;
    return nullptr;
  }
  const int fd = open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    *why_not = path + ": " + std::strerror(errno);
    return nullptr;
  }
  struct stat info;
  if (fstat(fd, &info) != 0 || faccessat(fd, ".", W_OK | X_OK, 0) != 0) {
    *why_not = path + ": " + std::strerror(errno);
    close(fd);
    return nullptr;
  }
  return std::make_shared<const DumpDirectory>(fd, path, tamper_warning(path, info));
}

}  // namespace

DumpDirectory::DumpDirectory(int fd, std::string path, std::string warning)
    : fd_(fd), path_(std::move(path)), warning_(std::move(warning)) {}

DumpDirectory::~DumpDirectory() {
  close(fd_);
}

std::string absolute_directory(const std::string& directory) {
  if (!directory.empty() && directory.front() == '/') return directory;
  char cwd[4096];
  if (getcwd(cwd, sizeof(cwd)) == nullptr) return "";
  std::string out(cwd);
  if (out.back() != '/') out += '/';
  return out + directory;
}

std::shared_ptr<const DumpDirectory> open_dump_directory(const std::string& path,
                                                         std::string* why_not, bool* newly_opened) {
  if (newly_opened != nullptr) *newly_opened = false;
  if (path.empty()) {
    *why_not = "empty dump directory path";
    return nullptr;
  }
  const std::string absolute = absolute_directory(path);
  if (absolute.empty()) {
    *why_not = "cannot resolve the dump directory '" + path + "' (working directory unreadable)";
    return nullptr;
  }
  OpenedDirectories& directories = opened_directories();
  std::lock_guard<std::mutex> lock(g_mutex);
  auto found = directories.find(absolute);
  if (found != directories.end() && still_usable(*found->second)) return found->second;
  std::shared_ptr<const DumpDirectory> opened = open_directory(absolute, why_not);
  if (opened == nullptr) return nullptr;
  directories[absolute] = opened;
  if (newly_opened != nullptr) *newly_opened = true;
  return opened;
}

std::string communicator_dump_name(uint64_t comm_hash, int32_t rank) {
  char name[64];
  std::snprintf(name, sizeof(name), "npkit_%016" PRIx64 "_rank%" PRId32 ".npkt", comm_hash, rank);
  return name;
}

std::string detached_dump_name(int32_t pid) {
  return "npkit_detached_pid" + std::to_string(pid) + ".npkt";
}

}  // namespace npkit::capture
