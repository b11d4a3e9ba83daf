// output/trace/trace_output.hpp — the bytes of a trace on their way out, shared by the trace
// encoders (output/trace/trace_encoder.hpp): a buffer that goes to a background writer
// (output/background_writer.hpp) in chunks of about 1 MiB, or, for a fragment, stays in memory,
// in chunks of the same size, until it is appended to the trace's own output.
// Contract:
// - text() is where an encoder appends; call flush_if_full() between events.
// - append(fragment) writes a fragment's bytes after what this output holds, and empties it.
// - finish(path) hands on the rest and waits for the writer: an Error naming `path` when a write
//   failed; a fragment's finish does nothing. bytes() counts every byte given so far.
#pragma once

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "output/background_writer.hpp"
#include "util/result.hpp"

namespace npkit {

class TraceOutput {
 public:
  explicit TraceOutput(std::ostream& out);
  TraceOutput() = default;  // a fragment's

  bool is_fragment() const { return writer_ == nullptr; }
  std::string& text() { return text_; }
  void flush_if_full();
  void append(TraceOutput& fragment);
  Status finish(const std::string& path);
  std::uint64_t bytes() const { return submitted_ + text_.size(); }

 private:
  void submit(std::string& chunk);
  void append_chunk(std::string& chunk);

  std::unique_ptr<io::BackgroundWriter> writer_;  // none in a fragment
  std::string text_;
  std::vector<std::string> held_;  // a fragment's full chunks, before text_
  std::uint64_t submitted_ = 0;    // bytes handed to the writer or held
};

}  // namespace npkit
