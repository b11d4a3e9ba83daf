#include "import/run_input.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <filesystem>
#include <optional>
#include <string_view>

#include "import/chrome_json/chrome_input.hpp"
#include "import/flight_recorder/fr_file.hpp"
#include "import/flight_recorder/fr_input.hpp"
#include "import/inspector/inspector_input.hpp"
#include "import/legacy/legacy_input.hpp"
#include "import/nccl_tests/nccl_tests_input.hpp"
#include "import/npkt/npkt_directory.hpp"
#include "import/npkt/npkt_input.hpp"
#include "import/summary/summary_json_reader.hpp"
#include "run/time_quality.hpp"
#include "util/file_io.hpp"

namespace npkit {
namespace {

constexpr std::size_t kSummarySniffBytes = 64;

bool is_nccl_tests_file(const std::string& path) {
  std::vector<std::uint8_t> prefix;
  if (!io::read_prefix_into(path, kSummarySniffBytes, prefix)) return false;
  return looks_like_nccl_tests(
      std::string_view(reinterpret_cast<const char*>(prefix.data()), prefix.size()));
}

const char* kind_name(DetectedKind kind) {
  switch (kind) {
    case DetectedKind::kLegacyDump:
      return "NPKit event files";
    case DetectedKind::kNpkt:
      return ".npkt files";
    case DetectedKind::kChromeTrace:
      return "*.json traces";
    case DetectedKind::kSummary:
      return "a summary";
    case DetectedKind::kNcclTests:
      return "nccl-tests results";
    case DetectedKind::kInspector:
      return "NCCL Inspector logs";
    case DetectedKind::kFlightRecorder:
      return "PyTorch Flight Recorder dumps";
  }
  return "";
}

// An Inspector's log stays empty until it logs its first operation (NCCL Inspector input,
// docs/cli.md); the legacy reader's "not a dump" would not tell a user so.
// `what`: "an empty file" or "holds only empty files (NAMES)".
std::string empty_logs_message(const std::string& path, const std::string& what) {
  return fmt::format(
      "{}: {}; an NCCL Inspector log stays empty until the Inspector logs an operation: a "
      "collective or P2P operation with GPU kernel timing (KernelCh events), of "
      "NCCL_INSPECTOR_DUMP_MIN_SIZE_BYTES (8192) or more, written by its dump thread "
      "(NCCL_INSPECTOR_DUMP_THREAD_INTERVAL_MICROSECONDS set)",
      path, what);
}

// When every file of the directory `path` (listed as `entries`) is empty and one of them is a
// `*.log`: the message.
std::optional<std::string> only_empty_logs(const std::string& path,
                                           const std::vector<io::DirEntry>& entries) {
  std::vector<std::string> names;
  bool log = false;
  for (const auto& e : entries) {
    if (!e.regular) continue;
    if (e.size != 0) return std::nullopt;
    names.push_back(e.name);
    log = log || io::has_extension(e.name, ".log");
  }
  if (!log) return std::nullopt;
  return empty_logs_message(path,
                            fmt::format("holds only empty files ({})", fmt::join(names, ", ")));
}

// Every input detect_input looks for, for the errors that say none was found.
constexpr std::string_view kInputKinds =
    "legacy NPKit dump files (gpu_events_rank_<R>_buf_<B>, cpu_events_rank_<R>_channel_<C>), "
    ".npkt captures (*.npkt, or files starting with NPKTDUMP), Chrome-trace JSON (*.json: "
    "NPKit's generator, NCCL's example profiler plugin, npkit-analyze trace), nccl-tests results "
    "(-J FILE.json), NCCL Inspector logs, PyTorch Flight Recorder dumps (<prefix><rank>, pickle "
    "or JSON) and npkit summaries";

bool is_event_file_name(std::string_view name) {
  return name.starts_with("gpu_events_rank_") || name.starts_with("cpu_events_rank_");
}

// A file of a directory that is a Flight Recorder dump: named <prefix><rank>, not of another
// kind by its name, and a dump by its content.
bool is_fr_dump(const std::string& dir, const std::string& name) {
  return fr_rank_of_name(name) && !is_event_file_name(name) && !io::has_extension(name, ".npkt") &&
         !io::has_extension(name, ".json") && is_flight_recorder_file(io::join_path(dir, name));
}

bool is_clock_file_name(std::string_view name) {
  for (std::string_view prefix : {"cpu_clock_period_num_rank_", "cpu_clock_period_den_rank_",
                                  "gpu_clock_rate_rank_", "clock_calibration_"}) {
    if (name.starts_with(prefix)) return true;
  }
  return false;
}

// The input kinds the regular files of `dir` hold (names only; JSON files count as traces),
// for the subdirectories of a directory without input.
std::vector<std::string> kinds_in(const std::string& dir) {
  auto entries = io::list_directory(dir);
  if (!entries) return {};
  bool legacy = false;
  bool npkt = false;
  bool json = false;
  bool inspector = false;
  bool fr = false;
  for (const auto& e : *entries) {
    if (!e.regular) continue;
    legacy = legacy || is_event_file_name(e.name);
    npkt = npkt || io::has_extension(e.name, ".npkt");
    json = json || io::has_extension(e.name, ".json");
    const bool dump = is_fr_dump(dir, e.name);
    fr = fr || dump;
    inspector =
        inspector ||
        (!dump && !is_event_file_name(e.name) && !io::has_extension(e.name, ".npkt") &&
         !io::has_extension(e.name, ".json") && is_inspector_log(io::join_path(dir, e.name)));
  }
  std::vector<std::string> kinds;
  if (legacy) kinds.emplace_back(kind_name(DetectedKind::kLegacyDump));
  if (npkt) kinds.emplace_back(kind_name(DetectedKind::kNpkt));
  if (fr) kinds.emplace_back(kind_name(DetectedKind::kFlightRecorder));
  if (json) kinds.emplace_back("*.json files");
  if (inspector) kinds.emplace_back(kind_name(DetectedKind::kInspector));
  return kinds;
}

// "a, b, c" of the first `most` names, "and N more" after them.
std::string some_names(const std::vector<std::string>& names, std::size_t most) {
  std::string out;
  for (std::size_t i = 0; i < names.size() && i < most; ++i) {
    out += (i == 0 ? "" : ", ") + names[i];
  }
  if (names.size() > most) out += fmt::format(" and {} more", names.size() - most);
  return out;
}

// A directory that holds no input: what was looked for and what is there — its files, and the
// subdirectories one level down that hold input (a capture's parent directory).
std::string no_input_message(const std::string& path, const std::vector<io::DirEntry>& entries) {
  constexpr std::size_t kMostNamed = 4;
  std::vector<std::string> files;
  std::vector<std::string> clock_files;
  std::vector<std::string> with_input;
  std::vector<std::string> other_dirs;
  for (const auto& e : entries) {
    const std::string full = io::join_path(path, e.name);
    if (e.regular) {
      (is_clock_file_name(e.name) ? clock_files : files).push_back(e.name);
    } else if (io::is_directory(full)) {
      const auto kinds = kinds_in(full);
      if (kinds.empty()) {
        other_dirs.push_back(e.name + "/");
      } else {
        with_input.push_back(fmt::format("{}/ ({})", e.name, fmt::join(kinds, ", ")));
      }
    }
  }
  std::vector<std::string> found;
  if (!clock_files.empty()) {
    found.push_back(fmt::format("{} NPKit clock file(s) but no event file ({})", clock_files.size(),
                                some_names(clock_files, kMostNamed)));
  }
  if (!files.empty()) {
    found.push_back(
        fmt::format("{} other file(s) ({})", files.size(), some_names(files, kMostNamed)));
  }
  if (!other_dirs.empty()) {
    found.push_back(fmt::format("{} subdirector{} without input ({})", other_dirs.size(),
                                other_dirs.size() == 1 ? "y" : "ies",
                                some_names(other_dirs, kMostNamed)));
  }
  std::string text = fmt::format(
      "{}: no input found; looked for {}; found {}", path, kInputKinds,
      found.empty() && with_input.empty() ? "an empty directory" : some_names(found, found.size()));
  if (!with_input.empty()) {
    text += fmt::format("{}input in {} subdirector{}: {}; give {} as the input",
                        found.empty() ? "" : "; ", with_input.size(),
                        with_input.size() == 1 ? "y" : "ies", some_names(with_input, kMostNamed),
                        with_input.size() == 1 ? "it" : "one of them");
  }
  return text;
}

// What a directory holds, in the order of precedence.
Result<DetectedInput> detect_directory(const std::string& path) {
  NPKIT_ASSIGN(auto entries, io::list_directory(path));
  bool legacy = false;
  bool npkt = false;
  bool json = false;
  bool inspector = false;
  bool fr = false;
  std::vector<std::string> results_files;
  std::vector<std::string> untrusted;
  for (const auto& e : entries) {
    if (!e.untrusted.empty()) {
      untrusted.push_back(io::join_path(path, e.name) + ": " + e.untrusted + "; not read");
    }
    if (!e.regular) continue;
    const bool is_json = io::has_extension(e.name, ".json");
    const bool is_npkt = is_npkt_file_name(e.name);
    if (is_json && is_nccl_tests_file(path + "/" + e.name)) results_files.push_back(e.name);
    const bool events =
        e.name.rfind("gpu_events_rank_", 0) == 0 || e.name.rfind("cpu_events_rank_", 0) == 0;
    legacy = legacy || events;
    npkt = npkt || is_npkt;
    json = json || is_json;
    // Flight Recorder dumps and Inspector logs are known by their content (files of the other
    // kinds are not opened).
    const bool dump = !events && !is_npkt && is_fr_dump(path, e.name);
    fr = fr || dump;
    inspector = inspector || (!dump && !events && !is_npkt && !is_json &&
                              is_inspector_log(io::join_path(path, e.name)));
  }
  if (!legacy && !npkt && !json && !inspector && !fr) {
    if (auto empty_logs = only_empty_logs(path, entries)) return Error{*empty_logs};
    return Error{no_input_message(path, entries)};
  }
  DetectedInput d;
  std::vector<DetectedKind> present;
  if (legacy) present.push_back(DetectedKind::kLegacyDump);
  if (npkt) present.push_back(DetectedKind::kNpkt);
  if (fr) present.push_back(DetectedKind::kFlightRecorder);
  if (json) present.push_back(DetectedKind::kChromeTrace);
  if (inspector) present.push_back(DetectedKind::kInspector);
  d.kind = present.front();
  if (d.kind == DetectedKind::kChromeTrace && !results_files.empty()) {
    return Error{
        fmt::format("{}: holds nccl-tests results ({}): give one results file as the "
                    "input (summarize and compare take several)",
                    path, fmt::join(results_files, ", "))};
  }
  for (std::size_t i = 1; i < present.size(); ++i) d.ignored.push_back(kind_name(present[i]));
  d.untrusted = std::move(untrusted);
  d.listing = std::move(entries);
  return d;
}

}  // namespace

Result<DetectedInput> detect_input(const std::string& path) {
  if (!io::path_exists(path)) return Error{path + ": " + io::unreachable_reason(path)};
  if (io::is_directory(path)) return detect_directory(path);
  DetectedInput d;
  if (is_npkt_path(path)) {
    d.kind = DetectedKind::kNpkt;
  } else if (is_summary_file(path)) {
    d.kind = DetectedKind::kSummary;
  } else if (!io::is_special_file(path) && is_nccl_tests_file(path)) {
    d.kind = DetectedKind::kNcclTests;
  } else if (!io::is_special_file(path) && is_inspector_log(path)) {
    d.kind = DetectedKind::kInspector;
  } else if (io::has_extension(path, ".log") && io::is_empty_file(path)) {
    return Error{empty_logs_message(path, "an empty file")};
  } else if (!io::is_special_file(path) && io::has_extension(path, ".json")) {
    d.kind = DetectedKind::kChromeTrace;
  } else if (const std::filesystem::path file(path); is_event_file_name(file.filename().string())) {
    const std::string dir = file.has_parent_path() ? file.parent_path().string() : ".";
    return Error{fmt::format(
        "{}: an NPKit event file: the input is the dump directory that holds it ({})", path, dir)};
  } else if (!io::is_special_file(path) &&
             fr_rank_of_name(std::filesystem::path(path).filename().string()) &&
             is_flight_recorder_file(path)) {
    const std::filesystem::path file(path);
    const std::string dir = file.has_parent_path() ? file.parent_path().string() : ".";
    return Error{fmt::format(
        "{}: a PyTorch Flight Recorder dump: the input is the directory that holds every rank's "
        "dump ({})",
        path, dir)};
  } else if (!io::is_special_file(path)) {
    return Error{fmt::format("{}: not an input; looked for {}", path, kInputKinds)};
  } else {
    d.kind = DetectedKind::kLegacyDump;  // its reader says why a file is not a dump
  }
  return d;
}

Result<PhaseMap> read_phase_map_file(const std::string& path) {
  if (path.empty()) return PhaseMap{};
  NPKIT_ASSIGN(auto text, io::read_text_file(path, 1 << 20));
  return PhaseMap::parse(text, path);
}

std::vector<InputFact> RunInput::facts() const {
  std::vector<InputFact> out = input_facts();
  if (environment_) {
    out.push_back({"environment", fmt::format("{} ({} NCCL_*/NPKIT_* variable(s))",
                                              environment_->path, environment_->variables.size())});
  }
  return out;
}

Result<Run> RunInput::read(const std::vector<SpanSink*>& sinks) {
  auto run = read_input(sinks);
  if (!run) return run;
  run->label = label_;
  run->facts = facts();
  run->details = details();
  run->has_spans = has_spans();
  assess_time_quality(*run);
  if (environment_) {
    for (auto& conflict : apply_environment(*environment_, run->config)) {
      diagnostics_.warn("environment file", std::move(conflict));
    }
  }
  return run;
}

Status RunInput::read_span_chunks(const SpanChunks& /*chunks*/,
                                  Diagnostics& /*diagnostics*/) const {
  return Error{"this input streams its spans through one reader only, not in chunks"};
}

void RunInput::set_environment(std::optional<EnvironmentFile> file, std::string label) {
  environment_ = std::move(file);
  label_ = std::move(label);
}

namespace {

// The environment file of ImportOptions::env_file (contract in the header); the files found but
// not trusted are warned of in `diagnostics`.
Result<std::optional<EnvironmentFile>> environment_of(const ImportOptions& options,
                                                      Diagnostics& diagnostics) {
  if (options.env_file == "none") return std::optional<EnvironmentFile>{};
  std::vector<std::string> ignored;
  const std::string path =
      options.env_file.empty() ? find_environment_file(options.path, &ignored) : options.env_file;
  for (auto& note : ignored) diagnostics.warn("environment file ignored", std::move(note));
  if (path.empty()) return std::optional<EnvironmentFile>{};
  NPKIT_ASSIGN(auto file, read_environment_file(path));
  return std::optional<EnvironmentFile>(std::move(file));
}

}  // namespace

Result<std::unique_ptr<RunInput>> open_run_input(const ImportOptions& given) {
  ImportOptions options = given;
  if (!options.detected) {
    // A legacy dump's layout reuses the listing.
    NPKIT_ASSIGN(options.detected, detect_input(options.path));
  }
  const DetectedInput& detected = *options.detected;
  NPKIT_ASSIGN(auto user, read_phase_map_file(options.phase_map));
  if (options.nranks != 0 && detected.kind != DetectedKind::kLegacyDump) {
    return Error{
        fmt::format("--nranks {}: {} records its communicators' sizes; --nranks applies "
                    "to legacy NPKit dumps, which do not",
                    options.nranks, options.path)};
  }
  if (options.run > 1 && detected.kind != DetectedKind::kNpkt) {
    return Error{
        fmt::format("--run {}: {} holds {}, read as one run; --run picks one of the runs "
                    "of .npkt captures",
                    options.run, options.path, kind_name(detected.kind))};
  }
  std::unique_ptr<RunInput> input;
  switch (detected.kind) {
    case DetectedKind::kSummary:
      return Error{options.path +
                   " is an npkit summary: diff or compare it with another run, or draw it with "
                   "report --format html"};
    case DetectedKind::kLegacyDump: {
      NPKIT_ASSIGN(input, LegacyInput::open(options, user));
      break;
    }
    case DetectedKind::kNcclTests: {
      NPKIT_ASSIGN(input, NcclTestsInput::open(options));
      break;
    }
    case DetectedKind::kNpkt: {
      NPKIT_ASSIGN(input, NpktInput::open(options, user));
      break;
    }
    case DetectedKind::kChromeTrace: {
      NPKIT_ASSIGN(auto files, chrome_trace_files(options.path));
      NPKIT_ASSIGN(auto profiler, is_profiler_trace(files));
      if (profiler) {
        NPKIT_ASSIGN(input, ChromeProfilerInput::open(options, files, user));
      } else {
        NPKIT_ASSIGN(input, ChromeSpanInput::open(options, files, user));
      }
      break;
    }
    case DetectedKind::kInspector: {
      NPKIT_ASSIGN(input, InspectorInput::open(options));
      break;
    }
    case DetectedKind::kFlightRecorder: {
      NPKIT_ASSIGN(input, FlightRecorderInput::open(options));
      break;
    }
  }
  for (const auto& note : detected.untrusted) {
    input->diagnostics().warn("untrusted file skipped", note);
  }
  for (const auto& what : detected.ignored) {
    input->diagnostics().warn("ignored files",
                              options.path + ": also holds " + what + ", which were not read");
  }
  NPKIT_ASSIGN(auto environment, environment_of(options, input->diagnostics()));
  input->set_environment(std::move(environment), options.label);
  return input;
}

}  // namespace npkit
