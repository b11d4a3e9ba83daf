// output/trace/reserved_text.hpp — writing through a pointer into room reserved at the end of a
// string, for the trace encoders' hot paths (one size check per event instead of one per piece).
// Contract: the constructor reserves `most` bytes after the string's end, the caller's bound on
// what it writes; done() gives back the room not used. Nothing else may touch the string
// in between.
#pragma once

#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>

namespace npkit {

class ReservedText {
 public:
  ReservedText(std::string& out, std::size_t most) : out_(out) {
    const std::size_t at = out.size();
    out.resize(at + most);
    p_ = out.data() + at;
  }
  void raw(std::string_view v) {
    std::memcpy(p_, v.data(), v.size());
    p_ += v.size();
  }
  void raw(char c) { *p_++ = c; }
  void done() { out_.resize(static_cast<std::size_t>(p_ - out_.data())); }

 protected:
  std::string& out_;
  char* p_;
};

}  // namespace npkit
