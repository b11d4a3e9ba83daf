// recorder/capture_context.hpp — everything the capture keeps for one communicator (or for the
// process's detached PXN operations): its record buffer and what its dump will say about it.
//
// Contract:
// - A context is created by recorder/context_factory.hpp, registered once in a ContextRegistry
//   and never freed: NCCL may pass back a stale handle (e.g. its stale CollApi double stop) after
//   the communicator was finalized, and the handle still leads to this context.
// - Every field except `buffer` and `dump_taken` is written before the context is published in
//   the registry and only read afterwards.
// - `dump_taken` turns true exactly once: the one dump of the context (finalize, flush or exit).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "npkit/format.hpp"
#include "recorder/clock_note.hpp"
#include "recorder/dump_directory.hpp"
#include "recorder/record_buffer.hpp"

namespace npkit::capture {

struct CaptureContext {
  uint16_t slot = 0;  // ContextRegistry slot, part of every handle of this context
  RecordBuffer buffer;

  uint64_t comm_hash = 0;
  int32_t rank = -1;
  int32_t nranks = 0;
  int32_t nnodes = 0;
  int32_t pid = 0;
  uint32_t profiler_api = 0;
  uint64_t event_mask = 0;
  int64_t capture_start_ns = 0;
  std::shared_ptr<const DumpDirectory> directory;  // where the dump (and the live file) go
  std::string dump_name;                           // the dump's name in `directory`
  std::vector<std::string> warnings;  // found while opening it, for the caller to report once
  std::vector<std::pair<std::string, std::string>> metadata;
  std::vector<format::ClockSample> clock_samples;  // taken at init
  std::vector<ClockNote> clock_notes;              // what GPU/clock facts are missing and why

  std::atomic<bool> dump_taken{false};
};

}  // namespace npkit::capture
