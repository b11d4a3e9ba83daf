#include "output/background_writer.hpp"

#include <system_error>

namespace npkit::io {

BackgroundWriter::BackgroundWriter(std::ostream& out, std::size_t max_pending)
    : out_(out), max_pending_(max_pending == 0 ? 1 : max_pending) {
  try {
    thread_ = std::thread([this] { run(); });
  } catch (const std::system_error&) {
    writes_inline_ = true;  // no thread to be had: submit() writes
  }
}

BackgroundWriter::~BackgroundWriter() {
  finish();
}

void BackgroundWriter::submit(std::string& chunk) {
  if (writes_inline_) {
    out_.write(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    failed_ = failed_ || !out_;
    chunk.clear();
    return;
  }
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [this] { return pending_.size() < max_pending_; });
  pending_.push_back(std::move(chunk));
  chunk.swap(spare_);  // reuse a written chunk's allocation when there is one
  chunk.clear();
  changed_.notify_all();
}

bool BackgroundWriter::finish() {
  if (writes_inline_) {
    out_.flush();
    failed_ = failed_ || !out_;
    return !failed_;
  }
  {
    std::lock_guard lock(mutex_);
    closing_ = true;
    changed_.notify_all();
  }
  if (thread_.joinable()) thread_.join();
  return !failed_;
}

void BackgroundWriter::run() {
  std::unique_lock lock(mutex_);
  while (true) {
    changed_.wait(lock, [this] { return closing_ || !pending_.empty(); });
    if (pending_.empty()) break;
    std::string chunk = std::move(pending_.front());
    pending_.pop_front();
    lock.unlock();
    out_.write(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    const bool ok = static_cast<bool>(out_);
    chunk.clear();
    lock.lock();
    failed_ = failed_ || !ok;
    if (spare_.capacity() < chunk.capacity()) spare_.swap(chunk);
    changed_.notify_all();
  }
  lock.unlock();
  out_.flush();
  if (!out_) failed_ = true;
}

}  // namespace npkit::io
