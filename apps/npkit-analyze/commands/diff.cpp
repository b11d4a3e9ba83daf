// `npkit-analyze diff BASE CAND`: the CI regression gate. Exit 1 when a row fails under
// --fail-on, 0 otherwise, 2 on bad input.
#include <fmt/format.h>

#include <charconv>
#include <memory>

#include "analysis/diff/run_diff.hpp"
#include "commands/gate_commands.hpp"
#include "output/diff_report.hpp"
#include "output/html/diff_report_model.hpp"
#include "output/html/page.hpp"

namespace npkit::cli {
namespace {

struct DiffOptions {
  CommonOptions common;
  std::string base;
  std::string cand;
  std::string threshold = "5%";
  std::string fail_on = "regression";
};

// "5%", "5" (percent) or "2.5%": a fraction in (0, 10].
Result<double> parse_threshold(const std::string& text) {
  std::string_view s = text;
  if (!s.empty() && s.back() == '%') s.remove_suffix(1);
  double percent = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), percent);
  if (ec != std::errc{} || end != s.data() + s.size() || !(percent > 0) || percent > 1000) {
    return Error{"--threshold '" + text + "': expected a percentage above 0, e.g. 5%"};
  }
  return percent / 100.0;
}

FailOn fail_on_of(const std::string& s) {
  if (s == "any-change") return FailOn::kAnyChange;
  if (s == "never") return FailOn::kNever;
  return FailOn::kRegression;
}

Result<int> run_diff(const DiffOptions& o, CliContext& context) {
  auto threshold = parse_threshold(o.threshold);
  if (!threshold) return threshold.error();
  auto base = load_run(o.base, o.common, context);
  if (!base) return base.error();
  auto cand = load_run(o.cand, o.common, context);
  if (!cand) return cand.error();
  NoiseRule rule;
  rule.min_effect = *threshold;
  const RunDiff diff = diff_runs(*base, *cand, rule);
  const FailOn fail_on = fail_on_of(o.fail_on);
  std::string text;
  if (o.common.format == "json") {
    render_diff_json(diff, fail_on, text);
  } else if (o.common.format == "junit") {
    render_diff_junit(diff, fail_on, text);
  } else if (o.common.format == "html") {
    text = html::render_report_html(html::build_diff_report_model(diff, fail_on));
  } else {
    render_diff_text(diff, fail_on,
                     o.common.format == "md" ? DiffTextStyle::kMarkdown : DiffTextStyle::kText,
                     text);
  }
  NPKIT_TRY(write_output(o.common, text, context));
  return should_fail(diff, fail_on) ? 1 : 0;
}

}  // namespace

void register_diff(CLI::App& app, CliContext& context) {
  auto options = std::make_shared<DiffOptions>();
  auto* cmd = app.add_subcommand(
      "diff",
      "Compare a candidate run with a baseline per (collective, size, algo, proto) and phase; "
      "exit 1 on a regression beyond noise and the threshold");
  cmd->add_option("BASE", options->base, "Baseline: a dump or an npkit-summary file")->required();
  cmd->add_option("CAND", options->cand, "Candidate: a dump or an npkit-summary file")->required();
  cmd->add_option("--threshold", options->threshold,
                  "Smallest change of a median that counts, in percent")
      ->capture_default_str();
  cmd->add_option("--fail-on", options->fail_on,
                  "Exit 1 on: regression, any-change (any row not unchanged) or never")
      ->check(CLI::IsMember({"regression", "any-change", "never"}))
      ->capture_default_str();
  cmd->add_option("--format", options->common.format, "Output format")
      ->check(CLI::IsMember({"table", "json", "md", "junit", "html"}))
      ->capture_default_str();
  cmd->add_option("-o,--output", options->common.output,
                  "Write the result to FILE instead of standard output");
  add_dump_options(*cmd, options->common);
  cmd->callback([options, &context] { context.outcome = run_diff(*options, context); });
}

}  // namespace npkit::cli
