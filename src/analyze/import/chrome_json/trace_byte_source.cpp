#include "import/chrome_json/trace_byte_source.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace npkit {
namespace {

class FileSource : public ByteSource {
 public:
  FileSource(std::string path, int fd, std::uint64_t size)
      : path_(std::move(path)), fd_(fd), size_(size) {}
  ~FileSource() override { ::close(fd_); }
  FileSource(const FileSource&) = delete;
  FileSource& operator=(const FileSource&) = delete;

  Result<std::size_t> read(char* dst, std::size_t n) override {
    for (;;) {
      const ssize_t got = ::read(fd_, dst, n);
      if (got >= 0) return static_cast<std::size_t>(got);
      if (errno != EINTR) return Error{"cannot read " + path_ + ": " + std::strerror(errno)};
    }
  }
  std::uint64_t size() const override { return size_; }

 private:
  std::string path_;
  int fd_;
  std::uint64_t size_;
};

}  // namespace

Result<std::unique_ptr<ByteSource>> open_file_source(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Error{"cannot open " + path + ": " + std::strerror(errno)};
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return Error{"cannot read " + path + ": not a regular file"};
  }
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  return std::unique_ptr<ByteSource>(
      std::make_unique<FileSource>(path, fd, static_cast<std::uint64_t>(st.st_size)));
}

Result<std::size_t> MemorySource::read(char* dst, std::size_t n) {
  const std::size_t k = std::min(n, bytes_.size() - at_);
  std::memcpy(dst, bytes_.data() + at_, k);
  at_ += k;
  return k;
}

}  // namespace npkit
