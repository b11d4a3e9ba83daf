#include "recorder/live_file.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <vector>

#include "recorder/file_size_signal.hpp"
#include "recorder/new_file.hpp"
#include "recorder/string_interner.hpp"
#include "recorder/thread_registry.hpp"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14; older kernels answer EINVAL and pages fault on use
#endif

namespace npkit::capture {
namespace {

// The listed live files; guarded by g_mutex, which fork() takes and releases around itself so a
// child never inherits it locked. Never freed: hooks may run during process exit.
std::mutex g_mutex;
std::vector<LiveFile*>* g_listed = nullptr;

void on_new_string(uint16_t id, const char* text) {
  std::lock_guard<std::mutex> lock(g_mutex);
  for (LiveFile* file : *g_listed) file->write_string(id, text);
}

void on_new_thread(const format::ThreadEntry& entry) {
  std::lock_guard<std::mutex> lock(g_mutex);
  for (LiveFile* file : *g_listed) file->write_thread(entry);
}

void install_hooks_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    g_listed = new std::vector<LiveFile*>();
    pthread_atfork([] { g_mutex.lock(); }, [] { g_mutex.unlock(); }, [] { g_mutex.unlock(); });
    process_string_interner().set_hook(on_new_string);
    process_thread_registry().set_hook(on_new_thread);
  });
}

// One entry of a reserved table, never past RLIMIT_FSIZE (no SIGXFSZ); a failed write only
// leaves the entry out of the live file.
void write_entry(int fd, const void* data, size_t size, uint64_t offset) {
  if (fd < 0 || !within_file_size_limit(offset + size)) return;
  const BlockedFileSizeSignal no_sigxfsz;
  write_all_at(fd, data, size, offset);
}

}  // namespace

std::string live_file_name(const std::string& dump_name) {
  const std::string extension = format::kFileExtension;
  if (dump_name.size() >= extension.size() &&
      dump_name.compare(dump_name.size() - extension.size(), extension.size(), extension) == 0) {
    return dump_name.substr(0, dump_name.size() - extension.size()) + format::kLiveFileExtension;
  }
  return dump_name + format::kLiveFileExtension;
}

std::unique_ptr<LiveFile> LiveFile::create(std::shared_ptr<const DumpDirectory> directory,
                                           const std::string& name, const DumpContent& prefix,
                                           uint64_t capacity, std::string* why_not) {
  std::unique_ptr<LiveFile> file(new LiveFile());
  file->created_ = create_new_file(*directory, name, why_not);
  if (file->created_.fd < 0) return nullptr;
  file->directory_ = std::move(directory);
  file->fd_ = file->created_.fd;
  const std::string path = file->directory_->file_path(file->created_.name);
  file->path_ = path;
  file->owner_pid_ = static_cast<int32_t>(getpid());
  file->capacity_ = capacity;
  LiveLayout layout;
  layout.string_slots = StringInterner::kCapacity;
  layout.thread_slots = live_thread_slots_for_page_alignment(prefix, ThreadRegistry::kCapacity);
  layout.record_capacity = capacity;
  LiveOffsets offsets;
  std::string error;
  if (!write_live_prefix(prefix, layout, file->fd_, &offsets, &error)) {
    *why_not = path + ": " + error;
    return nullptr;  // the destructor removes the file
  }
  file->strings_offset_ = offsets.strings;
  file->string_slots_ = layout.string_slots;
  file->threads_offset_ = offsets.threads;
  file->thread_slots_ = layout.thread_slots;
  file->records_offset_ = offsets.records;
  file->file_end_ = offsets.records;
  file->mapped_bytes_ = static_cast<size_t>(capacity) * sizeof(format::ProfilerRecord);
  void* memory = mmap(nullptr, file->mapped_bytes_, PROT_READ | PROT_WRITE, MAP_SHARED, file->fd_,
                      static_cast<off_t>(offsets.records));
  if (memory == MAP_FAILED) {
    *why_not = path + ": mmap of " + std::to_string(file->mapped_bytes_) +
               " bytes failed: " + std::strerror(errno);
    return nullptr;
  }
  file->records_ = static_cast<format::ProfilerRecord*>(memory);
  return file;
}

