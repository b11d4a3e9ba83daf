#include "commands/command.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <functional>
#include <iostream>
#include <memory>
#include <thread>

#include "commands/output_file.hpp"
#include "run/nccl_tests_convention.hpp"
#include "usage_errors.hpp"
#include "util/lower_case.hpp"
#include "util/terminal_text.hpp"

#include <unistd.h>

namespace npkit::cli {

namespace {

// What a dump option describes, for the commands that read no input it applies to.
std::string dump_option_subject(std::string_view option, std::string_view command) {
  if (option == "--phase-map") {
    return fmt::format("names the phases of spans, which {} does not look at", command);
  }
  return "describes legacy NPKit dumps, which record no operation as it starts and finishes";
}

}  // namespace

void add_common_options(CLI::App& cmd, CommonOptions& o, bool with_format, bool with_dump_options) {
  cmd.add_option("PATH", o.path, kInputHelp)->required();
  if (with_format) {
    std::vector<std::string> formats = {"table", "json", "csv", "md"};
    if (cmd.get_name() == "report") formats.push_back("html");  // only report renders HTML
    cmd.add_option("--format", o.format, "Output format")
        ->check(CLI::IsMember(formats))
        ->capture_default_str();
  }
  cmd.add_option("-o,--output", o.output, "Write the result to FILE instead of standard output");
  cmd.add_option("--ranks", o.ranks, "Ranks to analyse, e.g. 0,2-5 (default: all)")
      ->capture_default_str();
  cmd.add_flag("-q,--quiet", o.quiet, "Do not print the warning summary");
  if (!with_dump_options) {
    for (const char* name : {"--event-table", "--phase-map", "--cpu-record-size", "--nranks"}) {
      cmd.add_option_function<std::string>(
             name, [&o, name](const std::string& value) { o.refused.emplace_back(name, value); })
          ->group("");  // hidden: refused with a reason
    }
  } else {
    cmd.add_option("--event-table", o.event_table,
                   "Event-id table: auto, nccl, rccl, msccl, msccl-0.1, mscclpp, npkit-2021, "
                   "nccl-2.20-port, or the path of an npkit_event.h")
        ->capture_default_str();
    cmd.add_option("--phase-map", o.phase_map,
                   "Extra phase rules (PATTERN PHASE [COLLECTIVE ALGO]) taking precedence");
    cmd.add_option("--cpu-record-size", o.cpu_record_size,
                   "CPU record size in bytes (16, 18, 22; default: detect)");
    cmd.add_option("--nranks", o.nranks,
                   "Legacy NPKit dumps: the communicator size, where rank files are missing "
                   "(default: the highest rank with files + 1)");
  }
  cmd.add_flag("--skip-bad", o.skip_bad,
               "In a directory of .npkt files, skip the files that cannot be read (a warning "
               "each) and analyze the others");
  add_run_option(cmd, o.run);
  cmd.add_option("--threads", o.threads,
                 "Threads reading the dump (default: one per core, at most 8; trace reads and "
                 "encodes a legacy dump on one per core, at most 16)")
      ->check(thread_count_validator());
  cmd.add_option("--env", o.env_file,
                 "The run's NCCL_*/NPKIT_* settings: a file of KEY=VALUE lines as `env` prints "
                 "them (default: ENV.txt or env.txt beside the dump or in its parent; none: "
                 "no file)");
}

CLI::Validator thread_count_validator() {
  return CLI::Validator(
      [](std::string& value) -> std::string {
        const bool digits =
            !value.empty() && value.size() <= 10 &&
            std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; });
        const unsigned long long n = digits ? std::stoull(value) : 0;
        if (n >= 1 && n <= kMaxThreadsOption) return "";
        return fmt::format(
            "expected a number of threads from 1 to {}, not '{}' (leave --threads out for "
            "one per core)",
            kMaxThreadsOption, value);
      },
      "1.." + std::to_string(kMaxThreadsOption), "thread count");
}

void add_run_option(CLI::App& cmd, std::uint32_t& run) {
  cmd.add_option("--run", run,
                 "A directory of .npkt files of several runs of a job (a \"mixed runs\" warning "
                 "names them; info lists them): read run N only, numbered from 1 by start time")
      ->check(CLI::PositiveNumber);
}

std::optional<Error> refused_option_error(const CommonOptions& o, std::string_view command,
                                          std::string_view what) {
  if (o.refused.empty()) return std::nullopt;
  const auto& [name, value] = o.refused.front();
  return Error{fmt::format("{} {}: not an option of {}, which reads {} only: {} {}", name, value,
                           command, what, name, dump_option_subject(name, command))};
}

OutputFormat output_format(const CommonOptions& o) {
  if (o.format == "json") return OutputFormat::kJson;
  if (o.format == "csv") return OutputFormat::kCsv;
  if (o.format == "md") return OutputFormat::kMarkdown;
  if (o.format == "html") return OutputFormat::kHtml;
  return OutputFormat::kTable;
}

Error with_option_name(Error error, std::string_view old_name, std::string_view new_name) {
  if (error.message.starts_with(old_name)) {
    error.message.replace(0, old_name.size(), new_name);
  }
  return error;
}

