#include "recorder/buffered_file.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace npkit::capture {

BufferedFile::BufferedFile(size_t buffer_bytes) : buffer_(buffer_bytes) {}

BufferedFile::~BufferedFile() {
  if (fd_ >= 0) ::close(fd_);
}

void BufferedFile::adopt(int fd, const std::string& path) {
  if (fd_ >= 0) ::close(fd_);
  fd_ = fd;
  path_ = path;
  error_ = 0;
  used_ = 0;
}

void BufferedFile::write_all(const char* data, size_t size) {
  while (size > 0 && error_ == 0) {
    const ssize_t written = ::write(fd_, data, size);
    if (written < 0) {
      if (errno != EINTR) error_ = errno;
      continue;
    }
    data += written;
    size -= static_cast<size_t>(written);
  }
}

void BufferedFile::flush() {
  write_all(buffer_.data(), used_);
  used_ = 0;
}

void BufferedFile::append(const void* data, size_t size) {
  if (size == 0) return;  // `data` may be NULL then (an empty vector's data())
  const char* bytes = static_cast<const char*>(data);
  if (used_ + size > buffer_.size()) flush();
  if (size >= buffer_.size()) {
    write_all(bytes, size);
    return;
  }
  std::memcpy(buffer_.data() + used_, bytes, size);
  used_ += size;
}

void BufferedFile::append_zeros(size_t size) {
  while (size > 0) {
    if (used_ == buffer_.size()) flush();
    const size_t piece = std::min(size, buffer_.size() - used_);
    std::memset(buffer_.data() + used_, 0, piece);
    used_ += piece;
    size -= piece;
  }
}

bool BufferedFile::close(std::string* error) {
  if (fd_ < 0) {
    *error = path_ + ": not open";
    return false;
  }
  flush();
  if (::close(fd_) != 0 && error_ == 0) error_ = errno;
  fd_ = -1;
  if (error_ != 0) {
    *error = path_ + ": " + std::strerror(error_);
    return false;
  }
  return true;
}

}  // namespace npkit::capture
