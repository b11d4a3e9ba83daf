#include "output/trace/trace_output.hpp"

namespace npkit {
namespace {

constexpr std::size_t kFlushBytes = 1 << 20;

}  // namespace

TraceOutput::TraceOutput(std::ostream& out) : writer_(std::make_unique<io::BackgroundWriter>(out)) {
  text_.reserve(kFlushBytes + 4096);
}

void TraceOutput::submit(std::string& chunk) {
  submitted_ += chunk.size();
  writer_->submit(chunk);
}

void TraceOutput::flush_if_full() {
  if (text_.size() < kFlushBytes) {
    // A fragment's first bytes: room for a whole chunk, so that it never grows by copying.
    if (text_.capacity() < kFlushBytes) text_.reserve(kFlushBytes + 4096);
    return;
  }
  if (is_fragment()) {
    submitted_ += text_.size();
    held_.push_back(std::move(text_));
    text_ = std::string();
  } else {
    submit(text_);
  }
  text_.reserve(kFlushBytes + 4096);
}

void TraceOutput::append_chunk(std::string& chunk) {
  // Small pieces are copied together; a larger one goes to the writer as it is.
  if (is_fragment() || chunk.size() < kFlushBytes / 16) {
    text_.append(chunk);
    flush_if_full();
    return;
  }
  if (!text_.empty()) {
    submit(text_);
    text_.reserve(kFlushBytes + 4096);
  }
  submit(chunk);
}

void TraceOutput::append(TraceOutput& fragment) {
  for (std::string& chunk : fragment.held_) append_chunk(chunk);
  append_chunk(fragment.text_);
  fragment.held_.clear();
  fragment.text_.clear();
  fragment.submitted_ = 0;
}

Status TraceOutput::finish(const std::string& path) {
  if (is_fragment()) return Ok{};
  submit(text_);
  if (!writer_->finish()) return Error{"cannot write " + path + " (disk full?)"};
  return Ok{};
}

}  // namespace npkit
