#include "import/npkt/event_records.hpp"

#include <fmt/format.h>

namespace npkit {

std::uint64_t EventRecords::stream_count() const {
  std::uint64_t n = 0;
  for (const auto& f : files) n += f.dump->streams.size();
  return n;
}

void add_event_file(EventRecords& records, const NpktDump& dump, const HostGpuClock& clock,
                    Diagnostics& diagnostics) {
  if (!dump.has_event_streams()) return;
  if (dump.comm.rank < 0) {
    diagnostics.warn("event records without a rank",
                     fmt::format("{}: rank {}: its {} event stream(s) are left out", dump.path,
                                 dump.comm.rank, dump.streams.size()));
    return;
  }
  EventFile f;
  f.dump = &dump;
  f.clock = &clock;
  f.rank = static_cast<std::uint32_t>(dump.comm.rank);
  f.names = records.names.add_file(dump, diagnostics);
  records.files.push_back(f);
}

void resolve_event_phases(EventRecords& records, const PhaseMap& user) {
  records.phases = assign_phases_with_hints(user, records.names.base_names(), records.names.hints(),
                                            PhaseMap::builtin());
}

TrackRef event_stream_track(const EventFile& file, std::size_t s) {
  const format::StreamInfo& info = file.dump->streams[s];
  return TrackRef{file.rank,
                  info.source == format::kStreamHostThread ? TrackKind::kCpu : TrackKind::kGpu,
                  file.dump->stream_numbers[s]};
}

std::string describe_event_stream(const EventFile& file, std::size_t s) {
  const format::StreamInfo& info = file.dump->streams[s];
  std::string d;
  switch (info.source) {
    case format::kStreamGpuBlock:
      d = fmt::format("GPU block {}", info.block);
      break;
    case format::kStreamGpuWarp:
      d = fmt::format("GPU block {} warp {}", info.block, info.warp);
      break;
    default:
      d = fmt::format("host thread {}", info.os_tid);
      break;
  }
  const std::string& name = file.dump->string_at(info.name_string);
  if (!name.empty()) d += " (" + name + ")";
  return d;
}

std::string locate_event_stream(const EventFile& file, std::size_t s) {
  return fmt::format("{}: stream {}, {}", file.dump->path, file.dump->stream_numbers[s],
                     describe_event_stream(file, s));
}

std::uint64_t event_record_offset(const EventFile& file, std::size_t s, std::uint64_t i) {
  const NpktDump& d = *file.dump;
  return d.event_records_offset + (d.streams[s].first_record + i) * d.event_record_size;
}

}  // namespace npkit
