#include "cli.hpp"

#include <CLI/CLI.hpp>

#include <exception>
#include <new>

#include "commands/command.hpp"
#include "commands/gate_commands.hpp"
#include "npkit/version.hpp"
#include "usage_errors.hpp"
#include "util/terminal_text.hpp"

namespace npkit::cli {

int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  try {
    CliContext context{out, err, std::nullopt};
    CLI::App app{
        "npkit-analyze — see inside NCCL collectives: NPKit dumps, NCCL profiler "
        "captures (.npkt), Chrome traces, NCCL Inspector logs, nccl-tests results",
        "npkit-analyze"};
    app.set_version_flag("--version", "npkit-analyze " NPKIT_VERSION_STRING);
    app.require_subcommand(1);
    register_info(app, context);
    register_report(app, context);
    register_bandwidth(app, context);
    register_trace(app, context);
    register_summarize(app, context);
    register_diff(app, context);
    register_compare(app, context);
    register_hang(app, context);
    register_instances(app, context);
    if (auto unknown = unknown_command(app, args)) {
      err << "npkit-analyze: error: " << *unknown << "\n";
      return 2;
    }
    std::vector<std::string> reversed(args.rbegin(), args.rend() - (args.empty() ? 0 : 1));
    try {
      app.parse(reversed);
    } catch (const CLI::Success& e) {  // --help, --version
      return app.exit(e, out, err);
    } catch (const CLI::ParseError& e) {
      err << "npkit-analyze: error: " << parse_error_message(app, e) << "\n";
      return 2;
    }
    if (!context.outcome) return 0;
    if (!context.outcome->ok()) {
      err << "npkit-analyze: error: " << terminal_safe(context.outcome->error().message) << "\n";
      return 2;
    }
    return context.outcome->value();
  } catch (const std::bad_alloc&) {
    // The readers name the file they were reading (util/out_of_memory.hpp); past them, the
    // analysis of what they read outgrew the memory the process may use.
    err << "npkit-analyze: error: out of memory analyzing the input (the process may use less "
           "memory than the analysis needs: ulimit -v, a container's limit)\n";
    return 2;
  } catch (const std::exception& e) {
    err << "npkit-analyze: error: internal error (a bug: please report it): "
        << terminal_safe(e.what()) << "\n";
    return 2;
  }
}

}  // namespace npkit::cli
