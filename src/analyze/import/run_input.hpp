// import/run_input.hpp — every input kind behind one interface, picked by one detector.
// Contract:
// - detect_input looks at a path once, by content: a directory of NPKit buffer files (legacy
//   dump), .npkt files (a file starting with the npkt magic, as it is or gzip-compressed, or
//   named *.npkt or *.npkt.gz, or a directory holding some), an npkit summary (a JSON object
//   whose schema key is npkit-summary), or Chrome-trace JSON (a *.json file, or a directory of
//   them), NCCL Inspector logs (a file whose first line is an Inspector record, or a directory
//   holding some), PyTorch Flight Recorder dumps (a directory of files named <prefix><rank> whose
//   content is a Flight Recorder pickle or JSON dump, import/flight_recorder/fr_file.hpp; one
//   such file alone is an Error naming its directory). Anything else is an Error naming every kind
//   looked for: for a directory, with what it holds instead (its files, and the subdirectories one
//   level down that hold input, e.g. a capture's parent directory); for a file from inside a legacy
//   dump, the dump's directory. A directory holding more than one kind is read as the first of
//   legacy dump, .npkt, Flight Recorder dumps, JSON, Inspector logs, and an "ignored files" warning
//   names the others. A directory's symbolic links and files owned by neither its owner nor the
//   invoking user are not read (a shared dump directory may hold planted ones): an "untrusted file
//   skipped" warning each.
// - open_run_input opens the input for reading: options that do not apply to it are an Error
//   that says why (--event-table and --cpu-record-size apply to legacy NPKit dumps, --event-table
//   also to Chrome traces of NPKit spans; --phase-map to inputs with spans; --nranks to legacy
//   NPKit dumps, which do not record the communicator size); so is a --ranks that selects no rank
//   the input has. A legacy dump warns about ranks below its size without files ("missing
//   ranks"), and, with one rank's files and no --nranks, that its size is unknown. A summary is an
//   Error: summaries are read by diff, compare and report --format html.
// - RunInput::read streams every span of the selected ranks to `sinks` (threads() of them; the
//   split does not depend on timing, so merging the sinks in order gives the same result for any
//   thread count) and returns the run model, with the input's facts(), details() (what `info`
//   shows of its kind, run/input_details.hpp) and has_spans(); the input's warnings collect in
//   diagnostics(). read is called once.
// - The environment (import/environment/environment_file.hpp): ImportOptions::env_file names a
//   KEY=VALUE file, "" looks for ENV.txt / env.txt beside the input, "none" reads none. The run's
//   configuration is completed from it (the input's own record wins; a differing value is an
//   "environment file" warning), and facts() ends with an "environment" line naming the file.
//   An unreadable --env file is an Error. ImportOptions::label becomes Run::label.
// - ImportOptions::run applies to .npkt captures, which alone are split into runs: for another
//   input, a run above 1 is an Error.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "import/environment/environment_file.hpp"
#include "run/capture_tracks.hpp"
#include "run/channel_span.hpp"
#include "run/phase_map.hpp"
#include "run/run.hpp"
#include "run/span_chunks.hpp"
#include "util/diagnostics.hpp"
#include "util/file_io.hpp"
#include "util/result.hpp"

