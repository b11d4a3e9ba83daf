// `npkit-analyze bandwidth PATH --coll allreduce`: nccl-tests-style table per collective and
// size, and span durations/bandwidths per event type and size bucket.
#include <fmt/format.h>

#include <memory>

#include "analysis/bandwidth/collective_bandwidth.hpp"
#include "analysis/bandwidth/span_bandwidth.hpp"
#include "commands/command.hpp"
#include "commands/json_input.hpp"
#include "commands/npkt_input.hpp"
#include "commands/span_bandwidth_output.hpp"
#include "output/text_table.hpp"
#include "run/nccl_tests_convention.hpp"

namespace npkit::cli {
namespace {

struct BandwidthOptions {
  CommonOptions common;
  std::string coll = "all";
  std::string view = "auto";
  bool per_rank = false;
};

Result<int> run_bandwidth(const BandwidthOptions& o, CliContext& context) {
  if (is_npkt_input(o.common.path)) return run_npkt_bandwidth(o.common, o.coll, context);
  if (is_json_input(o.common.path))
    return run_json_bandwidth(o.common, o.coll, o.view, o.per_rank, context);
  if (!valid_coll_option(o.coll)) {
    return Error{"--coll '" + o.coll + "': expected one of " + coll_option_list()};
  }
  auto loaded = load_dump(o.common, context);
  if (!loaded) return loaded.error();
  const auto nranks = static_cast<std::uint32_t>(loaded->dump.layout.ranks.size());
  auto merged = read_merged<SpanBandwidthSinks>(*loaded, o.common, [&] {
    return SpanBandwidthSinks(loaded->phases, loaded->dump.table.base_names(), o.coll);
  });
  if (!merged) return merged.error();
  const SpanBandwidthView view{o.common.path, o.coll, o.view, o.per_rank, nranks};
  std::string text;
  write_span_bandwidth(view, merged->collectives.summarise(nranks), merged->spans.summarise(),
                       loaded->diagnostics, output_format(o.common), text);
  NPKIT_TRY(write_output(o.common, text, context));
  print_warnings(loaded->diagnostics, o.common, context);
  return 0;
}

}  // namespace

void register_bandwidth(CLI::App& app, CliContext& context) {
  auto options = std::make_shared<BandwidthOptions>();
  CLI::App* cmd =
      app.add_subcommand("bandwidth",
                         "Time, algbw and busbw per collective and size; span bandwidth "
                         "per event type and size bucket");
  add_common_options(*cmd, options->common);
  cmd->add_option(
         "--coll", options->coll,
         "Collective: all, allreduce, allgather, reducescatter, alltoall, broadcast, sendrecv "
         "(.npkt dumps: also reduce)")
      ->capture_default_str();
  cmd->add_option("--view", options->view,
                  "What to show: auto (both; CSV: collectives if any), collectives, events")
      ->check(CLI::IsMember({"auto", "collectives", "events"}))
      ->capture_default_str();
  cmd->add_flag("--per-rank", options->per_rank, "Also list event rows per rank in the text table");
  cmd->callback([options, &context] { context.outcome = run_bandwidth(*options, context); });
}

}  // namespace npkit::cli
