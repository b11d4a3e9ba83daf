#include "import/legacy/span_reader.hpp"

#include <array>
#include <cstdio>
#include <mutex>
#include <optional>

#include "import/legacy/gpu_clock.hpp"
#include "import/legacy/legacy_record.hpp"
#include "import/pair/nested_pairer.hpp"
#include "import/pair/slot_pairer.hpp"
#include "util/file_io.hpp"
#include "util/ordered_jobs.hpp"
#include "util/parallel_parts.hpp"

namespace npkit {
namespace {

constexpr std::uint32_t kNegativeSizeBit = 0x80000000u;

std::string hex_id(std::uint8_t id) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%02X", static_cast<unsigned>(id));
  return buf;
}

struct FirstSync {
  std::optional<std::uint64_t> cpu;
  std::optional<std::uint64_t> gpu;
  std::uint64_t records_before = 0;  // non-sync records before the first TIME_SYNC_CPU
};

FirstSync find_first_sync(const std::uint8_t* data, std::size_t n, const EventTable& table) {
  FirstSync s;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint8_t* p = data + i * kLegacyRecordSize;
    const SyncRole role = table[p[0]].sync;
    if (!s.cpu) {
      if (role == SyncRole::kCpuTimeSync) {
        s.cpu = load_le64(p + 8);
      } else if (role == SyncRole::kNone) {
        ++s.records_before;
      }
    } else if (role == SyncRole::kGpuTimeSync) {
      s.gpu = load_le64(p + 8);
      break;
    } else if (role == SyncRole::kCpuTimeSync) {
      break;
    }
  }
  if (!s.cpu) s.records_before = 0;
  return s;
}

class TrackReader {
 public:
  TrackReader(const LegacyDump& dump, const PhaseAssignment& phases, SpanSink& sink,
              Diagnostics& diagnostics)
      : dump_(dump), phases_(phases), sink_(sink), diagnostics_(diagnostics) {}

  Status read(const TrackFile& file, const RankClocks& clocks) {
    // A file listed empty is not opened (NCCL's dumps hold hundreds of them per rank).
    buffer_.clear();
    // docs/formats.md, "Limits": NPKit's buffers hold 16 MiB by default.
    if (file.bytes != 0) {
      NPKIT_TRY(io::read_file_into(file.path, buffer_,
                                   {std::uint64_t{4} << 30, "an NPKit event buffer file"}));
    }
    const bool gpu = file.track.kind == TrackKind::kGpu;
    const unsigned record_size = gpu ? kLegacyRecordSize : dump_.cpu_record_size;
    TrackStats stats;
    const std::size_t n = buffer_.size() / record_size;
    stats.records = n;
    stats.partial_bytes = buffer_.size() % record_size;
    stats.overflowed = n == (gpu ? dump_.gpu_buffer_capacity : dump_.cpu_buffer_capacity);
    unknown_.fill(0);
    if (gpu) {
      read_gpu(file, clocks, n, stats);
    } else {
      read_cpu(file, clocks, n, record_size, stats);
    }
    report(file, stats, record_size);
    sink_.end_track(file, stats);
    return Ok{};
  }

 private:
  bool collective_level(std::uint16_t base) const {
    return base < phases_.collective_of_base.size() &&
           phases_.collective_of_base[base] != kNoCollective;
  }

  void note_time(TrackStats& stats, std::int64_t ns) {
    if (ns < stats.first_ns) stats.first_ns = ns;
    if (ns > stats.last_ns) stats.last_ns = ns;
  }

  void emit(Span& span, const TrackFile& file, TrackStats& stats) {
    span.track = file.track;
    ++stats.spans;
    sink_.on_span(span);
  }

  void unmatched(const TrackFile& file, std::uint16_t base, EventKind kind, std::uint64_t record,
                 std::int64_t ns, std::uint32_t size) {
    sink_.on_unmatched(UnmatchedEvent{file.track, base, kind, record, ns, size});
  }