LiveFile::~LiveFile() {
  remove();
  unmap();
}

bool LiveFile::extend(uint64_t end, std::string* why_not) {
  end = std::min(end, capacity_);
  const uint64_t end_bytes = records_offset_ + end * sizeof(format::ProfilerRecord);
  if (end_bytes <= file_end_) return true;
  if (fd_ < 0) {
    *why_not = path_ + ": closed";
    return false;
  }
  if (!within_file_size_limit(end_bytes)) {
    *why_not = path_ + ": would exceed the file size limit (RLIMIT_FSIZE)";
    return false;
  }
  int failed = 0;
  {
    const BlockedFileSizeSignal no_sigxfsz;  // a limit lowered since the check: EFBIG
    failed = posix_fallocate(fd_, static_cast<off_t>(file_end_),
                             static_cast<off_t>(end_bytes - file_end_));
  }
  if (failed != 0) {
    *why_not = path_ + ": " + std::strerror(failed);
    return false;
  }
  char* first = reinterpret_cast<char*>(records_) + (file_end_ - records_offset_);
  madvise(first, end_bytes - file_end_, MADV_POPULATE_WRITE);  // a head start: errors are fine
  file_end_ = end_bytes;
  return true;
}

bool LiveFile::detach_from(uint64_t first) {
  if (records_ == nullptr || first >= capacity_ || first % kRecordsPerPage != 0) return false;
  void* start = records_ + first;
  const size_t bytes = static_cast<size_t>(capacity_ - first) * sizeof(format::ProfilerRecord);
  return mmap(start, bytes, PROT_READ | PROT_WRITE,
              MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0) != MAP_FAILED;
}

void LiveFile::list() {
  install_hooks_once();
  std::lock_guard<std::mutex> lock(g_mutex);
  if (listed_ || fd_ < 0) return;
  g_listed->push_back(this);
  listed_ = true;
  for (const auto& [id, text] : process_string_interner().snapshot()) {
    write_string(id, text.c_str());
  }
  const ThreadRegistry& threads = process_thread_registry();
  for (uint32_t slot = 0; slot < thread_slots_ && slot < ThreadRegistry::kCapacity; ++slot) {
    format::ThreadEntry entry{};
    if (threads.entry(static_cast<uint16_t>(slot), &entry)) write_thread(entry);
  }
}

void LiveFile::remove(bool keep_file) {
  if (listed_) {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_listed->erase(std::find(g_listed->begin(), g_listed->end(), this));
    listed_ = false;
  }
  if (fd_ >= 0) {
    if (!keep_file) remove_created_file(*directory_, created_);  // while fd_ keeps its inode
    close(fd_);
    fd_ = -1;
  }
}

void LiveFile::unmap() {
  if (records_ == nullptr) return;
  munmap(records_, mapped_bytes_);
  records_ = nullptr;
}

void LiveFile::write_string(uint16_t id, const char* text) {
  if (id == 0 || id > string_slots_ || getpid() != owner_pid_) return;
  format::LiveStringEntry entry{};
  entry.id = id;
  entry.size = static_cast<uint32_t>(strnlen(text, sizeof(entry.text) - 1));
  std::memcpy(entry.text, text, entry.size);
  write_entry(fd_, &entry, sizeof(entry), strings_offset_ + uint64_t{id - 1u} * sizeof(entry));
}

void LiveFile::write_thread(const format::ThreadEntry& entry) {
  if (entry.slot >= thread_slots_ || getpid() != owner_pid_) return;
  write_entry(fd_, &entry, sizeof(entry), threads_offset_ + uint64_t{entry.slot} * sizeof(entry));
}

}  // namespace npkit::capture
