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

// Types and sizes of entries[first, last) (a stat each, relative to the open directory `dir_fd`).
void stat_entries(int dir_fd, std::vector<DirEntry>& entries, std::size_t first, std::size_t last) {
  for (std::size_t i = first; i < last; ++i) {
    struct stat st {};
    const bool ok = ::fstatat(dir_fd, entries[i].name.c_str(), &st, 0) == 0;
    entries[i].regular = ok && S_ISREG(st.st_mode);
    entries[i].size = ok ? static_cast<std::uint64_t>(st.st_size) : 0;
  }
}

// NCCL's dumps hold thousands of files per directory: their stats run on several threads.
void stat_entries_in_parallel(int dir_fd, std::vector<DirEntry>& entries) {
  constexpr std::size_t kPerThread = 256;
  const std::size_t threads = std::min<std::size_t>(
      {std::max(1u, std::thread::hardware_concurrency()), 16, entries.size() / kPerThread + 1});
  const std::size_t step = (entries.size() + threads - 1) / threads;
  run_parts(threads, [&](std::size_t t) {
    stat_entries(dir_fd, entries, std::min(entries.size(), t * step),
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

Result<std::vector<DirEntry>> list_directory(const std::string& dir, EntrySizes sizes) {
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return os_error("cannot open directory", dir);
  std::vector<DirEntry> entries;
  while (const dirent* e = ::readdir(d)) {
    std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    DirEntry entry{name, 0, false};
    if (sizes == EntrySizes::kSkip && e->d_type != DT_REG && e->d_type != DT_DIR) {
      struct stat st {};
      if (::fstatat(::dirfd(d), name.c_str(), &st, 0) == 0) entry.regular = S_ISREG(st.st_mode);
    } else {
      entry.regular = e->d_type == DT_REG;
    }
    entries.push_back(std::move(entry));
  }
  if (sizes == EntrySizes::kRead) stat_entries_in_parallel(::dirfd(d), entries);
  ::closedir(d);
  std::sort(entries.begin(), entries.end(),
            [](const DirEntry& a, const DirEntry& b) { return a.name < b.name; });
  return entries;
}

Status read_entry_sizes(const std::string& dir, std::vector<DirEntry>& entries) {
  FileDescriptor fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (fd.get() < 0) return os_error("cannot open directory", dir);
  stat_entries_in_parallel(fd.get(), entries);
  return Ok{};
}

Status read_file_into(const std::string& path, std::vector<std::uint8_t>& buffer) {
  return read_prefix_into(path, SIZE_MAX, buffer);
}

Status read_prefix_into(const std::string& path, std::size_t max_bytes,
                        std::vector<std::uint8_t>& buffer) {
  FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) return os_error("cannot open", path);
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return os_error("cannot stat", path);
  if (!S_ISREG(st.st_mode)) return Error{path + ": not a regular file"};
  buffer.resize(std::min(static_cast<std::size_t>(st.st_size), max_bytes));
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

Result<std::string> read_text_file(const std::string& path, std::size_t max_bytes) {
  std::vector<std::uint8_t> bytes;
  NPKIT_TRY(read_file_into(path, bytes));
  if (bytes.size() > max_bytes) {
    return Error{path + ": " + std::to_string(bytes.size()) +
                 " bytes, expected a short text file (at most " + std::to_string(max_bytes) +
                 " bytes)"};
  }
  return std::string(bytes.begin(), bytes.end());
}

bool has_extension(std::string_view name, std::string_view extension) {
  return name.size() > extension.size() && name.ends_with(extension);
}

}  // namespace npkit::io