  void read_gpu(const TrackFile& file, const RankClocks& clocks, std::size_t n, TrackStats& stats) {
    const EventTable& table = dump_.table;
    const FirstSync first = find_first_sync(buffer_.data(), n, table);
    GpuClock clock(clocks, first.cpu, first.gpu);
    stats.domain = clock.host_aligned() ? TimeDomain::kHost : TimeDomain::kGpuCounter;
    stats.before_first_sync = first.records_before;
    sink_.begin_track(file, stats.domain);
    NestedPairer pairer(phases_.phase_of_base, phases_.other_phase);
    std::uint64_t prev_ticks = 0;
    bool have_prev = false;
    Span span;
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint8_t* p = buffer_.data() + i * kLegacyRecordSize;
      const EventName& e = table[p[0]];
      const std::uint64_t ticks = load_le64(p + 8);
      if (e.sync == SyncRole::kCpuTimeSync) {
        ++stats.sync_records;
        clock.on_cpu_sync(ticks);
        continue;
      }
      if (have_prev && ticks < prev_ticks) ++stats.nonmonotonic;
      prev_ticks = ticks;
      have_prev = true;
      if (e.sync == SyncRole::kGpuTimeSync) {
        ++stats.sync_records;
        clock.on_gpu_sync(ticks);
        continue;
      }
      if (!e.defined) {
        ++stats.unknown_ids;
        ++unknown_[p[0]];
        continue;
      }
      const std::int64_t ns = clock.to_ns(ticks);
      note_time(stats, ns);
      std::uint32_t size = load_le32(p + 1);
      if (size >= kNegativeSizeBit && !collective_level(e.base)) {
        // NPKit writes nelem * sizeof(T) as u32: a channel with nothing to do in a step has a
        // negative nelem, which wraps. A step never moves 2 GiB; read it as 0 bytes.
        ++stats.negative_sizes;
        size = 0;
      }
      const std::uint32_t rsvd =
          p[5] | static_cast<std::uint32_t>(p[6]) << 8 | static_cast<std::uint32_t>(p[7]) << 16;
      if (e.kind == EventKind::kEntry) {
        pairer.open(e.base, ns, size, rsvd, i);
      } else if (e.kind == EventKind::kExit) {
        if (pairer.close(e.base, ns, size, rsvd, i, span)) {
          emit(span, file, stats);
        } else {
          ++stats.unmatched_exits;
          unmatched(file, e.base, EventKind::kExit, i, ns, size);
        }
      } else {
        ++stats.instants;
      }
    }
    for (const auto& o : pairer.drain_unmatched()) {
      ++stats.unmatched_entries;
      unmatched(file, o.base, EventKind::kEntry, o.record, o.start_ns, o.size);
    }
  }

  void read_cpu(const TrackFile& file, const RankClocks& clocks, std::size_t n,
                unsigned record_size, TrackStats& stats) {
    const EventTable& table = dump_.table;
    stats.domain = TimeDomain::kHost;
    sink_.begin_track(file, stats.domain);
    SlotPairer pairer(phases_.phase_of_base, phases_.other_phase);
    std::uint64_t prev_ticks = 0;
    Span span;
    for (std::size_t i = 0; i < n; ++i) {
      const LegacyRecord r = decode_legacy_record(buffer_.data() + i * record_size, record_size);
      const EventName& e = table[r.id];
      if (i > 0 && r.timestamp < prev_ticks) ++stats.nonmonotonic;
      prev_ticks = r.timestamp;
      if (e.sync != SyncRole::kNone) {
        ++stats.sync_records;
        continue;
      }
      if (!e.defined) {
        ++stats.unknown_ids;
        ++unknown_[r.id];
        continue;
      }
      const std::int64_t ns = cpu_ticks_to_ns(r.timestamp, clocks.cpu_tick_seconds);
      note_time(stats, ns);
      if (e.kind == EventKind::kEntry) {
        pairer.open(e.base, ns, r.size, r.rsvd, i);
      } else if (e.kind == EventKind::kExit) {
        if (pairer.close(e.base, ns, r.size, r.rsvd, i, span)) {
          span.sender_rank = r.sender_rank;
          span.receiver_rank = r.receiver_rank;
          span.step = r.step;
          emit(span, file, stats);
        } else {
          ++stats.unmatched_exits;
          unmatched(file, e.base, EventKind::kExit, i, ns, r.size);
        }
      } else {
        ++stats.instants;
      }
    }
    for (const auto& o : pairer.drain_unmatched()) {
      ++stats.unmatched_entries;
      unmatched(file, o.base, EventKind::kEntry, o.record, o.start_ns, o.size);
    }
  }

  void report(const TrackFile& file, const TrackStats& s, unsigned record_size) {
    const std::string where = file.path;
    for (int id = 0; id < 256; ++id) {
      if (unknown_[id] == 0) continue;
      diagnostics_.warn("unknown event id",
                        where + ": id " + hex_id(static_cast<std::uint8_t>(id)) +
                            " is not in event table '" + dump_.table.label() + "' (" +
                            std::to_string(unknown_[id]) + " record(s), read as UNKNOWN_" +
                            hex_id(static_cast<std::uint8_t>(id)) +
                            "); pick the dump's table with --event-table",
                        unknown_[id]);
    }
    if (s.partial_bytes > 0) {
      diagnostics_.warn("truncated file", where + ": " + std::to_string(s.partial_bytes) +
                                              " trailing byte(s) at offset " +
                                              std::to_string(s.records * record_size) + " (" +
                                              std::to_string(record_size) + "-byte records)" +
                                              " do not form a whole record and were dropped");
    }
    if (s.negative_sizes > 0) {
      diagnostics_.warn("negative sizes",
                        where + ": " + std::to_string(s.negative_sizes) +
                            " step record(s) carry a negative byte count (a channel with no data "
                            "in that step, wrapped to 32 bits); read as 0 bytes",
                        s.negative_sizes);
    }
    if (s.nonmonotonic > 0) {
      diagnostics_.warn("non-monotonic timestamps",
                        where + ": " + std::to_string(s.nonmonotonic) +
                            " record(s) have a timestamp earlier than the record before",
                        s.nonmonotonic);
    }
    if (s.overflowed) {
      diagnostics_.warn("buffer probably overflowed",
                        where + ": holds exactly " + std::to_string(s.records) +
                            " records, the buffer's capacity; later events were probably dropped");
    }
    if (s.before_first_sync > 0) {
      diagnostics_.warn(
          "events before first TIME_SYNC",
          where + ": " + std::to_string(s.before_first_sync) +
              " record(s) precede the first TIME_SYNC_CPU; converted with the first sync pair",
          s.before_first_sync);
    }
    if (s.domain == TimeDomain::kGpuCounter && s.spans > 0) {
      diagnostics_.warn("no TIME_SYNC events",
                        where +
                            ": no TIME_SYNC_CPU record; GPU times stay on the GPU counter "
                            "(ticks / clock rate) and are not aligned with host time");
    }
    if (s.unmatched_entries + s.unmatched_exits > 0) {
      diagnostics_.warn("unmatched events",
                        where + ": " + std::to_string(s.unmatched_entries) +
                            " ENTRY without EXIT, " + std::to_string(s.unmatched_exits) +
                            " EXIT without ENTRY",
                        s.unmatched_entries + s.unmatched_exits);
    }
  }

  const LegacyDump& dump_;
  const PhaseAssignment& phases_;
  SpanSink& sink_;
  Diagnostics& diagnostics_;
  std::vector<std::uint8_t> buffer_;
  std::array<std::uint64_t, 256> unknown_{};
};

}  // namespace

