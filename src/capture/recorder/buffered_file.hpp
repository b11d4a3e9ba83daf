// recorder/buffered_file.hpp — writes a new file through a large buffer, so a dump of millions of
// records costs few write() calls.
//
// Contract: adopt() takes an open descriptor of a file the capture created (recorder/new_file.hpp)
// and the path its messages name; the object closes it. append() copies small pieces into
// the buffer and passes blocks at least as large as the buffer straight to write(); short writes
// and EINTR are retried. The first failure is remembered and later appends do nothing; close()
// flushes, closes and reports it as "<path>: <strerror>". The destructor closes a file left open
// (without reporting).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace npkit::capture {

class BufferedFile {
 public:
  explicit BufferedFile(size_t buffer_bytes = size_t{1} << 20);
  ~BufferedFile();
  BufferedFile(const BufferedFile&) = delete;
  BufferedFile& operator=(const BufferedFile&) = delete;

  void adopt(int fd, const std::string& path);
  void append(const void* data, size_t size);
  void append_zeros(size_t size);
  bool close(std::string* error);

 private:
  void flush();
  void write_all(const char* data, size_t size);

  std::string path_;
  int fd_ = -1;
  int error_ = 0;  // errno of the first failure
  std::vector<char> buffer_;
  size_t used_ = 0;
};

}  // namespace npkit::capture
