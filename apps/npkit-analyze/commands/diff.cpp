// `npkit-analyze diff BASE CAND`: the CI regression gate. Exit 1 when a row's verdict is one
// --fail-on names, the candidate lacks data the baseline has (unless --allow-missing), or no row
// was tested (unless --allow-empty); 0 otherwise; 2 on bad usage or input.
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
  RunNaming naming;
  std::string base;
  std::string cand;
  std::string threshold = "5%";
  std::string fail_on = "regression";
  bool allow_missing = false;
  bool allow_empty = false;
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

// "regression,inconclusive", "any-change", "never"; missing data fails too unless
// --allow-missing or never.
Result<FailOn> parse_fail_on(const std::string& text, bool allow_missing) {
  FailOn f;
  bool never = false;
  std::string_view rest = text;
  while (true) {
    const std::size_t comma = rest.find(',');
    const std::string_view word = rest.substr(0, comma);
    if (word == "regression") {
      f = f.with(Verdict::kRegression);
    } else if (word == "improvement") {
      f = f.with(Verdict::kImprovement);
    } else if (word == "inconclusive") {
      f = f.with(Verdict::kInconclusive);
    } else if (word == "missing") {
      f = f.with(Verdict::kMissing);
    } else if (word == "not-comparable") {
      f = f.with(Verdict::kNotComparable);
    } else if (word == "any-change") {
      f = FailOn::any_change();
    } else if (word == "never") {
      never = true;
    } else {
      return Error{"--fail-on '" + text +
                   "': expected a comma-separated list of regression, improvement, inconclusive, "
                   "missing, not-comparable, any-change, or never"};
    }
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  if (never) return FailOn::none();
  if (allow_missing) return f.without(Verdict::kMissing);
  return f.with(Verdict::kMissing);
}

Result<int> run_diff(const DiffOptions& o, CliContext& context) {
  NPKIT_ASSIGN(auto threshold, parse_threshold(o.threshold));
  NPKIT_ASSIGN(auto fail_on, parse_fail_on(o.fail_on, o.allow_missing));
  if (o.allow_empty) fail_on = fail_on.allowing_empty();
  NPKIT_ASSIGN(auto base_options, options_for_run(o.common, o.naming, 0, 2, false));
  NPKIT_ASSIGN(auto cand_options, options_for_run(o.common, o.naming, 1, 2, false));
  NPKIT_ASSIGN(auto base, load_run(o.base, base_options, context));
  NPKIT_ASSIGN(auto cand, load_run(o.cand, cand_options, context));
  NoiseRule rule;
  rule.min_effect = threshold;
  const RunDiff diff = diff_runs(base, cand, rule);
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
      "exit 1 on a regression beyond noise and the threshold, or when the candidate lacks data "
      "the baseline has");
  cmd->add_option("BASE", options->base, std::string("The baseline run: ") + kRunInputs)
      ->required();
  cmd->add_option("CAND", options->cand, std::string("The candidate run: ") + kRunInputs)
      ->required();
  cmd->add_option("--threshold", options->threshold,
                  "Smallest change of a median that counts, in percent")
      ->capture_default_str();
  cmd->add_option("--fail-on", options->fail_on,
                  "Verdicts that exit 1, comma-separated: regression, improvement, inconclusive, "
                  "not-comparable, any-change (all of them) or never; missing data fails too "
                  "unless --allow-missing or never")
      ->capture_default_str();
  cmd->add_flag("--allow-missing", options->allow_missing,
                "Pass when the candidate lacks rows, ranks, times or collectives the baseline has "
                "(they are still shown as missing)");
  cmd->add_flag("--allow-empty", options->allow_empty,
                "Pass when no row was tested (every row untimed, flagged, or in one run only); "
                "by default such a gate fails");
  cmd->add_option("--format", options->common.format, "Output format")
      ->check(CLI::IsMember({"table", "json", "md", "junit", "html"}))
      ->capture_default_str();
  cmd->add_option("-o,--output", options->common.output,
                  "Write the result to FILE instead of standard output");
  add_dump_options(*cmd, options->common);
  add_run_naming_options(*cmd, options->naming);
  cmd->callback([options, &context] { context.outcome = run_diff(*options, context); });
}

}  // namespace npkit::cli
