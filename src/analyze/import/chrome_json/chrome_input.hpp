// import/chrome_json/chrome_input.hpp — Chrome-trace JSON as RunInputs (import/run_input.hpp).
// Contract:
// - PATH is a *.json file or a directory of them (read in name order); every file must be the
//   same shape, recognised by its producer (trace_producer.hpp).
// - ChromeSpanInput: traces of NPKit spans (NPKit's generator, our trace of legacy dumps). The
//   events become the binary reader's spans for the same dump (json_span_source.hpp); read()
//   streams them to one sink (tracks interleave as the files order them; each track is begun
//   once, when first met, and ended after the read, in track order) and joins the top-level
//   collective spans by occurrence into one communicator (scope PATH, nranks = the highest rank
//   + 1). --ranks must select a rank the trace holds.
// - ChromeProfilerInput: traces of profiler-plugin events (NCCL's example plugin, our trace of
//   .npkt dumps), joined per communicator (plugin_cross_rank.hpp). Our traces of captures with
//   event records also hold those records' spans (otherData.event_names names them): read()
//   streams them to one sink (own_event_span_decoder.hpp) and joins their collective-level spans
//   by occurrence into one more communicator, as the .npkt input does. --event-table and
//   --cpu-record-size are Errors, and so is --phase-map for traces without event-record spans.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "import/chrome_json/json_span_source.hpp"
#include "import/chrome_json/own_event_span_decoder.hpp"
#include "import/plugin_join/plugin_cross_rank.hpp"
#include "import/run_input.hpp"

namespace npkit {

// The JSON files of PATH: the file itself, or the *.json files of a directory in name order.
Result<std::vector<std::string>> chrome_trace_files(const std::string& path);

// Whether the files are traces of profiler-plugin events (else of NPKit spans).
Result<bool> is_profiler_trace(const std::vector<std::string>& files);

class ChromeSpanInput : public RunInput {
 public:
  static Result<std::unique_ptr<ChromeSpanInput>> open(const ImportOptions& options,
                                                       const std::vector<std::string>& files,
                                                       const PhaseMap& user);
  InputKind kind() const override { return InputKind::kChromeTrace; }
  const PhaseAssignment& phases() const override { return input_.names->phases(); }
  std::string event_table() const override { return input_.names->table().label(); }
  const std::vector<std::string>& span_names() const override {
    return input_.names->table().base_names();
  }
  bool has_spans() const override { return true; }
  unsigned threads() const override { return 1; }
  std::vector<InputFact> input_facts() const override;
  std::string span_clock() const override {
    return "times read from the Chrome trace JSON (microseconds, to the nearest ns)";
  }
  // Known once the trace was read.
  unsigned cpu_record_size() const override { return tracks_.cpu_record_size(); }
  Result<Run> read_input(const std::vector<SpanSink*>& sinks) override;
  InputDetails details() const override;
  const JsonSpanInput& spans() const { return input_; }
  const TrackBook& tracks() const { return tracks_; }

 private:
  std::string path_;
  std::string ranks_;
  JsonSpanInput input_;
  JsonSpanReadOptions read_;
  TrackBook tracks_;
};

class ChromeProfilerInput : public RunInput {
 public:
  static Result<std::unique_ptr<ChromeProfilerInput>> open(const ImportOptions& options,
                                                           const std::vector<std::string>& files,
                                                           const PhaseMap& user);
  InputKind kind() const override { return InputKind::kChromeTrace; }
  const PhaseAssignment& phases() const override { return phases_; }
  const std::vector<std::string>& span_names() const override { return event_names_.bases; }
  bool has_spans() const override { return !event_names_.bases.empty(); }
  // Its spans (event records of our own trace), else its collectives as instances.
  TraceSource trace_source() const override {
    return has_spans() ? TraceSource::kSpans : TraceSource::kInstances;
  }
  std::string span_clock() const override {
    return has_spans() ? "times read from the Chrome trace JSON (microseconds, to the nearest ns)"
                       : "";
  }
  unsigned threads() const override { return 1; }
  std::vector<InputFact> input_facts() const override;
  Result<Run> read_input(const std::vector<SpanSink*>& sinks) override;
  InputDetails details() const override;
  const std::vector<PluginRankTrace>& traces() const { return traces_; }
  const std::vector<PluginCommunicator>& comms() const { return comms_; }
  // What the collectives' start and end are, for the reader.
  const std::string& time_source() const { return time_source_; }

 private:
  Status read_event_spans(SpanSink& sink, Run& run);

  std::string path_;
  std::vector<PluginRankTrace> traces_;  // the selected ranks; comms_ point into it
  std::vector<PluginCommunicator> comms_;
  std::string time_source_;
  PhaseAssignment phases_;
  std::vector<std::string> files_;
  std::string ranks_;
  TraceEventNames event_names_;  // of every file together
};

}  // namespace npkit
