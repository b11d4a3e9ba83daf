// import/legacy/legacy_input.hpp — a legacy NPKit dump directory as a RunInput
// (import/run_input.hpp).
// Contract: the dump is opened with --event-table and --cpu-record-size (import/legacy/
// legacy_dump.hpp) and its phases resolved from the built-in rules with `user` first. read()
// streams the selected ranks' spans on threads() readers (one per core, at most 8, one under
// 16 MB; --threads sets it) and joins the top-level collective spans by occurrence
// (import/spans/occurrence_join.hpp) into the run's one communicator: scope = the dump's path,
// nranks = the highest rank with files + 1; legacy dumps name no host. `dump()` gives `info`
// what it describes.
#pragma once

#include <memory>

#include "import/legacy/legacy_dump.hpp"
#include "import/legacy/span_reader.hpp"
#include "import/run_input.hpp"

namespace npkit {

// A rank's tracks as the reader began them, for `info`: buffer files, GPU buffers left on the GPU
// counter (no TIME_SYNC), the first few overflowed files. begin/end tally a track into `tracks`;
// merge adds a later reader's tally.
struct LegacyRankTracks {
  std::uint32_t rank = 0;
  std::uint64_t gpu_files = 0;
  std::uint64_t cpu_files = 0;
  std::uint64_t unaligned_gpu_tracks = 0;
  std::vector<std::string> overflowed_files;

  static LegacyRankTracks& of(std::vector<LegacyRankTracks>& tracks, std::uint32_t rank);
  static void begin(std::vector<LegacyRankTracks>& tracks, const TrackFile& file);
  static void end(std::vector<LegacyRankTracks>& tracks, const TrackFile& file,
                  const TrackStats& stats);
  static void merge(std::vector<LegacyRankTracks>& tracks,
                    const std::vector<LegacyRankTracks>& later);
};

class LegacyInput : public RunInput {
 public:
  static Result<std::unique_ptr<LegacyInput>> open(const ImportOptions& options,
                                                   const PhaseMap& user);
  InputKind kind() const override { return InputKind::kLegacyDump; }
  const PhaseAssignment& phases() const override { return phases_; }
  std::string event_table() const override { return dump_.table.label(); }
  const std::vector<std::string>& span_names() const override { return dump_.table.base_names(); }
  bool has_spans() const override { return true; }
  unsigned threads() const override { return threads_; }
  std::vector<InputFact> input_facts() const override;
  std::string span_clock() const override {
    return "GPU ticks converted through the TIME_SYNC_CPU/GPU pair of each kernel launch "
           "(integer ns)";
  }
  unsigned cpu_record_size() const override { return dump_.cpu_record_size; }
  Result<Run> read_input(const std::vector<SpanSink*>& sinks) override;
  InputDetails details() const override;
  const LegacyDump& dump() const { return dump_; }
  bool reads_span_chunks() const override { return true; }
  Status read_span_chunks(const SpanChunks& chunks, Diagnostics& diagnostics) const override {
    return read_legacy_spans_in_chunks(dump_, phases_, read_, chunks, diagnostics);
  }

 private:
  // Sets nranks_ from --nranks (`option`, 0: the highest rank + 1) and warns about ranks without
  // files; an Error when a rank's files lie beyond the option.
  Status set_communicator_size(std::uint32_t option);

  std::string path_;
  LegacyDump dump_;
  PhaseAssignment phases_;
  SpanReadOptions read_;
  unsigned threads_ = 1;
  std::int32_t nranks_ = 0;  // the communicator size (--nranks, else the highest rank + 1)
  std::vector<LegacyRankTracks> tracks_;  // of the ranks read, once read_input returned
};

}  // namespace npkit
