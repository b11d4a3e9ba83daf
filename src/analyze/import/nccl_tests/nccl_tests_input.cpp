#include "import/nccl_tests/nccl_tests_input.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "run/nccl_names.hpp"
#include "util/prose_list.hpp"

namespace npkit {
namespace {

constexpr std::size_t kMaxArgsShown = 24;

// Ranks per process: the rows of config.devices are processes (nccl-tests lists each process's
// first GPU), each running threads × GPUs ranks.
std::int64_t ranks_per_process(const NcclTestsFile& f) {
  return std::max<std::int64_t>(1, f.nthreads * f.ngpus);
}

std::string args_text(const NcclTestsFile& f) {
  std::string out;
  for (std::size_t i = 1; i < f.args.size() && i <= kMaxArgsShown; ++i) {
    out += (i == 1 ? "" : " ") + f.args[i];
  }
  if (f.args.size() > kMaxArgsShown + 1) out += " …";
  return out;
}

void warn_about(const NcclTestsFile& f, const std::string& path, Diagnostics& d) {
  for (const auto& e : f.errors) d.warn("nccl-tests errors", path + ": " + e);
  if (f.out_of_bounds && *f.out_of_bounds > 0) {
    d.warn("out of bounds",
           fmt::format("{}: out_of_bounds.count {}: nccl-tests found values out of bounds", path,
                       *f.out_of_bounds));
  }
  for (const auto& r : f.results.rows) {
    for (const auto& [name, t] :
         {std::pair{"out-of-place", &r.out_of_place}, std::pair{"in-place", &r.in_place}}) {
      if (t->has_value() && (*t)->wrong.value_or(0) > 0) {
        d.warn("wrong results",
               fmt::format("{}: {} {} B {}: #wrong {}", path, r.func, r.bytes, name, *(*t)->wrong));
      }
    }
  }
  for (const auto& n : f.notes) d.warn("nccl-tests results", path + ": " + n);
  if (nccl_func_of_tests_program(f.results.program) == NcclFunc::kOther) {
    d.warn("nccl-tests results",
           fmt::format("{}: program \"{}\" (args[0]) is not a nccl-tests collective: rows are "
                       "named after it and have no busbw convention",
                       path, f.results.program));
  }
}

}  // namespace

Result<std::unique_ptr<NcclTestsInput>> NcclTestsInput::open(const ImportOptions& o) {
  const char* option = nullptr;
  if (o.event_table != "auto") option = "--event-table";
  if (!o.phase_map.empty()) option = "--phase-map";
  if (o.cpu_record_size != 0) option = "--cpu-record-size";
  if (o.skip_bad) option = "--skip-bad";
  if (option != nullptr) {
    return Error{std::string(option) + " applies to dumps and traces; " + o.path +
                 " is a nccl-tests results file"};
  }
  if (o.ranks != "all") {
    return Error{"--ranks " + o.ranks + ": " + o.path +
                 " is a nccl-tests results file, whose times are over all ranks together"};
  }
  NPKIT_ASSIGN(auto file, read_nccl_tests_file(o.path));
  auto input = std::make_unique<NcclTestsInput>();
  input->path_ = o.path;
  input->file_ = std::move(file);
  input->phases_ = assign_phases(PhaseMap{}, EventTable{});
  warn_about(input->file_, o.path, input->diagnostics_);
  return input;
}

std::vector<InputFact> NcclTestsInput::input_facts() const {
  const NcclTestsFile& f = file_;
  std::vector<InputFact> out;
  out.push_back({"format", fmt::format("nccl-tests results JSON, version {}", f.version)});
  const NcclFunc func = nccl_func_of_tests_program(f.results.program);
  out.push_back(
      {"program",
       fmt::format("{}{} {}", f.results.program,
                   func == NcclFunc::kOther ? "" : fmt::format(" ({})", nccl_func_name(func)),
                   args_text(f))});
  out.push_back({"NCCL version", nccl_version_text(f.nccl_version)});
  if (!f.start_time.empty()) {
    out.push_back({"run", fmt::format("{} to {} (the driver's local time)", f.start_time,
                                      f.end_time.empty() ? "(no end_time)" : f.end_time)});
  }
  out.push_back(
      {"ranks", fmt::format("{}: {} process(es) × {} thread(s) × {} GPU(s)", f.results.nranks,
                            std::max<std::size_t>(1, f.devices.size()), f.nthreads, f.ngpus)});
  std::set<std::string> hosts;
  std::set<std::string> gpus;
  for (const auto& d : f.devices) {
    hosts.insert(d.hostname);
    if (!d.device_info.empty()) gpus.insert(d.device_info);
  }
  out.push_back(
      {"hosts", hosts.empty() ? "not recorded" : prose_list({hosts.begin(), hosts.end()})});
  out.push_back({"GPUs", gpus.empty() ? "not recorded" : prose_list({gpus.begin(), gpus.end()})});
  std::uint32_t passes = 0;
  std::size_t per_iteration = 0;
  for (const auto& r : f.results.rows) {
    passes = std::max(passes, r.cycle + 1);
    for (const auto* t : {&r.out_of_place, &r.in_place}) {
      if (t->has_value() && !(*t)->iteration_ns.empty()) ++per_iteration;
    }
  }
  out.push_back(
      {"results", fmt::format("{} row(s), {} pass(es) over the sizes; warm-up {}, {} iteration(s) "
                              "× {} aggregated, validation {}, CUDA graph launches {}",
                              f.results.rows.size(), passes, f.warmup_iters, f.iterations,
                              f.aggregated_iterations, f.validation, f.graph)});
  out.push_back(
      {"times",
       fmt::format("{} per operation, one averaged time per size and placement (mean over "
                   "iterations and ranks); {}; no timestamps, no per-instance times",
                   f.results.time_kind == "cpu_time" ? "CPU time of the launch loop (-C 1)"
                                                     : "wall time of the timed loop",
                   per_iteration == 0
                       ? "no per-iteration times (nccl-tests -I 1 records them)"
                       : fmt::format("per-iteration times in {} placement(s)", per_iteration))});
  std::string checks = f.out_of_bounds ? fmt::format("out of bounds {}", *f.out_of_bounds)
                                       : std::string("out of bounds not recorded");
  if (f.average_busbw_gbps) {
    checks += fmt::format(", average busbw {:.3f} GB/s ({})", *f.average_busbw_gbps,
                          f.average_busbw_check.empty() ? "unchecked" : f.average_busbw_check);
  }
  checks += fmt::format(", {} error(s)", f.errors.size());
  out.push_back({"checks", checks});
  return out;
}

Result<Run> NcclTestsInput::read_input(const std::vector<SpanSink*>&) {
  const NcclTestsFile& f = file_;
  Run run;
  run.path = path_;
  run.kind = InputKind::kNcclTests;
  run.config.formats.insert("nccl-tests");
  run.config.files = 1;
  run.config.nccl_versions.insert(nccl_version_text(f.nccl_version));
  for (const auto& kv : f.env) {
    const std::size_t eq = kv.find('=');
    if (eq == std::string::npos) continue;
    const std::string key = kv.substr(0, eq);
    if (key.rfind("NCCL_", 0) == 0 || key.rfind("NPKIT_", 0) == 0) {
      run.config.env[key].insert(kv.substr(eq + 1));
    }
  }
  RunCommunicator comm;
  comm.scope = path_;
  comm.nranks = f.results.nranks;
  comm.time_source = "nccl-tests' averaged time per size (no timestamps)";
  const std::int64_t per_process = ranks_per_process(f);
  for (std::int32_t r = 0; r < comm.nranks; ++r) {
    RunRank rank;
    rank.rank = r;
    for (const auto& d : f.devices) {
      if (r >= d.rank && r < d.rank + per_process) rank.host = d.hostname;
    }
    comm.ranks.push_back(std::move(rank));
  }
  for (const auto& d : f.devices) {
    if (!d.hostname.empty()) run.config.hosts.insert(d.hostname);
    if (!d.device_info.empty()) run.config.gpus.insert(d.device_info);
  }
  run.comms.push_back(std::move(comm));
  run.driver = f.results;
  run.driver_only = true;
  return run;
}

}  // namespace npkit
