// The --help texts and docs/cli.md describe the same command line: every command that
// `npkit-analyze --help` lists is in the reference's synopsis, every option a command's --help
// shows is named in the reference, and the input of every command that reads one input names
// every input kind the detector reads (import/run_input.hpp).
#include <catch2/catch.hpp>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "support/cli_runner.hpp"
#include "support/test_data.hpp"

namespace {

std::string read_doc(const std::string& relative) {
  std::ifstream in(npkit::test::require_path(npkit::test::source_path(relative)));
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string help_of(std::vector<std::string> args) {
  args.push_back("--help");
  const auto run = npkit::test::run_cli(args);
  INFO("npkit-analyze help: " << run.err);
  REQUIRE(run.exit_code == 0);
  return run.out;
}

// The lines of a section of CLI11's help ("Options:", "Subcommands:", "Positionals:").
std::vector<std::string> section(const std::string& help, const std::string& title) {
  std::vector<std::string> lines;
  std::istringstream in(help);
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (line == title) {
      inside = true;
    } else if (inside && line.empty()) {
      break;
    } else if (inside) {
      lines.push_back(line);
    }
  }
  return lines;
}

std::vector<std::string> commands() {
  std::vector<std::string> out;
  const std::regex name(R"(^  ([a-z]+)\s)");
  for (const auto& line : section(help_of({}), "Subcommands:")) {
    std::smatch m;
    if (std::regex_search(line, m, name)) out.push_back(m[1]);
  }
  return out;
}

// The long option names of a command's --help ("--ranks", "--output" of "-o,--output TEXT").
std::vector<std::string> options_of(const std::string& command) {
  std::vector<std::string> out;
  const std::regex option(R"(^  (?:-[a-zA-Z],)?(--[a-z][a-z0-9-]*))");
  for (const auto& line : section(help_of({command}), "Options:")) {
    std::smatch m;
    if (std::regex_search(line, m, option)) out.push_back(m[1]);
  }
  return out;
}

// Whether `doc` names `option` as a whole word: not as the start of a longer name.
bool names_option(const std::string& doc, const std::string& option) {
  for (auto pos = doc.find(option); pos != std::string::npos; pos = doc.find(option, pos + 1)) {
    const auto end = pos + option.size();
    const bool longer =
        end < doc.size() && (std::isalnum(static_cast<unsigned char>(doc[end])) || doc[end] == '-');
    if (!longer) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("cli help: docs/cli.md names every command and every option of its --help", "[cli]") {
  const std::string doc = read_doc("docs/cli.md");
  const auto names = commands();
  REQUIRE(names.size() == 9);
  for (const auto& command : names) {
    INFO("command " << command);
    CHECK(doc.find("npkit-analyze " + command + " ") != std::string::npos);
    const auto options = options_of(command);
    CHECK(options.size() >= 3);  // --help, --format or -o, and more: the section was found
    for (const auto& option : options) {
      INFO("option " << option << " of " << command << " --help");
      CHECK(names_option(doc, option));
    }
  }
}

TEST_CASE("cli help: every input is named in the help of every command's input", "[cli]") {
  // hang reads .npkt captures only and says so; the gate commands take summaries besides.
  for (const auto& command : commands()) {
    INFO("command " << command);
    const auto positionals = section(help_of({command}), "Positionals:");
    REQUIRE_FALSE(positionals.empty());
    std::string text;
    for (const auto& line : positionals) text += line + " ";
    if (command == "hang") {
      CHECK(text.find(".npkt") != std::string::npos);
      CHECK(text.find("other inputs are refused") != std::string::npos);
      continue;
    }
    for (const char* kind :
         {"NPKit dump", ".npkt", "Chrome-trace JSON", "NCCL Inspector", "nccl-tests results"}) {
      INFO("input kind " << kind);
      CHECK(text.find(kind) != std::string::npos);
    }
  }
}