namespace npkit {

enum class DetectedKind : std::uint8_t {
  kLegacyDump,
  kNpkt,
  kChromeTrace,
  kSummary,
  kNcclTests,
  kInspector,
  kFlightRecorder
};

struct DetectedInput {
  DetectedKind kind = DetectedKind::kLegacyDump;
  std::vector<std::string> ignored;  // what a mixed directory holds beside the chosen kind
  // A directory's links and files of another owner, not read (io::list_directory): a note each.
  std::vector<std::string> untrusted;
  std::optional<std::vector<io::DirEntry>> listing;  // a directory's entries
};

Result<DetectedInput> detect_input(const std::string& path);

struct ImportOptions {
  std::string path;
  std::string ranks = "all";
  std::string event_table = "auto";
  std::string phase_map;  // a file of extra phase rules, "" for none
  unsigned cpu_record_size = 0;
  unsigned threads = 0;  // 0: one per core (at most 8); one for inputs under 16 MB
  bool skip_bad = false;
  std::uint32_t nranks = 0;  // legacy NPKit dumps: the communicator size (0: highest rank + 1)
  std::optional<DetectedInput> detected;  // detect_input(path), where the caller has it
  std::string env_file;                   // "": ENV.txt / env.txt beside the input; "none": no file
  std::string label;                      // names the run in summaries ("" = its path)
  // .npkt captures of several runs of a job (import/npkt/npkt_runs.hpp): the 1-based run to read
  // (0: every file), and whether reading every file of several runs is an Error.
  std::uint32_t run = 0;
  bool refuse_mixed_runs = false;
  // Bytes read so far and in total (optional).
  std::function<void(std::uint64_t done, std::uint64_t total)> progress;
};

enum class TraceSource : std::uint8_t { kSpans, kCaptureTracks, kInstances, kNone };

class RunInput : public ChunkedSpanSource {
 public:
  virtual ~RunInput() = default;
  virtual InputKind kind() const = 0;
  // The phase rules resolved against the input's span names.
  const PhaseAssignment& phases() const override = 0;
  // The NPKit event-id table the spans are named by ("" where ids are not used).
  virtual std::string event_table() const { return ""; }
  // Span base name per Span::base.
  const std::vector<std::string>& span_names() const override = 0;
  virtual unsigned threads() const = 0;
  // Whether read() streams any span (a capture of profiler events alone has none).
  virtual bool has_spans() const = 0;
  // How span times were put on integer ns, for a trace's metadata ("" where there are no spans).
  virtual std::string span_clock() const { return ""; }
  // The CPU record size spans were read from (16, or the NCCL 2.20 port's 18/22 bytes).
  virtual unsigned cpu_record_size() const { return 16; }
  // Whether read_span_chunks can stream the spans a chunk of tracks at a time on several threads
  // (run/span_chunks.hpp): legacy NPKit dumps. The others stream through
  // read() alone.
  virtual bool reads_span_chunks() const { return false; }
  // Where reads_span_chunks(): the selected spans in chunks, before or after read(); its warnings
  // go to `diagnostics`. Elsewhere an Error.
  Status read_span_chunks(const SpanChunks& chunks, Diagnostics& diagnostics) const override;
  // Whether the input records what ran on each channel below its collectives (run/channel_span
  // .hpp): .npkt captures of the profiler plugin. channel_spans gives those of the communicator
  // `comm_hash` that overlap [lo_ns, hi_ns] (host time); none elsewhere.
  virtual bool records_channel_spans() const { return false; }
  virtual std::vector<ChannelSpan> channel_spans(std::uint64_t /*comm_hash*/,
                                                 std::int64_t /*lo_ns*/,
                                                 std::int64_t /*hi_ns*/) const {
    return {};
  }
  // How `trace` draws the input: the spans read() streams, its capture_tracks(), the collective
  // instances of its run, or not at all (kNone) for the reason untraced_reason() gives, a phrase
  // that follows the input's path ("holds no events to trace").
  virtual TraceSource trace_source() const {
    return has_spans() ? TraceSource::kSpans : TraceSource::kNone;
  }
  virtual std::string untraced_reason() const { return "holds no events to trace"; }
  // The input's events on the trace's typed tracks (run/capture_tracks.hpp), referring into
  // this input: .npkt captures (each communicator's ranks, then the files outside any). Null
  // where the input traces as spans (read()) or as collective instances (the run).
  virtual std::unique_ptr<CaptureTrackSet> capture_tracks() const { return nullptr; }
  // What the input is, a line each (format, files, event table, clocks, hosts, environment),
  // for the headers of reports; known once the input is open.
  std::vector<InputFact> facts() const;
  Result<Run> read(const std::vector<SpanSink*>& sinks);
  Diagnostics& diagnostics() { return diagnostics_; }
  // Set by open_run_input (contract above).
  void set_environment(std::optional<EnvironmentFile> file, std::string label);

 protected:
  virtual std::vector<InputFact> input_facts() const = 0;
  // What `info` shows of the input's kind (run/input_details.hpp), once read_input returned.
  virtual InputDetails details() const { return {}; }
  virtual Result<Run> read_input(const std::vector<SpanSink*>& sinks) = 0;
  Diagnostics diagnostics_;

 private:
  std::optional<EnvironmentFile> environment_;
  std::string label_;
};

Result<std::unique_ptr<RunInput>> open_run_input(const ImportOptions& options);

// The rules of a --phase-map file (none for ""); an unreadable or malformed file is an Error
// naming it and the line.
Result<PhaseMap> read_phase_map_file(const std::string& path);

// Reads `input` into input.threads() sinks made by `make_sink` and merges them in order into the
// first; `run` receives the run model.
template <typename Sink, typename MakeSink>
Result<Sink> read_run(RunInput& input, Run& run, MakeSink make_sink) {
  const unsigned n = std::max(1u, input.threads());
  std::vector<std::unique_ptr<Sink>> sinks;
  std::vector<SpanSink*> raw;
  for (unsigned i = 0; i < n; ++i) {
    sinks.push_back(std::make_unique<Sink>(make_sink()));
    raw.push_back(sinks.back().get());
  }
  NPKIT_ASSIGN(run, input.read(raw));
  for (unsigned i = 1; i < n; ++i) sinks[0]->merge(std::move(*sinks[i]));
  return std::move(*sinks[0]);
}

}  // namespace npkit
