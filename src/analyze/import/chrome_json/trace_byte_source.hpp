// import/chrome_json/trace_byte_source.hpp — where the Chrome-trace reader
// (trace_event_reader.hpp) gets its bytes: a file read sequentially in the reader's chunks, or
// bytes already in memory.
// Contract: read() fills up to `n` bytes and returns how many, 0 only at the end of the input;
// a failed read is an Error naming the path and the OS reason (EINTR is retried). size() is the
// input's size in bytes, for progress. open_file_source refuses what is not a regular file
// (a directory, FIFO or device) with an Error naming the path, and advises the kernel that the
// file is read sequentially.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "util/result.hpp"

namespace npkit {

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  virtual Result<std::size_t> read(char* dst, std::size_t n) = 0;
  virtual std::uint64_t size() const = 0;
};

Result<std::unique_ptr<ByteSource>> open_file_source(const std::string& path);

// `bytes` must outlive the source.
class MemorySource : public ByteSource {
 public:
  explicit MemorySource(std::string_view bytes) : bytes_(bytes) {}
  Result<std::size_t> read(char* dst, std::size_t n) override;
  std::uint64_t size() const override { return bytes_.size(); }

 private:
  std::string_view bytes_;
  std::size_t at_ = 0;
};

}  // namespace npkit
