// recorder/live_file.hpp — a communicator's live file (format::kFeatureLiveFile): the record
// buffer is a shared mapping of this file, so every record is in the kernel's page cache the moment
// it is written, and a process that dies without writing its dump (SIGKILL, a crash, _exit)
// leaves its records behind, readable like any dump.
//
// Contract:
// - create() makes a new file `name` in `directory` (recorder/new_file.hpp: never through a link,
//   never over anything there; a fresh name when `name` is taken, and clash() says what was
//   there), writes the header and the sections before the records
//   (recorder/dump_writer.hpp, write_live_prefix) and maps room for `capacity` records, shared,
//   at a page-aligned file offset. No block past the prefix is allocated yet.
// - extend(end) makes the file hold records [0, end): allocates their blocks (posix_fallocate,
//   never past RLIMIT_FSIZE: no SIGXFSZ) and faults their pages in (MADV_POPULATE_WRITE where the
//   kernel has it). Writing a record below the extended end never raises SIGBUS, also on a full
//   disk. False with the reason when the file cannot grow.
// - detach_from(first) replaces the mapping of records [first, capacity) by anonymous memory
//   (first must be a multiple of a page's records): those records are kept for the dump but no
//   longer reach the file. Call it only while no thread writes there.
// - Strings and threads: while a live file is listed (list()), every string the process interns
//   and every thread it registers is written into the file (pwrite) before the id or slot is
//   handed out; list() first writes those that exist already. Only files of the calling process
//   are written (a forked child leaves its parent's alone).
// - remove() unlists the file, closes it and unlinks it if its name still holds the file this
//   object created (after the communicator's dump was written; with keep_file, when it could not
//   be written, the file stays); unmap() releases the
//   records' memory. The destructor does both if not done.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "npkit/format.hpp"
#include "recorder/dump_directory.hpp"
#include "recorder/dump_writer.hpp"
#include "recorder/new_file.hpp"

namespace npkit::capture {

class LiveFile {
 public:
  static std::unique_ptr<LiveFile> create(std::shared_ptr<const DumpDirectory> directory,
                                          const std::string& name, const DumpContent& prefix,
                                          uint64_t capacity, std::string* why_not);
  ~LiveFile();
  LiveFile(const LiveFile&) = delete;
  LiveFile& operator=(const LiveFile&) = delete;

  format::ProfilerRecord* records() const noexcept { return records_; }
  const std::string& path() const noexcept { return path_; }
  // What was at the name asked for, when the file got a fresh name; "" otherwise.
  const std::string& clash() const noexcept { return created_.clash; }
  static constexpr uint64_t kRecordsPerPage = kLivePageBytes / sizeof(format::ProfilerRecord);

  bool extend(uint64_t end, std::string* why_not);
  bool detach_from(uint64_t first);

  void list();
  void remove(bool keep_file = false);
  void unmap();

  // Writes one interned string / one registered thread into this file (the list's hooks).
  void write_string(uint16_t id, const char* text);
  void write_thread(const format::ThreadEntry& entry);

 private:
  LiveFile() = default;

  std::shared_ptr<const DumpDirectory> directory_;
  CreatedFile created_;
  std::string path_;
  int fd_ = -1;
  int32_t owner_pid_ = 0;
  uint64_t capacity_ = 0;
  uint64_t records_offset_ = 0;
  uint64_t strings_offset_ = 0;
  uint32_t string_slots_ = 0;
  uint64_t threads_offset_ = 0;
  uint32_t thread_slots_ = 0;
  uint64_t file_end_ = 0;  // records [0, (file_end_ - records_offset_) / 64) are allocated
  format::ProfilerRecord* records_ = nullptr;
  size_t mapped_bytes_ = 0;
  bool listed_ = false;
};

// The live file name of a dump name: "<name>.npkt" -> "<name>.live.npkt".
std::string live_file_name(const std::string& dump_name);

}  // namespace npkit::capture
