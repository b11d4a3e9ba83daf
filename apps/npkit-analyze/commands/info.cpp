// `npkit-analyze info PATH`: what an input holds, in one shape for every input kind
// (output/info/info_output.hpp).
#include <memory>

#include "analysis/inventory/dump_inventory.hpp"
#include "commands/command.hpp"
#include "output/info/info_output.hpp"

namespace npkit::cli {
namespace {

Result<int> run_info(const CommonOptions& o, CliContext& context) {
  NPKIT_ASSIGN(auto input, open_input(o, context));
  RunInput& in = *input;
  Run run;
  NPKIT_ASSIGN(auto spans,
               read_run<InventorySink>(in, run, [&] { return InventorySink(in.span_names()); }));
  std::string text;
  switch (output_format(o)) {
    case OutputFormat::kJson:
      write_info_json(o.path, run, spans, in.diagnostics(), text);
      break;
    case OutputFormat::kCsv:
      render_info_csv(run, spans, text);
      break;
    case OutputFormat::kTable:
    case OutputFormat::kMarkdown:
    case OutputFormat::kHtml:
      render_info(o.path, run, spans, output_format(o), text);
      break;
  }
  NPKIT_TRY(write_output(o, text, context));
  print_warnings(in.diagnostics(), o, context);
  return 0;
}

}  // namespace

void register_info(CLI::App& app, CliContext& context) {
  auto options = std::make_shared<CommonOptions>();
  CLI::App* cmd = app.add_subcommand(
      "info", "What an input holds: format, files, communicators, ranks, records, pairs, clocks");
  add_common_options(*cmd, *options);
  cmd->callback([options, &context] { context.outcome = run_info(*options, context); });
}

}  // namespace npkit::cli
