// recorder/context_dump.hpp — the one dump of a context: close its buffer, write its file,
// release its memory.
//
// Contract:
// - dump_context() acts once per context (CaptureContext::dump_taken); a second call returns
//   kAlreadyTaken and touches nothing. It closes the buffer (waiting up to kDumpWaitBudget for
//   records being written), writes the file with write_dump_file() (never over anything at
//   the dump's name: a fresh name then, and `warning` says why) and unmaps the buffer when no
//   record stayed incomplete. `end_samples` are appended to the clock samples taken at init and
//   `end_notes` (why an end sample is missing) to the context's clock notes (clock_note.hpp). No
//   CUDA call is made here.
// - CommunicatorInfo: capture_end_ns is the host clock when the buffer was closed;
//   records_attempted counts every claim before the close, records_dropped those past the
//   capacity, events_after_dump the claims between the close and the writing of the file;
//   clock_method is kClockKernelBracket when the file holds clock samples, else kClockNone.
// - Records are written in time order (host clock, ties in claim order), records left incomplete
//   as zero records after them.
// - The Threads section lists only threads that wrote a record of this file; Strings lists the
//   whole process-wide table.
// - A live file (recorder/live_file.hpp) is removed once the dump is written, and kept when it
//   could not be. The error then says how many records are where: "all N records are in
//   <live file>", "K of N records are in <live file>; the rest are lost: the live file stopped
//   at record K: <reason>", or "its N records are lost (no live file)". When the live file stopped
//   growing, the dump's "capture.live_file" metadata says where and why.
// - live_file_prefix(): what a context's live file says before its records (end_reason kEndLive,
//   the init clock samples, the context's metadata).
// - dump_live_contexts() dumps, with `reason` and no end sample, every context of `registry` not
//   dumped yet (the detached one only when something was recorded into it) and returns the
//   results of the dumps it attempted. Contexts opened by another process (CaptureContext::pid:
//   this is a child forked after they were opened) are left alone: their file belongs to the
//   process that opened them.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "npkit/format.hpp"
#include "recorder/capture_context.hpp"
#include "recorder/context_registry.hpp"
#include "recorder/dump_writer.hpp"

namespace npkit::capture {

inline constexpr std::chrono::milliseconds kDumpWaitBudget{200};

struct DumpResult {
  enum Status { kWritten, kAlreadyTaken, kFailed };
  Status status = kAlreadyTaken;
  std::string path;     // where the dump went (kWritten), or was to go
  std::string error;    // kFailed: the path and strerror of what failed
  std::string warning;  // kWritten under another name: what was at the dump's name
};

DumpResult dump_context(CaptureContext& context, format::EndReason reason,
                        const std::vector<format::ClockSample>& end_samples,
                        const std::vector<ClockNote>& end_notes);

DumpContent live_file_prefix(const CaptureContext& context, uint64_t capacity);

std::vector<DumpResult> dump_live_contexts(ContextRegistry& registry, format::EndReason reason);

}  // namespace npkit::capture
