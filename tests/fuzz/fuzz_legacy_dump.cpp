// fuzz_legacy_dump.cpp — libFuzzer target: a legacy NPKit dump directory built from the input,
// opened with open_legacy_dump and decoded with read_legacy_spans (and, when the input asks for
// it, again with read_legacy_spans_parallel, whose sinks must together see exactly what the
// serial reader saw, with the same warnings).
// Contract: never crashes, hangs or trips a sanitizer on any input; every span and track the
// reader reports satisfies the span reader's contract (checked below, abort() otherwise).
//
// Input layout (tests/fuzz/README.md):
//   byte 0   options: bits 0-1 CPU record size (detect, 16, 18, 22); bits 2-3 event table
//            ("auto", the dump's npkit_event.h if one is given, a built-in picked by byte 1,
//            "auto"); bit 4 GPU files named per channel (NPKit 2021) instead of per buffer;
//            bits 5-6 number of sinks (threads) for the parallel read, 0 = no parallel read
//   byte 1   built-in event table index
//   then     entries: 1 header byte h, 2 length bytes (LE), then that many content bytes
//            (fewer if the input ends). kind = h % 10: 0-2 GPU event file, 3-4 CPU event file,
//            5 cpu_clock_period_num, 6 cpu_clock_period_den, 7 gpu_clock_rate, 8 npkit_event.h
//            (beside the dump), 9 clock_calibration_* file; rank = (h / 10) % 4;
//            index = h / 40 (0..6). A later entry with the same name replaces an earlier one.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "import/legacy/legacy_dump.hpp"
#include "import/legacy/span_reader.hpp"
#include "run/event_table.hpp"
#include "run/phase_map.hpp"
#include "util/diagnostics.hpp"

namespace {

namespace fs = std::filesystem;

volatile std::uint64_t observed = 0;  // keeps the sink's arithmetic from being optimised away

void check(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "fuzz_legacy_dump: contract violated: %s\n", what);
  std::abort();
}

// A per-process scratch directory holding `dump/` and the optional event header.
class Scratch {
 public:
  Scratch() {
    std::string tmpl = (fs::temp_directory_path() / "npkit-fuzz-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr) {
      std::perror("fuzz_legacy_dump: mkdtemp");
      std::abort();
    }
    root_ = tmpl;
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(root_, ec);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;

  // Empties the scratch directory and recreates `dump/`.
  fs::path reset() {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(root_, ec)) fs::remove_all(e.path(), ec);
    fs::create_directory(dump(), ec);
    return dump();
  }
  fs::path dump() const { return root_ / "dump"; }
  fs::path header() const { return root_ / "npkit_event.h"; }

 private:
  fs::path root_;
};

void write_file(const fs::path& path, const std::uint8_t* data, std::size_t size) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return;
  if (size > 0) std::fwrite(data, 1, size, f);
  std::fclose(f);
}

std::string file_name(unsigned kind, unsigned rank, unsigned index, bool channel_naming) {
  const std::string r = std::to_string(rank);
  const std::string i = std::to_string(index);
  switch (kind) {
    case 0:
    case 1:
    case 2:
      return "gpu_events_rank_" + r + (channel_naming ? "_channel_" : "_buf_") + i;
    case 3:
    case 4:
      return "cpu_events_rank_" + r + "_channel_" + i;
    case 5:
      return "cpu_clock_period_num_rank_" + r;
    case 6:
      return "cpu_clock_period_den_rank_" + r;
    case 7:
      return "gpu_clock_rate_rank_" + r;
    default:
      return "clock_calibration_cpu_global_rank_" + r;
  }
}

class CheckingSink : public npkit::SpanSink {
 public:
  CheckingSink(const npkit::LegacyDump& dump, const npkit::PhaseAssignment& phases)
      : dump_(dump), phases_(phases) {}

  void begin_track(const npkit::TrackFile& file, npkit::TimeDomain domain) override {
    check(!in_track_, "begin_track while a track is open");
    in_track_ = true;
    track_ = file.track;
    spans_ = 0;
    log(1, file.track.rank, file.track.index, static_cast<std::uint64_t>(domain));
  }
  void on_span(const npkit::Span& s) override {
    check(in_track_, "span outside a track");
    check(s.track == track_, "span of another track");
    check(s.base < dump_.table.base_names().size(), "span base out of range");
    check(s.phase < phases_.phase_names.size(), "span phase out of range");
    check(s.entry_record < s.exit_record, "span EXIT not after its ENTRY");
    if (s.track.kind == npkit::TrackKind::kCpu) check(s.depth == 0, "CPU span with depth");
    // What every analysis computes from a span.
    sum_ += static_cast<std::uint64_t>(s.duration_ns()) ^ static_cast<std::uint64_t>(s.child_ns);
    ++spans_;
    log(2, s.base, static_cast<std::uint64_t>(s.start_ns), static_cast<std::uint64_t>(s.end_ns),
        s.entry_record, s.exit_record, s.phase, s.depth, s.lane,
        static_cast<std::uint64_t>(s.child_ns), s.seq);
  }
  void on_unmatched(const npkit::UnmatchedEvent& e) override {
    check(in_track_, "unmatched event outside a track");
    check(e.track == track_, "unmatched event of another track");
    check(e.base < dump_.table.base_names().size(), "unmatched base out of range");
    log(3, e.base, e.record, static_cast<std::uint64_t>(e.ns));
  }
  void end_track(const npkit::TrackFile& file, const npkit::TrackStats& stats) override {
    check(in_track_ && file.track == track_, "end_track without its begin_track");
    in_track_ = false;
    check(stats.spans == spans_, "TrackStats::spans differs from the spans delivered");
    const unsigned size = file.track.kind == npkit::TrackKind::kGpu ? 16u : dump_.cpu_record_size;
    check(stats.records * size + stats.partial_bytes == file.bytes,
          "records and partial bytes do not add up to the file size");
    check(stats.partial_bytes < size, "partial bytes of a whole record");
    check(2 * stats.spans + stats.unmatched_entries + stats.unmatched_exits + stats.sync_records +
                  stats.instants + stats.unknown_ids <=
              stats.records,
          "more events accounted for than records read");
    log(4, stats.records, stats.spans, stats.unmatched_entries, stats.unmatched_exits,
        stats.nonmonotonic, static_cast<std::uint64_t>(stats.first_ns),
        static_cast<std::uint64_t>(stats.last_ns));
  }
  std::uint64_t sum() const { return sum_; }
  // One hash per callback, in order: what a second reader must reproduce.
  const std::vector<std::uint64_t>& events() const { return events_; }

