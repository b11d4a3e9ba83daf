// import/inspector/inspector_input.hpp — NCCL Inspector logs as a RunInput (import/run_input.hpp).
// Contract:
// - PATH is one log or a directory of the processes' logs (import/inspector/inspector_log.hpp).
//   --ranks selects ranks (of every communicator) and must select one the logs hold;
//   --event-table, --phase-map and --cpu-record-size are Errors (the logs hold no spans).
// - The collective records join across ranks per communicator by (coll, coll_sn)
//   (import/plugin_join/plugin_cross_rank.hpp), nranks from header.n_ranks; bytes are nccl-tests'
//   S from coll_msg_size_bytes (× n for AllGather / ReduceScatter), count and type unknown
//   (the logs name no data type), algorithm and protocol from coll_algo / coll_proto (v4.2; unknown
//   before). Each rank's clock
//   is its host's gettimeofday (ranks of one host share it); the communicator's name is
//   header.comm_name. launch_ns of a verbose record is its Coll start event.
// - A communicator with a record that is not verbose has no_start_times set (run/run.hpp).
//   notes count the records timed on the host (kernel_cpu, collective_cpu) and the Send/Recv
//   records, which are not joined.
// - Each rank's lost records (v4.1 on, import/inspector/inspector_log.hpp) are RunRank::lost, so a
//   communicator with lost collectives is incomplete (run/run.hpp) and a note says so; proxy steps
//   (v4.3) are RunRank::proxy.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "import/inspector/inspector_log.hpp"
#include "import/run_input.hpp"

namespace npkit {

class InspectorInput : public RunInput {
 public:
  static Result<std::unique_ptr<InspectorInput>> open(const ImportOptions& options);
  InputKind kind() const override { return InputKind::kInspector; }
  const PhaseAssignment& phases() const override { return phases_; }
  const std::vector<std::string>& span_names() const override { return no_names_; }
  bool has_spans() const override { return false; }
  TraceSource trace_source() const override { return TraceSource::kInstances; }
  unsigned threads() const override { return 1; }
  std::vector<InputFact> input_facts() const override;
  Result<Run> read_input(const std::vector<SpanSink*>& sinks) override;
  InputDetails details() const override;
  const InspectorLogs& logs() const { return logs_; }

 private:
  std::string path_;
  InspectorLogs logs_;  // the selected ranks
  std::vector<RunCommunicator> comms_;
  PhaseAssignment phases_;
  std::vector<std::string> no_names_;
};

}  // namespace npkit