namespace {

struct TrackJob {
  const TrackFile* file;
  const RankClocks* clocks;
};

// The selected tracks in rank, GPU-then-CPU, index order.
std::vector<TrackJob> selected_tracks(const LegacyDump& dump, const RankFilter& ranks) {
  std::vector<TrackJob> jobs;
  for (std::size_t r = 0; r < dump.layout.ranks.size(); ++r) {
    const RankFiles& rank = dump.layout.ranks[r];
    if (!ranks.contains(rank.rank)) continue;
    for (const auto* files : {&rank.gpu, &rank.cpu}) {
      for (const auto& f : *files) jobs.push_back({&f, &dump.clocks[r]});
    }
  }
  return jobs;
}

class ProgressCounter {
 public:
  ProgressCounter(const SpanReadOptions& options, std::uint64_t total)
      : callback_(options.progress), total_(total) {}
  void add(std::uint64_t bytes) {
    if (!callback_) return;
    std::lock_guard lock(mutex_);
    done_ += bytes;
    callback_(done_, total_);
  }

 private:
  const std::function<void(std::uint64_t, std::uint64_t)>& callback_;
  std::uint64_t total_;
  std::uint64_t done_ = 0;
  std::mutex mutex_;
};

Status read_run(const LegacyDump& dump, const PhaseAssignment& phases, const TrackJob* begin,
                const TrackJob* end, SpanSink& sink, Diagnostics& diagnostics,
                ProgressCounter& progress) {
  TrackReader reader(dump, phases, sink, diagnostics);
  for (const TrackJob* job = begin; job != end; ++job) {
    NPKIT_TRY(reader.read(*job->file, *job->clocks));
    progress.add(job->file->bytes);
  }
  return Ok{};
}

}  // namespace