 private:
  const npkit::LegacyDump& dump_;
  const npkit::PhaseAssignment& phases_;
  bool in_track_ = false;
  npkit::TrackRef track_;
  std::uint64_t spans_ = 0;
  std::uint64_t sum_ = 0;
  std::vector<std::uint64_t> events_;

  template <typename... V>
  void log(V... values) {
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (std::uint64_t v : {static_cast<std::uint64_t>(values)...}) h = (h ^ v) * 0x100000001b3ull;
    events_.push_back(h);
  }
};

bool same_warnings(const npkit::Diagnostics& a, const npkit::Diagnostics& b) {
  const auto& x = a.warnings();
  const auto& y = b.warnings();
  if (x.size() != y.size()) return false;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (x[i].category != y[i].category || x[i].count != y[i].count ||
        x[i].examples != y[i].examples) {
      return false;
    }
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static Scratch scratch;
  if (size < 2) return 0;
  const std::uint8_t options = data[0];
  const std::uint8_t table_index = data[1];
  const fs::path dir = scratch.reset();
  bool have_header = false;
  bool have_event_file = false;
  for (std::size_t pos = 2; pos + 3 <= size;) {
    const std::uint8_t h = data[pos];
    std::size_t len = data[pos + 1] | static_cast<std::size_t>(data[pos + 2]) << 8;
    pos += 3;
    if (len > size - pos) len = size - pos;
    const unsigned kind = h % 10;
    if (kind == 8) {
      write_file(scratch.header(), data + pos, len);
      have_header = true;
    } else {
      write_file(dir / file_name(kind, (h / 10) % 4, h / 40, (options & 0x10) != 0), data + pos,
                 len);
      have_event_file = have_event_file || kind <= 4;
    }
    pos += len;
  }
  if (!have_event_file) return 0;  // open_legacy_dump rejects it; nothing to decode

  npkit::LegacyDumpOptions opts;
  static const unsigned kRecordSizes[] = {0, 16, 18, 22};
  opts.cpu_record_size = kRecordSizes[options & 3];
  switch ((options >> 2) & 3) {
    case 1:
      if (have_header) opts.event_table = scratch.header().string();
      break;
    case 2: {
      const auto& names = npkit::builtin_event_table_names();
      opts.event_table = names[table_index % names.size()];
      break;
    }
    default:
      break;
  }

  npkit::Diagnostics diagnostics;
  auto dump = npkit::open_legacy_dump(dir.string(), opts, diagnostics);
  if (!dump) {
    check(!dump.error().message.empty(), "empty error message");
    return 0;
  }
  check(dump->clocks.size() == dump->layout.ranks.size(), "clocks not parallel to ranks");
  const npkit::PhaseAssignment phases =
      npkit::assign_phases(npkit::PhaseMap::builtin(), dump->table);
  CheckingSink sink(*dump, phases);
  const npkit::SpanReadOptions read_options;
  npkit::Diagnostics read_diagnostics;
  auto status = npkit::read_legacy_spans(*dump, phases, read_options, sink, read_diagnostics);
  if (!status) check(!status.error().message.empty(), "empty error message");
  for (const auto* d : {&diagnostics, &read_diagnostics}) {
    for (const auto& w : d->warnings()) {
      check(w.examples.size() <= npkit::Diagnostics::kExamplesPerCategory, "too many examples");
    }
  }
  observed = sink.sum();

  const unsigned workers = (options >> 5) & 3;
  if (workers == 0) return 0;
  std::deque<CheckingSink> sinks;
  std::vector<npkit::SpanSink*> pointers;
  for (unsigned w = 0; w < workers; ++w) pointers.push_back(&sinks.emplace_back(*dump, phases));
  npkit::Diagnostics parallel_diagnostics;
  auto parallel = npkit::read_legacy_spans_parallel(*dump, phases, read_options, pointers,
                                                    parallel_diagnostics);
  check(parallel.ok() == status.ok(), "parallel and serial reads disagree on failing");
  if (!status) return 0;
  std::vector<std::uint64_t> merged;
  for (const auto& s : sinks) merged.insert(merged.end(), s.events().begin(), s.events().end());
  check(merged == sink.events(), "parallel read delivered other callbacks than the serial read");
  check(same_warnings(read_diagnostics, parallel_diagnostics),
        "parallel read produced other warnings than the serial read");
  return 0;
}
