// import/npkt/npkt_input.hpp — .npkt files (the profiler plugin's dumps and the event recorders'
// dumps) as a RunInput (import/run_input.hpp).
// Contract:
// - PATH is a file or a directory of *.npkt files, each as it is or gzip-compressed (*.npkt.gz,
//   read as the file it decompresses to; import/npkt/npkt_directory.hpp says which files of a
//   directory are read: a compressed copy beside its uncompressed file is a "compressed copy
//   skipped" warning). Every file is read (an unreadable or
//   malformed file is an Error naming it, or with --skip-bad in a directory an "unreadable file
//   skipped" warning, all bad still an Error); the files whose rank --ranks selects are kept (the
//   detached proxy-op file, rank -1, only with --ranks all), each rank's capture built and the
//   communicators joined (import/npkt/communicator_join.hpp) into the run model
//   (import/npkt/npkt_run.hpp), whose gaps are warned about. Reader warnings become "npkt
//   reader" warnings, stale KernelCh events (timestamps of another work item) a "stale KernelCh
//   timestamps" warning per file, and collectives whose valid KernelCh channels never ran
//   together "disjoint channel spans" warnings.
// - Files of several runs of a job (import/npkt/npkt_runs.hpp): --run N keeps run N's files
//   (before --ranks); without it they are read together with a "mixed runs" warning, or, with
//   ImportOptions::refuse_mixed_runs, refused. The facts name the runs.
// - A file may hold profiler records, event records, or both. The event records of the selected
//   files are gathered in `events` (phases: --phase-map rules, then the names' hints, then the
//   built-in rules) and paired once into `event_streams`, whose warnings join the others.
//   --phase-map when no file holds event records is an Error.
// - read() streams the event records' spans (one thread) and returns the run: the profiler
//   communicators (import/npkt/npkt_run.hpp), then, when the event records hold collective-level
//   spans, one more communicator of those joined by occurrence (scope = PATH, hosts from the
//   files).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "import/npkt/communicator_join.hpp"
#include "import/npkt/event_records.hpp"
#include "import/npkt/event_stream_check.hpp"
#include "import/npkt/profiler_capture.hpp"
#include "import/run_input.hpp"

namespace npkit {

struct LoadedCaptures {
  std::vector<std::unique_ptr<RankCapture>> files;  // selected files, in path order
  std::vector<Communicator> comms;
  EventRecords events;                            // refers into `files`
  std::vector<EventStreamSummary> event_streams;  // every stream of `events`, in reading order
};

// A directory holding captures, a file named *.npkt or *.npkt.gz, or a file whose bytes (through
// gzip when compressed) start with the npkt magic.
bool is_npkt_path(const std::string& path);

// "0123456789abcdef" (16 lower-case hex digits, as in the file names).
std::string comm_hex(std::uint64_t hash);

class NpktInput : public RunInput {
 public:
  static Result<std::unique_ptr<NpktInput>> open(const ImportOptions& options,
                                                 const PhaseMap& user);
  InputKind kind() const override { return InputKind::kNpkt; }
  const PhaseAssignment& phases() const override { return loaded_.events.phases; }
  const std::vector<std::string>& span_names() const override {
    return loaded_.events.names.base_names();
  }
  bool has_spans() const override { return !loaded_.events.empty(); }
  unsigned threads() const override { return 1; }
  std::vector<InputFact> input_facts() const override;
  Result<Run> read_input(const std::vector<SpanSink*>& sinks) override;
  bool records_channel_spans() const override { return !loaded_.comms.empty(); }
  std::vector<ChannelSpan> channel_spans(std::uint64_t comm_hash, std::int64_t lo_ns,
                                         std::int64_t hi_ns) const override;
  const LoadedCaptures& captures() const { return loaded_; }
  TraceSource trace_source() const override { return TraceSource::kCaptureTracks; }
  std::unique_ptr<CaptureTrackSet> capture_tracks() const override;
  InputDetails details() const override;

 private:
  std::string path_;
  LoadedCaptures loaded_;
  std::vector<InputFact> run_facts_;  // the runs of a mixed input (import/npkt/npkt_runs.hpp)
  Run run_;  // the profiler communicators, built and warned about once, at open()
};

}  // namespace npkit
