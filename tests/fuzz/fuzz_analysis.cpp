// fuzz_analysis.cpp — libFuzzer target: the layer after parsing. The input is a capture of up to
// four .npkt files (and optionally an ENV.txt), written to a per-process scratch directory and
// analysed as `report` and `hang` do: open_run_input on the directory → read_run into the run
// model (events, joins across ranks) → build_run_report (its findings and hang verdict) rendered
// as text, Markdown, CSV and JSON → analyze_hang written as text and JSON.
// Contract: never crashes, hangs or trips a sanitizer on any input. An error names the scratch
// directory or a file in it; every JSON document written parses as JSON; a hang verdict is
// judged exactly when some communicator was judged, and each stalled communicator names its
// operation. Input layout (tests/fuzz/README.md): byte 0 options, then the files, each but the
// last as a u32 LE length and its bytes (cut short at the end of the input), the last taking the
// rest. Seeds: corpus/analysis/seed_* (make_seed_corpus.py: shipped captures of samples/, whole
// or decompressed, and small hand-made ones).
#include <simdjson.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "analysis/diagnose/thresholds.hpp"
#include "analysis/hang/stall.hpp"
#include "analysis/report/run_report.hpp"
#include "import/run_input.hpp"
#include "output/hang_output.hpp"
#include "output/json_writer.hpp"
#include "output/run_report_output.hpp"

namespace {

using namespace npkit;
namespace fs = std::filesystem;

void check(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "fuzz_analysis: contract violated: %s\n", what);
  std::abort();
}

void check_json(const std::string& text, const char* what) {
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  check(parser.parse(text).get(doc) == simdjson::SUCCESS, what);
}

// The scratch directory of this process: dir/capture holds the files, removed when it ends.
const fs::path& scratch() {
  static const fs::path dir = [] {
    char name[] = "/tmp/fuzz_analysis_XXXXXX";
    check(mkdtemp(name) != nullptr, "cannot make a scratch directory");
    std::atexit([] {
      std::error_code ec;
      fs::remove_all(scratch(), ec);
    });
    return fs::path(name);
  }();
  return dir;
}

void write_file(const fs::path& path, const std::uint8_t* data, std::size_t size) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  check(static_cast<bool>(out), "cannot write a scratch file");
}

struct Options {
  unsigned files = 1;     // bits 0-1: 1 to 4 .npkt files
  bool live = false;      // bit 2: the first one is named a live file (*.live.npkt)
  bool skip_bad = false;  // bit 3: --skip-bad
  bool env = false;       // bit 4: one more part, the last, is the run's --env file
  bool by_tag = false;    // bit 5: report --by tag
};

// Writes the capture for `data` into a fresh directory; returns it and the --env file ("none").
fs::path write_capture(const std::uint8_t* data, std::size_t size, const Options& o,
                       std::string& env_file) {
  const fs::path dir = scratch() / "capture";
  std::error_code ec;
  fs::remove_all(dir, ec);
  check(fs::create_directory(dir, ec), "cannot make the capture directory");
  const unsigned parts = o.files + (o.env ? 1 : 0);
  std::size_t at = 0;
  env_file = "none";
  for (unsigned i = 0; i < parts; ++i) {
    std::size_t length = size - at;
    if (i + 1 < parts) {
      std::uint32_t stated = 0;
      for (unsigned b = 0; b < 4 && at < size; ++b, ++at)
        stated |= std::uint32_t{data[at]} << (8 * b);
      length = std::min<std::size_t>(stated, size - at);
    }
    if (o.env && i + 1 == parts) {
      const fs::path env = scratch() / "ENV.txt";
      write_file(env, data + at, length);
      env_file = env.string();
    } else {
      const std::string name = "npkit_00000000000000f0_rank" + std::to_string(i) +
                               (o.live && i == 0 ? ".live.npkt" : ".npkt");
      write_file(dir / name, data + at, length);
    }
    at += length;
  }
  return dir;
}

void check_error(const std::string& message) {
  check(message.find(scratch().string()) != std::string::npos,
        "error names neither the capture nor a file in it");
}

void analyse(const fs::path& dir, const Options& o, const std::string& env_file) {
  ImportOptions options;
  options.path = dir.string();
  options.threads = 1;
  options.skip_bad = o.skip_bad;
  options.env_file = env_file;
  auto opened = open_run_input(options);
  if (!opened) return check_error(opened.error().message);
  RunInput& in = **opened;
  Run run;
  auto sink = read_run<RunReportSink>(
      in, run, [&] { return RunReportSink(in.phases(), in.span_names().size()); });
  if (!sink) return check_error(sink.error().message);

  const RunReport report =
      build_run_report(run, std::move(*sink), in.has_spans(), in.phases(), in.span_names(),
                       Thresholds{}, in.diagnostics(), o.by_tag);
  const ReportInput about{options.path, in.event_table(), &in.phases(), &in.span_names(), false};
  std::string text;
  render_run_report(report, about, OutputFormat::kTable, text);
  render_run_report(report, about, OutputFormat::kMarkdown, text);
  render_run_report_csv(report, text);
  std::string json;
  write_run_report_json(report, about, in.diagnostics(), json);
  check_json(json, "report's JSON does not parse");

  const HangAnalysis hang = analyze_hang(run);
  check(hang.judged == !hang.comms.empty(), "judged without a communicator, or the reverse");
  for (const auto& c : hang.comms) {
    check(c.comm != nullptr, "a judged communicator that is not the run's");
    check(!c.stalled || !c.label.empty(), "a stall that names no operation");
  }
  append_hang_text(hang, OutputFormat::kTable, text);
  std::string hang_json;
  JsonWriter w(hang_json);
  w.begin_object();
  write_hang_json(hang, w);
  write_warnings_json(w, in.diagnostics());
  w.end_object();
  check_json(hang_json, "hang's JSON does not parse");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  Options o;
  o.files = 1 + (data[0] & 3);
  o.live = (data[0] & 4) != 0;
  o.skip_bad = (data[0] & 8) != 0;
  o.env = (data[0] & 16) != 0;
  o.by_tag = (data[0] & 32) != 0;
  std::string env_file;
  const fs::path dir = write_capture(data + 1, size - 1, o, env_file);
  analyse(dir, o, env_file);
  return 0;
}
