#include "commands/json_input.hpp"

#include <string_view>
#include <vector>

#include "commands/json_profiler_commands.hpp"
#include "commands/json_span_commands.hpp"
#include "import/chrome_json/trace_producer.hpp"
#include "run/nccl_tests_convention.hpp"
#include "util/file_io.hpp"

namespace npkit::cli {
namespace {

using Files = std::vector<std::string>;

constexpr std::string_view kJsonExtension = ".json";

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() > suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool is_npkit_event_file(std::string_view name) {
  return name.rfind("gpu_events_rank_", 0) == 0 || name.rfind("cpu_events_rank_", 0) == 0;
}

// The JSON files of PATH: the file itself, or the *.json files of a directory in name order.
Result<std::vector<std::string>> json_files(const std::string& path) {
  if (!io::is_directory(path)) return std::vector<std::string>{path};
  auto entries = io::list_directory(path);
  if (!entries) return entries.error();
  std::vector<std::string> files;
  for (const auto& e : *entries) {
    if (e.regular && ends_with(e.name, kJsonExtension))
      files.push_back(io::join_path(path, e.name));
  }
  if (files.empty()) return Error{path + ": no *.json file in the directory"};
  return files;
}

enum class Shape { kSpans, kProfiler };

Result<Shape> shape_of(const std::vector<std::string>& files) {
  auto identity = ingest::identify_trace(files.front());
  if (!identity) return identity.error();
  const auto p = identity->producer;
  return p == ingest::TraceProducer::kNcclExample || p == ingest::TraceProducer::kOwnProfiler
             ? Shape::kProfiler
             : Shape::kSpans;
}

// Runs the command for the trace's shape on its files.
template <typename SpanRun, typename ProfilerRun>
Result<int> dispatch(const CommonOptions& o, SpanRun span_run, ProfilerRun profiler_run) {
  auto files = json_files(o.path);
  if (!files) return files.error();
  auto shape = shape_of(*files);
  if (!shape) return shape.error();
  return *shape == Shape::kProfiler ? profiler_run(*files) : span_run(*files);
}

}  // namespace

bool is_json_input(const std::string& path) {
  if (!io::is_directory(path)) {
    return ends_with(path, kJsonExtension) && io::path_exists(path) && !io::is_special_file(path);
  }
  auto entries = io::list_directory(path);
  if (!entries) return false;
  bool json = false;
  for (const auto& e : *entries) {
    if (is_npkit_event_file(e.name)) return false;
    json = json || (e.regular && ends_with(e.name, kJsonExtension));
  }
  return json;
}

Result<int> run_json_info(const CommonOptions& o, CliContext& context) {
  return dispatch(
      o, [&](const Files& files) { return run_json_span_info(o, files, context); },
      [&](const Files& files) { return run_json_profiler_info(o, files, context); });
}

Result<int> run_json_trace(const CommonOptions& o, CliContext& context) {
  return dispatch(
      o, [&](const Files& files) { return run_json_span_trace(o, files, context); },
      [&](const Files& files) { return run_json_profiler_trace(o, files, context); });
}

}  // namespace npkit::cli