Status read_legacy_spans(const LegacyDump& dump, const PhaseAssignment& phases,
                         const SpanReadOptions& options, SpanSink& sink, Diagnostics& diagnostics) {
  return read_legacy_spans_parallel(dump, phases, options, {&sink}, diagnostics);
}

Status read_legacy_spans_parallel(const LegacyDump& dump, const PhaseAssignment& phases,
                                  const SpanReadOptions& options,
                                  const std::vector<SpanSink*>& sinks, Diagnostics& diagnostics) {
  const std::vector<TrackJob> jobs = selected_tracks(dump, options.ranks);
  std::uint64_t total = 0;
  for (const auto& j : jobs) total += j.file->bytes;
  ProgressCounter progress(options, total);
  // Contiguous runs of about equal bytes: run i covers tracks [bounds[i], bounds[i + 1]).
  const std::size_t workers = sinks.size();
  std::vector<std::size_t> bounds(workers + 1, jobs.size());
  bounds[0] = 0;
  std::uint64_t acc = 0;
  std::size_t next = 1;
  for (std::size_t t = 0; t < jobs.size() && next < workers; ++t) {
    acc += jobs[t].file->bytes;
    while (next < workers && acc * workers >= total * next) bounds[next++] = t + 1;
  }
  std::vector<Diagnostics> local(workers);
  std::vector<Status> status(workers, Ok{});
  run_parts(workers, [&](std::size_t w) {
    status[w] = read_run(dump, phases, jobs.data() + bounds[w], jobs.data() + bounds[w + 1],
                         *sinks[w], local[w], progress);
  });
  for (std::size_t w = 0; w < workers; ++w) {
    diagnostics.merge(local[w]);
    if (!status[w]) return status[w].error();
  }
  return Ok{};
}

Status read_legacy_spans_in_chunks(const LegacyDump& dump, const PhaseAssignment& phases,
                                   const SpanReadOptions& options, const SpanChunks& chunks,
                                   Diagnostics& diagnostics) {
  const std::vector<TrackJob> jobs = selected_tracks(dump, options.ranks);
  std::uint64_t total = 0;
  for (const auto& j : jobs) total += j.file->bytes;
  ProgressCounter progress(options, total);
  // Chunk c covers tracks [starts[c], starts[c + 1]).
  std::vector<std::size_t> starts;
  std::uint64_t bytes = chunks.chunk_bytes;
  for (std::size_t t = 0; t < jobs.size(); ++t) {
    if (bytes >= chunks.chunk_bytes) {
      starts.push_back(t);
      bytes = 0;
    }
    bytes += jobs[t].file->bytes;
  }
  starts.push_back(jobs.size());
  struct ReadChunk {
    std::unique_ptr<SpanSink> sink;
    Diagnostics diagnostics;
  };
  return run_in_order<ReadChunk>(
      starts.size() - 1, chunks.threads, chunks.window,
      [&](std::size_t c) -> Result<ReadChunk> {
        ReadChunk chunk{chunks.make_sink(c), {}};
        NPKIT_TRY(read_run(dump, phases, jobs.data() + starts[c], jobs.data() + starts[c + 1],
                           *chunk.sink, chunk.diagnostics, progress));
        return chunk;
      },
      [&](std::size_t c, ReadChunk& chunk) -> Status {
        diagnostics.merge(chunk.diagnostics);
        return chunks.consume(c, *chunk.sink);
      });
}

}  // namespace npkit