Result<Thresholds> finding_thresholds(const CommonOptions& o) {
  if (!o.old_threshold.empty()) {
    return Error{"--threshold " + o.old_threshold +
                 ": report's thresholds of the findings are set with --finding-threshold "
                 "NAME=VALUE; --threshold is diff's smallest change, a percentage"};
  }
  auto thresholds = parse_thresholds(o.thresholds);
  if (!thresholds)
    return with_option_name(thresholds.error(), "--threshold", "--finding-threshold");
  return thresholds;
}

Result<std::string> parse_coll_option(const std::string& option, const std::string& typed,
                                      bool allow_all) {
  const auto key = coll_option_key(typed);
  if (key && (allow_all || *key != "all")) return *key;
  std::vector<std::string> keys;
  const std::string all_keys = coll_option_list();  // "all, allreduce, ..."
  std::string_view list = all_keys;
  while (!list.empty()) {
    const auto comma = list.find(", ");
    const std::string_view k = list.substr(0, comma);
    if (allow_all || k != "all") keys.emplace_back(k);
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 2);
  }
  const auto near = nearest_name(lower_case(typed), keys);
  return Error{fmt::format(
      "{} '{}': expected one of {} (in any case: AllReduce, as the tables print it, is "
      "allreduce){}",
      option, typed, fmt::join(keys, ", "), near ? "; did you mean '" + *near + "'?" : "")};
}

namespace {

// A one-line "reading 45% (230 / 512 MB)" on a terminal, redrawn at most every 200 ms.
std::function<void(std::uint64_t, std::uint64_t)> terminal_progress(std::ostream& err) {
  using Clock = std::chrono::steady_clock;
  auto last = std::make_shared<Clock::time_point>(Clock::now());
  return [&err, last](std::uint64_t done, std::uint64_t total) {
    constexpr std::uint64_t kMinBytes = 64ull << 20;
    if (total < kMinBytes) return;
    if (done == total) {
      err << "\r\033[K" << std::flush;
      return;
    }
    const auto now = Clock::now();
    if (now - *last < std::chrono::milliseconds(200)) return;
    *last = now;
    err << fmt::format("\rnpkit-analyze: reading {:3.0f}% ({} / {} MB)",
                       100.0 * static_cast<double>(done) / static_cast<double>(total), done >> 20,
                       total >> 20)
        << std::flush;
  };
}

}  // namespace

Result<std::unique_ptr<RunInput>> open_input(const CommonOptions& o, CliContext& context,
                                             std::optional<DetectedInput> detected) {
  ImportOptions options;
  options.detected = std::move(detected);
  options.path = o.path;
  options.ranks = o.ranks;
  options.event_table = o.event_table;
  options.phase_map = o.phase_map;
  options.cpu_record_size = o.cpu_record_size;
  options.threads = o.threads;
  options.skip_bad = o.skip_bad;
  options.env_file = o.env_file;
  options.nranks = o.nranks;
  options.label = o.label;
  options.run = o.run;
  options.refuse_mixed_runs = o.refuse_mixed_runs;
  if (!o.quiet && &context.err == &std::cerr && ::isatty(STDERR_FILENO) == 1) {
    options.progress = terminal_progress(context.err);
  }
  return open_run_input(options);
}

namespace {

bool to_standard_output(const CommonOptions& o) {
  return o.output.empty() || o.output == "-" || o.output == "/dev/stdout";
}

}  // namespace

Status write_output(const CommonOptions& o, const std::string& text, CliContext& context) {
  // JSON, JSON lines and HTML escape every control character by their own rules; every other
  // form (text, Markdown, CSV, JUnit XML) gets what an input put into it escaped here.
  const bool escapes_itself = o.format == "json" || o.format == "jsonl" || o.format == "html";
  const std::string safe = escapes_itself ? std::string() : terminal_safe(text);
  const std::string& shown = escapes_itself ? text : safe;
  if (to_standard_output(o)) {
    context.out << shown;
    return Ok{};
  }
  return write_output_file(o.output, [&](std::ostream& out) -> Status {
    out << shown;
    return Ok{};
  });
}

Status write_trace_output(const CommonOptions& o, CliContext& context,
                          const TraceOutputWriter& write) {
  if (to_standard_output(o)) {
    NPKIT_TRY(write(context.out, "standard output"));
    return Ok{};
  }
  std::uint64_t events = 0;
  NPKIT_TRY(write_output_file(o.output, [&](std::ostream& out) -> Status {
    NPKIT_ASSIGN(events, write(out, o.output));
    return Ok{};
  }));
  if (!o.quiet) context.err << fmt::format("wrote {} events to {}\n", events, o.output);
  return Ok{};
}

void print_warnings(const Diagnostics& d, const CommonOptions& o, CliContext& context) {
  if (o.quiet || d.warnings().empty()) return;
  context.err << fmt::format("npkit-analyze: {} warning(s) in {} categories:\n", d.total(),
                             d.warnings().size());
  for (const auto& g : d.warnings()) {
    context.err << fmt::format("  {} × {}: {}\n", g.count, terminal_safe(g.category),
                               terminal_safe(g.examples.empty() ? "" : g.examples.front()));
    for (std::size_t i = 1; i < g.examples.size(); ++i)
      context.err << "      " << terminal_safe(g.examples[i]) << "\n";
  }
}

}  // namespace npkit::cli
