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
  if (is_fragment() || text_.size() < kFlushBytes) return;
  submit(text_);
  text_.reserve(kFlushBytes + 4096);
}

void TraceOutput::append(TraceOutput& fragment) {
  if (is_fragment() || text_.size() + fragment.text_.size() < kFlushBytes) {
    text_.append(fragment.text_);
    fragment.text_.clear();
    return;
  }
  submit(text_);
  text_.reserve(kFlushBytes + 4096);
  submit(fragment.text_);
}

Status TraceOutput::finish(const std::string& path) {
  if (is_fragment()) return Ok{};
  submit(text_);
  if (!writer_->finish()) return Error{"cannot write " + path + " (disk full?)"};
  return Ok{};
}

}  // namespace npkit
