#include "recorder/dump_directory.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>

namespace npkit::capture {
namespace {

bool is_directory(const std::string& path) {
  struct stat info;
  return stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

}  // namespace

std::string absolute_directory(const std::string& directory) {
  if (!directory.empty() && directory.front() == '/') return directory;
  char cwd[4096];
  if (getcwd(cwd, sizeof(cwd)) == nullptr) return "";
  std::string out(cwd);
  if (out.back() != '/') out += '/';
  return out + directory;
}

bool make_directories(const std::string& path, std::string* why_not) {
  if (path.empty()) {
    *why_not = "empty dump directory path";
    return false;
  }
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
      *why_not = prefix + ": " + std::strerror(error);
      return false;
    }
  }
  if (access(path.c_str(), W_OK | X_OK) != 0) {
    *why_not = path + ": " + std::strerror(errno);
    return false;
  }
  return true;
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
