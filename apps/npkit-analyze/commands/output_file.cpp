#include "commands/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <streambuf>

#include "safe_file/safe_file.hpp"

namespace npkit::cli {
namespace {

// An ostream's buffer over a descriptor; the first failed write's errno is kept.
class DescriptorBuffer : public std::streambuf {
 public:
  explicit DescriptorBuffer(int fd) : fd_(fd) {
    setp(buffer_.data(), buffer_.data() + buffer_.size());
  }
  int error() const { return error_; }

 protected:
  int_type overflow(int_type ch) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(ch, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(ch);
      pbump(1);
    }
    return traits_type::not_eof(ch);
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  bool drain() {
    const char* at = pbase();
    while (at < pptr() && error_ == 0) {
      const ssize_t wrote = ::write(fd_, at, static_cast<size_t>(pptr() - at));
      if (wrote < 0 && errno == EINTR) continue;
      if (wrote <= 0) {
        error_ = wrote < 0 ? errno : EIO;
        break;
      }
      at += wrote;
    }
    setp(buffer_.data(), buffer_.data() + buffer_.size());
    return error_ == 0;
  }

  int fd_;
  int error_ = 0;
  std::array<char, 1 << 16> buffer_{};
};

// An opened directory, closed when it goes.
struct Directory {
  int fd = -1;
  ~Directory() {
    if (fd >= 0) close(fd);
  }
};

std::string reason(int error) {
  return std::strerror(error);
}

// FILE's directory and its last component: "a/b" -> ("a", "b"), "b" -> (".", "b").
std::pair<std::string, std::string> split(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return {".", path};
  return {slash == 0 ? "/" : path.substr(0, slash), path.substr(slash + 1)};
}

// A link into /proc (/dev/stderr -> /proc/self/fd/2) names an open descriptor, not a file.
bool points_into_proc(int directory_fd, const std::string& name) {
  char target[4096];
  const ssize_t size = readlinkat(directory_fd, name.c_str(), target, sizeof(target) - 1);
  return size >= 6 && std::string(target, 6) == "/proc/";
}

// /dev/null takes the bytes unread: written in place, nothing to publish.
Status write_discarding(const std::string& path,
                        const std::function<Status(std::ostream& out)>& write) {
  std::ofstream sink(path, std::ios::binary);
  if (!sink) return Error{"cannot write " + path + ": " + reason(errno)};
  return write(sink);
}

}  // namespace

Status write_output_file(const std::string& path,
                         const std::function<Status(std::ostream& out)>& write) {
  const std::string fail = "cannot write " + path + ": ";
  const auto [directory_path, name] = split(path);
  Directory directory;
  directory.fd = open(directory_path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (directory.fd < 0) return Error{fail + directory_path + ": " + reason(errno)};
  if (name.empty() || name == "." || name == "..") return Error{fail + "it names a directory"};
  // A link is replaced, not followed; one to a device, a FIFO or an open descriptor (/dev/stderr)
  // is refused.
  struct stat info;
  if (fstatat(directory.fd, name.c_str(), &info, AT_SYMLINK_NOFOLLOW) == 0) {
    const bool link = S_ISLNK(info.st_mode);
    struct stat target;
    const bool special = link ? points_into_proc(directory.fd, name) ||
                                    (fstatat(directory.fd, name.c_str(), &target, 0) == 0 &&
                                     !S_ISREG(target.st_mode))
                              : !S_ISREG(info.st_mode);
    if (special && !link && S_ISCHR(info.st_mode) && path == "/dev/null") {
      return write_discarding(path, write);
    }
    if (special) {
      return Error{fail + "it is " + safe_file::describe_entry(directory.fd, name) +
                   (link ? ", which is not a regular file to replace" : ", not a regular file") +
                   " (-o - writes to standard output)"};
    }
  }

  safe_file::CreatedFile temporary;
  if (!safe_file::create_temporary(directory.fd, name, 0666, &temporary)) {
    return Error{fail + "cannot create a file in " + directory_path + ": " + reason(errno)};
  }
  Status written = Ok{};
  {
    DescriptorBuffer buffer(temporary.fd);
    std::ostream out(&buffer);
    written = write(out);
    out.flush();
    // A failed write is the cause of whatever the writer then said ("disk full?"): its reason.
    if (buffer.error() != 0) {
      written = Error{fail + reason(buffer.error())};
    } else if (written && !out) {
      written = Error{fail + reason(EIO)};
    }
  }
  if (written &&
      safe_file::rename_within(directory.fd, temporary.name, name, /*replace=*/true) != 0) {
    written = Error{fail + "cannot rename " + temporary.name + " to it: " + reason(errno)};
  }
  if (!written) safe_file::remove_created(directory.fd, temporary);
  close(temporary.fd);
  return written;
}

}  // namespace npkit::cli
