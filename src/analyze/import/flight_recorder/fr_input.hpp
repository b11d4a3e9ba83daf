// import/flight_recorder/fr_input.hpp — a directory of PyTorch Flight Recorder dumps (one file per
// rank, <prefix><rank>, pickle or JSON) as an input of the run model.
// Contract:
// - open() reads every dump of the directory (fr_file.hpp) that --ranks selects: a file that
//   cannot be read is an Error, or with --skip-bad an "unreadable Flight Recorder dump" warning
//   and its rank is left out. Dumps of two prefixes, or two dumps of one rank, are an Error;
//   so are --event-table, --phase-map and --cpu-record-size (no spans) and a --ranks that selects
//   no dump. Global ranks that a dump's pg_config names but that have no dump are a "missing
//   ranks" warning; a format version outside 2.4-2.10 a "Flight Recorder version" warning.
// - read() streams no span and returns a Run of kind kFlightRecorder with no communicators:
//   Run::flight_recorder holds the dumps (by rank), config the format, the communication
//   library's versions and the number of files; facts() and details() say what `info` shows
//   (ranks, format versions, process groups and, per group and rank, the entries and the last
//   one's collective_seq_id, operation and state).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "import/run_input.hpp"
#include "run/flight_recorder.hpp"

namespace npkit {

class FlightRecorderInput : public RunInput {
 public:
  static Result<std::unique_ptr<FlightRecorderInput>> open(const ImportOptions& options);
  InputKind kind() const override { return InputKind::kFlightRecorder; }
  const PhaseAssignment& phases() const override { return phases_; }
  const std::vector<std::string>& span_names() const override { return no_names_; }
  bool has_spans() const override { return false; }
  std::string untraced_reason() const override {
    return "holds PyTorch Flight Recorder dumps: a ring of each rank's last collectives with "
           "their state, no GPU timestamps to trace";
  }
  unsigned threads() const override { return 1; }

 protected:
  std::vector<InputFact> input_facts() const override;
  InputDetails details() const override;
  Result<Run> read_input(const std::vector<SpanSink*>& sinks) override;

 private:
  std::string path_;
  FlightRecorderDumps dumps_;
  PhaseAssignment phases_;
  std::vector<std::string> no_names_;
};

}  // namespace npkit
