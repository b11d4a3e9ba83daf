// background_writer.hpp — writes chunks to a stream on a second thread.
// Contract: submit() hands over a filled chunk and returns at once unless `max_pending` chunks
// are already waiting (then it blocks: memory stays bounded); chunks are written in submission
// order. finish() waits for everything to be written and flushed and reports whether every
// write succeeded. The producer formats the next chunk while the kernel copies the last one, so
// formatting and writing overlap on two cores. Where the host refuses to start the thread, submit()
// writes the chunk itself before it returns.
#pragma once

#include <condition_variable>
#include <deque>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>

namespace npkit::io {

class BackgroundWriter {
 public:
  explicit BackgroundWriter(std::ostream& out, std::size_t max_pending = 2);
  ~BackgroundWriter();
  BackgroundWriter(const BackgroundWriter&) = delete;
  BackgroundWriter& operator=(const BackgroundWriter&) = delete;

  // Takes the chunk's contents; leaves `chunk` empty (capacity kept when a spare is available).
  void submit(std::string& chunk);
  // True if every chunk was written and the stream flushed without error.
  bool finish();

 private:
  void run();

  std::ostream& out_;
  const std::size_t max_pending_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::string> pending_;
  std::string spare_;
  bool closing_ = false;
  bool failed_ = false;
  bool writes_inline_ = false;  // the thread could not be started
  std::thread thread_;
};

}  // namespace npkit::io
