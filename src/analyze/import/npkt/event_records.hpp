// import/npkt/event_records.hpp — the event records (device and host recorders) of a set of .npkt
// files, ready to be paired: the files that hold event streams, their merged names and the phases.
// Contract: add_event_file keeps a file only when it holds at least one event stream and a rank
// of at least 0 (a file of rank < 0 is an "event records without a rank" warning); it does not
// copy the dump or the clock, which must outlive the EventRecords. resolve_event_phases fills
// `phases` from the merged names (run/phase_map.hpp assign_phases_with_hints: --phase-map
// rules first, then each name's phase hint, then the built-in rules) and must run after the last
// add_event_file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "import/npkt/event_names.hpp"
#include "import/npkt/host_gpu_clock.hpp"
#include "import/npkt/npkt_dump.hpp"
#include "run/phase_map.hpp"
#include "run/track.hpp"
#include "util/diagnostics.hpp"

namespace npkit {

struct EventFile {
  const NpktDump* dump = nullptr;
  const HostGpuClock* clock = nullptr;  // the file's GPU/host clock fit
  std::uint32_t rank = 0;
  std::size_t names = 0;  // the file's index in EventRecords::names
};

struct EventRecords {
  std::vector<EventFile> files;
  EventNameSet names;
  PhaseAssignment phases;

  bool empty() const { return files.empty(); }
  std::uint64_t stream_count() const;
};

void add_event_file(EventRecords& records, const NpktDump& dump, const HostGpuClock& clock,
                    Diagnostics& diagnostics);

// `user`: the --phase-map rules (empty when none).
void resolve_event_phases(EventRecords& records, const PhaseMap& user);

// The track of stream `s` of `file`: its rank, GPU for block and warp streams, CPU for host
// threads, index = the stream's number in the Streams section.
TrackRef event_stream_track(const EventFile& file, std::size_t s);

// "GPU block 3", "GPU block 3 warp 1", "host thread 4711 (worker)", with the stream's name string
// when it has one: "GPU block 3 (allreduce)".
std::string describe_event_stream(const EventFile& file, std::size_t s);

// "<file>: stream 5, GPU block 3 (allreduce)".
std::string locate_event_stream(const EventFile& file, std::size_t s);

// File offset of record `i` of stream `s`.
std::uint64_t event_record_offset(const EventFile& file, std::size_t s, std::uint64_t i);

}  // namespace npkit
