// `npkit-analyze trace PATH -o FILE`: a Chrome Trace Event JSON for Perfetto / chrome://tracing.
#include <fmt/format.h>

#include <cstdio>
#include <memory>

#include "commands/command.hpp"
#include "render/chrome_trace_writer.hpp"

namespace npkit::cli {
namespace {

class FileCloser {
 public:
  explicit FileCloser(std::FILE* f) : f_(f) {}
  ~FileCloser() {
    if (f_ != nullptr && f_ != stdout) std::fclose(f_);
  }
  void release() { f_ = nullptr; }
  FileCloser(const FileCloser&) = delete;
  FileCloser& operator=(const FileCloser&) = delete;

 private:
  std::FILE* f_;
};

Result<int> run_trace(const CommonOptions& o, CliContext& context) {
  auto loaded = load_dump(o);
  if (!loaded) return loaded.error();
  // Pass 1: the time origins (cheap: decoding runs at hundreds of millions of records/s).
  TraceOriginSink origins;
  Diagnostics first_pass;
  NPKIT_TRY(read_legacy_spans(loaded->dump, loaded->phases, loaded->read, origins, first_pass));

  const bool to_stdout = o.output.empty() || o.output == "-";
  const std::string tmp = o.output + ".tmp";
  std::FILE* f = to_stdout ? stdout : std::fopen(tmp.c_str(), "wb");
  if (f == nullptr) return Error{"cannot write " + o.output + ": cannot create " + tmp};
  FileCloser closer(f);
  if (to_stdout) context.out.flush();

  TraceMetadata meta;
  meta.source = o.path;
  meta.event_table = loaded->dump.table.label();
  meta.gpu_clock =
      "GPU ticks converted through TIME_SYNC_CPU/GPU pairs per kernel launch (integer ns)";
  ChromeTraceWriter writer(f, loaded->dump.table, loaded->phases, origins.origins(), meta);
  NPKIT_TRY(
      read_legacy_spans(loaded->dump, loaded->phases, loaded->read, writer, loaded->diagnostics));
  const Status done = writer.finish(to_stdout ? "standard output" : o.output);
  if (!done) {
    if (!to_stdout) std::remove(tmp.c_str());
    return done.error();
  }
  if (!to_stdout) {
    closer.release();
    if (std::fclose(f) != 0) return Error{"cannot write " + o.output};
    if (std::rename(tmp.c_str(), o.output.c_str()) != 0)
      return Error{"cannot write " + o.output + ": rename failed"};
    if (!o.quiet)
      context.err << fmt::format("wrote {} events to {}\n", writer.events_written(), o.output);
  }
  print_warnings(loaded->diagnostics, o, context);
  return 0;
}

}  // namespace

void register_trace(CLI::App& app, CliContext& context) {
  auto options = std::make_shared<CommonOptions>();
  CLI::App* cmd = app.add_subcommand("trace",
                                     "Chrome/Perfetto trace JSON: ranks as processes, buffers and "
                                     "channels as threads, spans as complete events");
  add_common_options(*cmd, *options, /*with_format=*/false);
  cmd->callback([options, &context] { context.outcome = run_trace(*options, context); });
}

}  // namespace npkit::cli
