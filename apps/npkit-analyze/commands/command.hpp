// command.hpp — what every subcommand shares: options, loading a dump, writing results.
// Contract: each subcommand file registers itself with register_<name>(app, context); its
// callback stores the outcome (an exit code or an Error) in context.outcome. Loading applies
// --event-table, --phase-map, --cpu-record-size and --ranks uniformly; output goes to -o FILE or
// to the context's stream; warnings are summarised on the error stream unless --quiet.
#pragma once

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "analysis/phases/phase_breakdown.hpp"
#include "import/legacy/legacy_dump.hpp"
#include "import/legacy/span_reader.hpp"
#include "import/run_input.hpp"
#include "output/json_writer.hpp"
#include "output/render.hpp"
#include "output/text_table.hpp"
#include "run/phase_map.hpp"
#include "util/diagnostics.hpp"
#include "util/result.hpp"

namespace npkit::cli {

struct CliContext {
  std::ostream& out;
  std::ostream& err;
  std::optional<Result<int>> outcome;
};

struct CommonOptions {
  std::string path;
  std::string format = "table";
  std::string output;
  std::string ranks = "all";
  bool quiet = false;
  std::string event_table = "auto";
  std::string phase_map;
  unsigned cpu_record_size = 0;
  unsigned threads = 0;   // 0: one per core (at most 8); dumps under 16 MB use one
  bool skip_bad = false;  // a directory of .npkt files: skip unreadable files (a warning each)
};

// Adds PATH and the options every analysis command takes. `with_format`: --format
// table|json|csv|md (and html for `report`, commands/html_report.hpp).
void add_common_options(CLI::App& cmd, CommonOptions& options, bool with_format = true);

OutputFormat output_format(const CommonOptions& options);

// The rules of --phase-map FILE (none without the option); an unreadable or malformed file is an
// Error naming it and the line.
Result<PhaseMap> read_user_phase_map(const CommonOptions& options);

struct LoadedDump {
  LegacyDump dump;
  PhaseAssignment phases;
  SpanReadOptions read;
  Diagnostics diagnostics;
};

// Opens the dump and resolves the phase rules. When standard error is a terminal (and not
// --quiet), reading reports its progress there.
Result<LoadedDump> load_dump(const CommonOptions& options, CliContext& context);

// Opens PATH as a RunInput (import/run_input.hpp) with the common options; reading reports its
// progress on standard error when that is a terminal (and not --quiet).
Result<std::unique_ptr<RunInput>> open_input(const CommonOptions& options, CliContext& context);

// How many threads read the dump: --threads, else one per core (at most 8), one below 16 MB.
unsigned reader_threads(const LoadedDump& loaded, const CommonOptions& options);

// Where the span analyses (the phase split of `report`, ...) get their spans: the record streams
// of a legacy NPKit dump, or the event records of .npkt files. read() feeds `sinks` (one per
// reader thread, threads() of them) in an order that does not depend on timing; merging them in
// order gives the same result for any thread count.
class SpanSource {
 public:
  virtual ~SpanSource() = default;
  virtual const PhaseAssignment& phases() const = 0;
  virtual unsigned threads(const CommonOptions& options) const = 0;
  virtual Status read(const std::vector<SpanSink*>& sinks, Diagnostics& diagnostics) const = 0;
};

// A legacy dump's tracks, read on reader_threads() threads (import/legacy/span_reader.hpp).
class LegacySpanSource : public SpanSource {
 public:
  explicit LegacySpanSource(const LoadedDump& loaded) : loaded_(loaded) {}
  const PhaseAssignment& phases() const override { return loaded_.phases; }
  unsigned threads(const CommonOptions& options) const override;
  Status read(const std::vector<SpanSink*>& sinks, Diagnostics& diagnostics) const override;

 private:
  const LoadedDump& loaded_;
};

// Reads `source` into source.threads() sinks (made by `make_sink`) and merges them in order into
// the first, so the result does not depend on timing.
template <typename Sink, typename MakeSink>
Result<Sink> read_merged(const SpanSource& source, const CommonOptions& options,
                         Diagnostics& diagnostics, MakeSink make_sink) {
  const unsigned n = std::max(1u, source.threads(options));
  std::vector<std::unique_ptr<Sink>> sinks;
  std::vector<SpanSink*> raw;
  for (unsigned i = 0; i < n; ++i) {
    sinks.push_back(std::make_unique<Sink>(make_sink()));
    raw.push_back(sinks.back().get());
  }
  NPKIT_TRY(source.read(raw, diagnostics));
  for (unsigned i = 1; i < n; ++i) sinks[0]->merge(std::move(*sinks[i]));
  return std::move(*sinks[0]);
}

// The same for a legacy dump, its warnings into loaded.diagnostics.
template <typename Sink, typename MakeSink>
Result<Sink> read_merged(LoadedDump& loaded, const CommonOptions& options, MakeSink make_sink) {
  return read_merged<Sink>(LegacySpanSource(loaded), options, loaded.diagnostics, make_sink);
}

// Writes `text` to -o FILE (replacing it) or to the context's output stream.
Status write_output(const CommonOptions& options, const std::string& text, CliContext& context);

// Streams a large output (a trace) to -o FILE or to the context's output stream: `write(out,
// name)` writes all of it to `out`, naming the destination `name` in its messages, and returns
// how many events it wrote. A file is written beside the target (FILE.tmp) and renamed over it
// only when every write succeeded, so a failed run never leaves a half file; devices and pipes
// are written in place. Then "wrote N events to FILE" on the error stream, unless --quiet.
using TraceOutputWriter =
    std::function<Result<std::uint64_t>(std::ostream& out, const std::string& name)>;
Status write_trace_output(const CommonOptions& options, CliContext& context,
                          const TraceOutputWriter& write);

// Prints the warning summary to the error stream (nothing with --quiet or no warnings).
void print_warnings(const Diagnostics& diagnostics, const CommonOptions& options,
                    CliContext& context);

void register_info(CLI::App& app, CliContext& context);
void register_report(CLI::App& app, CliContext& context);
void register_bandwidth(CLI::App& app, CliContext& context);
void register_trace(CLI::App& app, CliContext& context);
}  // namespace npkit::cli
