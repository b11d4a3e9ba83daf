// `npkit-analyze hang PATH`: where a capture stopped — per communicator, the first operation not
// every rank completed and each rank's state in it (analysis/hang/stall.hpp). Exit 0 when nothing
// is stuck, 1 when a stall is found, 2 on bad input or an input that does not record operations
// as ranks enqueue them, 3 when it cannot tell (ranks without data, completion not recorded).
#include <memory>

#include "analysis/hang/fr_hang.hpp"
#include "analysis/hang/stall.hpp"
#include "commands/command.hpp"
#include "output/fr_hang_output.hpp"
#include "output/hang_output.hpp"

namespace npkit::cli {
namespace {

constexpr const char* kWhat =
    ".npkt captures of NCCL profiler events and PyTorch Flight Recorder dumps";

constexpr int kExitStalled = 1;
constexpr int kExitCannotTell = 3;

// Why the run cannot be judged: a plugin capture whose NPKIT_EVENTS lacks coll (no Coll/P2p
// events) is named as such; any other input is not a capture of profiler events.
std::string not_judged(const CommonOptions& o, const Run& run) {
  const std::string head = o.path + ": cannot tell where the run stopped: ";
  const auto events = run.config.capture.find("capture.events");
  if (run.kind == InputKind::kNpkt && events != run.config.capture.end() &&
      !events->second.empty()) {
    return head +
           "the capture holds no Coll/P2p events, which say what each rank enqueued: it was "
           "made with NPKIT_EVENTS=" +
           *events->second.begin() + ", which lacks coll; capture with NPKIT_EVENTS=coll or more";
  }
  return head +
         "hang needs a .npkt capture of NCCL profiler events (operations recorded as ranks "
         "enqueue them) or PyTorch Flight Recorder dumps; this input is neither";
}

// The npkit-analyze.hang JSON document: schema, input, what `body` writes, the warnings.
template <typename Body>
std::string hang_json(const CommonOptions& o, RunInput& in, const Body& body) {
  std::string text;
  JsonWriter w(text);
  w.begin_object();
  w.field("schema", "npkit-analyze.hang");
  w.field("schema_version", 1);
  w.field("input", o.path);
  body(w);
  write_warnings_json(w, in.diagnostics());
  w.end_object();
  return text + "\n";
}

// Flight Recorder dumps alone: fr_trace's verdict per process group (analysis/hang/fr_hang.hpp).
Result<int> flight_recorder_hang(const CommonOptions& o, const Run& run, RunInput& in,
                                 CliContext& context) {
  const FrHangAnalysis hang = analyze_fr_hang(run.flight_recorder);
  const OutputFormat format = output_format(o);
  std::string text = format == OutputFormat::kJson
                         ? hang_json(o, in, [&](JsonWriter& w) { write_fr_hang_json(hang, w); })
                         : std::string();
  if (format != OutputFormat::kJson) append_fr_hang_text(hang, format, text);
  NPKIT_TRY(write_output(o, text, context));
  print_warnings(in.diagnostics(), o, context);
  if (hang.cannot_tell()) return kExitCannotTell;
  return hang.stalled() ? kExitStalled : 0;
}

Result<int> run_hang(const CommonOptions& o, CliContext& context) {
  if (auto refused = refused_option_error(o, "hang", kWhat)) return *refused;
  // A killed job leaves files cut anywhere: hang reads as with --skip-bad (a warning names each
  // unreadable file, its rank shows absent), so one bad file never hides where the others stopped.
  CommonOptions tolerant = o;
  tolerant.skip_bad = true;
  NPKIT_ASSIGN(auto input, open_input(tolerant, context));
  RunInput& in = *input;
  Run run;
  NPKIT_TRY(read_run<IgnoreSpans>(in, run, [] { return IgnoreSpans{}; }));  // spans play no part
  if (run.kind == InputKind::kFlightRecorder) return flight_recorder_hang(o, run, in, context);
  const HangAnalysis hang = analyze_hang(run);
  if (!hang.judged) return Error{not_judged(o, run)};
  const OutputFormat format = output_format(o);
  std::string text = format == OutputFormat::kJson
                         ? hang_json(o, in, [&](JsonWriter& w) { write_hang_json(hang, w); })
                         : std::string();
  if (format != OutputFormat::kJson) {
    append_hang_text(hang, format, text);
    // Each communicator's section opens with a blank line; the output itself does not.
    if (text.starts_with('\n')) text.erase(0, 1);
  }
  NPKIT_TRY(write_output(o, text, context));
  print_warnings(in.diagnostics(), o, context);
  if (hang.cannot_tell()) return kExitCannotTell;
  return hang.stalled() ? kExitStalled : 0;
}

}  // namespace

void register_hang(CLI::App& app, CliContext& context) {
  auto options = std::make_shared<CommonOptions>();
  CLI::App* cmd = app.add_subcommand(
      "hang",
      "Where a capture stopped: per communicator the first operation not every rank completed, "
      "each rank's state in it; exit 1 when a stall is found, 3 when it cannot tell (ranks "
      "without data, completion not recorded)");
  add_common_options(*cmd, *options, /*with_format=*/true, /*with_dump_options=*/false);
  cmd->get_option("PATH")->description(
      "The capture: .npkt files of the profiler plugin, a file or a directory of them (dumps, "
      "live files *.live.npkt or both), or a directory of PyTorch Flight Recorder dumps; other "
      "inputs are refused: they do not record operations as they start and finish");
  cmd->callback([options, &context] { context.outcome = run_hang(*options, context); });
}

}  // namespace npkit::cli
