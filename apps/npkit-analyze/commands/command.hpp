// command.hpp — what every subcommand shares: options, loading a dump, writing results.
// Contract: each subcommand file registers itself with register_<name>(app, context); its
// callback stores the outcome (an exit code or an Error) in context.outcome. Loading applies
// --event-table, --phase-map, --cpu-record-size and --ranks uniformly; output goes to -o FILE or
// to the context's stream; warnings are summarised on the error stream unless --quiet.
#pragma once

#include <CLI/CLI.hpp>

#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "ingest/legacy_dump.hpp"
#include "pair/span_reader.hpp"
#include "phases/phase_map.hpp"
#include "render/json_writer.hpp"
#include "render/text_table.hpp"
#include "util/diagnostics.hpp"
#include "util/result.hpp"

namespace npkit::cli {

struct CliContext {
  std::ostream& out;
  std::ostream& err;
  std::optional<Result<int>> outcome;
};

enum class OutputFormat { kTable, kJson, kCsv, kMarkdown, kHtml };

struct CommonOptions {
  std::string path;
  std::string format = "table";
  std::string output;
  std::string ranks = "all";
  bool quiet = false;
  std::string event_table = "auto";
  std::string phase_map;
  unsigned cpu_record_size = 0;
  unsigned threads = 0;  // 0: one per core (at most 8); dumps under 16 MB use one
};

// Adds PATH and the options every analysis command takes. `with_format`: --format
// table|json|csv|md (and html for `report`, commands/html_report.hpp).
void add_common_options(CLI::App& cmd, CommonOptions& options, bool with_format = true);

OutputFormat output_format(const CommonOptions& options);

// Renders `table` as aligned text (kTable), CSV (kCsv) or Markdown (kMarkdown); kJson is a
// caller's error and renders text.
void render_table(const TextTable& table, OutputFormat format, std::string& out);
// A line of prose above or between tables: as is in text; a paragraph of its own in Markdown.
void render_line(const std::string& line, OutputFormat format, std::string& out);

struct LoadedDump {
  LegacyDump dump;
  PhaseAssignment phases;
  SpanReadOptions read;
  Diagnostics diagnostics;
};

// Opens the dump and resolves the phase rules. When standard error is a terminal (and not
// --quiet), reading reports its progress there.
Result<LoadedDump> load_dump(const CommonOptions& options, CliContext& context);

// How many threads read the dump: --threads, else one per core (at most 8), one below 16 MB.
unsigned reader_threads(const LoadedDump& loaded, const CommonOptions& options);

// Reads the dump on reader_threads() threads, one sink each (made by `make_sink`), and merges
// the sinks in track order into the first, so the result does not depend on timing.
template <typename Sink, typename MakeSink>
Result<Sink> read_merged(LoadedDump& loaded, const CommonOptions& options, MakeSink make_sink) {
  const unsigned n = reader_threads(loaded, options);
  std::vector<std::unique_ptr<Sink>> sinks;
  std::vector<SpanSink*> raw;
  for (unsigned i = 0; i < n; ++i) {
    sinks.push_back(std::make_unique<Sink>(make_sink()));
    raw.push_back(sinks.back().get());
  }
  NPKIT_TRY(
      read_legacy_spans_parallel(loaded.dump, loaded.phases, loaded.read, raw, loaded.diagnostics));
  for (unsigned i = 1; i < n; ++i) sinks[0]->merge(std::move(*sinks[i]));
  return std::move(*sinks[0]);
}

// Writes `text` to -o FILE (replacing it) or to the context's output stream.
Status write_output(const CommonOptions& options, const std::string& text, CliContext& context);

// Prints the warning summary to the error stream (nothing with --quiet or no warnings).
void print_warnings(const Diagnostics& diagnostics, const CommonOptions& options,
                    CliContext& context);

// Writes "warnings": [{category, count, examples}] into the open JSON object.
void write_warnings_json(JsonWriter& w, const Diagnostics& diagnostics);

// Durations in text tables: milliseconds when the largest value shown is at least 10 ms, else
// microseconds; three decimals.
struct TimeScale {
  double ns_per_unit = 1e6;
  const char* unit = "ms";
  std::string operator()(double ns) const;
  std::string header(const std::string& what) const { return what + " (" + unit + ")"; }
};
TimeScale time_scale_for(std::int64_t max_ns);

// Epoch nanoseconds after 2001 as "YYYY-MM-DD HH:MM:SS.nnnnnnnnn UTC"; smaller values as seconds
// of a boot-relative steady clock.
std::string describe_time(std::int64_t ns);

std::string us(double ns);
std::string percent(double fraction);

void register_info(CLI::App& app, CliContext& context);
void register_report(CLI::App& app, CliContext& context);
void register_bandwidth(CLI::App& app, CliContext& context);
void register_trace(CLI::App& app, CliContext& context);
}  // namespace npkit::cli
