#include "util/file_io.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <thread>

#include "util/parallel_parts.hpp"

namespace npkit::io {
namespace {

Error os_error(const std::string& what, const std::string& path) {
  return Error{what + " " + path + ": " + std::strerror(errno)};
}

class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

// Types, sizes and trust of entries[first, last) (a stat each, relative to the open directory
// `dir_fd` owned by `dir_owner`; links are not followed).
void stat_entries(int dir_fd, uid_t dir_owner, std::vector<DirEntry>& entries, std::size_t first,
                  std::size_t last) {
  const uid_t me = ::geteuid();
  for (std::size_t i = first; i < last; ++i) {
    DirEntry& e = entries[i];
    struct stat st {};
    const bool ok = ::fstatat(dir_fd, e.name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0;
    e.size = ok ? static_cast<std::uint64_t>(st.st_size) : 0;
    if (ok && S_ISLNK(st.st_mode)) {
      e.untrusted = "a symbolic link";
    } else if (ok && S_ISREG(st.st_mode) && st.st_uid != dir_owner && st.st_uid != me) {
      e.untrusted = "owned by uid " + std::to_string(st.st_uid) +
                    ", not by the directory's owner (uid " + std::to_string(dir_owner) +
                    ") or you (uid " + std::to_string(me) + ")";
    }
    e.regular = ok && S_ISREG(st.st_mode) && e.untrusted.empty();
  }
}

// NCCL's dumps hold thousands of files per directory: their stats run on several threads.
void stat_entries_in_parallel(int dir_fd, uid_t dir_owner, std::vector<DirEntry>& entries) {
  constexpr std::size_t kPerThread = 256;
  const std::size_t threads = std::min<std::size_t>(
      {std::max(1u, std::thread::hardware_concurrency()), 16, entries.size() / kPerThread + 1});
  const std::size_t step = (entries.size() + threads - 1) / threads;
  run_parts(threads, [&](std::size_t t) {
    stat_entries(dir_fd, dir_owner, entries, std::min(entries.size(), t * step),
                 std::min(entries.size(), (t + 1) * step));
  });
}

}  // namespace

std::string join_path(const std::string& dir, const std::string& name) {
  if (dir.empty() || dir.back() == '/') return dir + name;
  return dir + "/" + name;
}

bool is_directory(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool is_special_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

bool is_empty_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0;
}

bool path_exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

std::string unreachable_reason(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) return "reachable";
  const int err = errno;
  if (err == ELOOP) return "a symbolic link loop (too many levels of links)";
  if (err == ENOENT && ::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
    std::string target(4096, '\0');
    const ssize_t n = ::readlink(path.c_str(), target.data(), target.size());
    if (n < 0) return "a dangling symbolic link";
    target.resize(static_cast<std::size_t>(n));
    return "a dangling symbolic link (to " + target + ")";
  }
  if (err == ENOENT) return "no such file or directory";
  if (err == EACCES) return "permission denied";
  return std::strerror(err);
}

Result<std::vector<DirEntry>> list_directory(const std::string& dir) {
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return os_error("cannot open directory", dir);
  struct stat dir_stat {};
  if (::fstat(::dirfd(d), &dir_stat) != 0) {
    Error error = os_error("cannot stat directory", dir);
    ::closedir(d);
    return error;
  }
  std::vector<DirEntry> entries;
  while (const dirent* e = ::readdir(d)) {
    std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    entries.push_back(DirEntry{std::move(name), 0, false, {}});
  }
  stat_entries_in_parallel(::dirfd(d), dir_stat.st_uid, entries);
  ::closedir(d);
  std::sort(entries.begin(), entries.end(),
            [](const DirEntry& a, const DirEntry& b) { return a.name < b.name; });
  return entries;
}

namespace {

// Reads up to `max_bytes` of the file; when `limit` is given, a larger file is an error.
Status read_bounded(const std::string& path, std::size_t max_bytes, const SizeLimit* limit,
                    std::vector<std::uint8_t>& buffer) {
  FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) return os_error("cannot open", path);
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return os_error("cannot stat", path);
  if (!S_ISREG(st.st_mode)) return Error{path + ": not a regular file"};
  const auto size = static_cast<std::uint64_t>(st.st_size);
  if (limit != nullptr && size > limit->bytes) {
    return Error{path + ": " + std::to_string(size) + " bytes; " + limit->kind + " is at most " +
                 std::to_string(limit->bytes) + " bytes"};
  }
  buffer.resize(static_cast<std::size_t>(std::min<std::uint64_t>(size, max_bytes)));
  std::size_t done = 0;
  while (done < buffer.size()) {
    ssize_t n =
        ::pread(fd.get(), buffer.data() + done, buffer.size() - done, static_cast<off_t>(done));
    if (n < 0) {
      if (errno == EINTR) continue;
      return os_error("cannot read", path);
    }
    if (n == 0) break;  // the file shrank while we read it: keep what is there
    done += static_cast<std::size_t>(n);
  }
  buffer.resize(done);
  return Ok{};
}

}  // namespace

Status read_file_into(const std::string& path, std::vector<std::uint8_t>& buffer,
                      const SizeLimit& limit) {
  return read_bounded(path, SIZE_MAX, &limit, buffer);
}

Status read_prefix_into(const std::string& path, std::size_t max_bytes,
                        std::vector<std::uint8_t>& buffer) {
  return read_bounded(path, max_bytes, nullptr, buffer);
}

Result<std::string> read_text_file(const std::string& path, std::size_t max_bytes) {
  NPKIT_ASSIGN(const std::uint64_t size, file_size(path));
  if (size > max_bytes) {
    return Error{path + ": " + std::to_string(size) +
                 " bytes, expected a short text file (at most " + std::to_string(max_bytes) +
                 " bytes)"};
  }
  std::vector<std::uint8_t> bytes;
  NPKIT_TRY(read_prefix_into(path, max_bytes, bytes));
  return std::string(bytes.begin(), bytes.end());
}

Result<std::uint64_t> file_size(const std::string& path) {
  FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (fd.get() < 0) return os_error("cannot open", path);
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return os_error("cannot stat", path);
  if (!S_ISREG(st.st_mode)) return Error{path + ": not a regular file"};
  return static_cast<std::uint64_t>(st.st_size);
}

bool has_extension(std::string_view name, std::string_view extension) {
  return name.size() > extension.size() && name.ends_with(extension);
}

}  // namespace npkit::io
