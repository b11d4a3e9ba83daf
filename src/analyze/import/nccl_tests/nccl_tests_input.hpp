// import/nccl_tests/nccl_tests_input.hpp — a nccl-tests results file (`-J FILE.json`) as an input
// of the run model.
// Contract:
// - open() reads the whole file (import/nccl_tests/nccl_tests_file.hpp; its errors name the file,
//   offset and member). --event-table, --phase-map, --cpu-record-size and --skip-bad are errors
//   (they describe dumps); so is a --ranks other than all: nccl-tests' times are over all ranks.
// - read() streams no span and returns a Run of kind kNcclTests: config (format
//   "nccl-tests", NCCL version, the NCCL_* variables of the file's env, GPUs, hosts), one
//   communicator named by the path with nranks = processes × threads × GPUs (every rank with
//   data, hosts from the file's devices), no instances, and Run::driver holding the rows.
// - Warnings: "nccl-tests errors" (the file's errors list), "wrong results" (a placement whose
//   #wrong is not 0), "out of bounds" (out_of_bounds.count > 0), "nccl-tests results" (what the
//   reader left out or kept unrecognised: "nan" values, unknown type names, an unknown program).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "import/nccl_tests/nccl_tests_file.hpp"
#include "import/run_input.hpp"

namespace npkit {

class NcclTestsInput : public RunInput {
 public:
  static Result<std::unique_ptr<NcclTestsInput>> open(const ImportOptions& options);
  InputKind kind() const override { return InputKind::kNcclTests; }
  const PhaseAssignment& phases() const override { return phases_; }
  const std::vector<std::string>& span_names() const override { return no_names_; }
  bool has_spans() const override { return false; }
  std::string untraced_reason() const override {
    return "is a nccl-tests results file: it holds one averaged time per size, no timestamps to "
           "trace";
  }
  unsigned threads() const override { return 1; }
  const NcclTestsFile& file() const { return file_; }

 protected:
  std::vector<InputFact> input_facts() const override;
  Result<Run> read_input(const std::vector<SpanSink*>& sinks) override;

 private:
  std::string path_;
  NcclTestsFile file_;
  PhaseAssignment phases_;
  std::vector<std::string> no_names_;
};

}  // namespace npkit
