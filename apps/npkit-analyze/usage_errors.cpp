#include "usage_errors.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>

namespace npkit::cli {
namespace {

// Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
// neighbouring characters ("reprot" is one edit from "report").
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

std::vector<std::string> command_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    names.push_back(sub->get_name());
  }
  return names;
}

// The option names a command shows in its --help ("--ranks", "-o", "--output").
std::vector<std::string> option_names(const CLI::App& command) {
  std::vector<std::string> names;
  for (const CLI::Option* o : command.get_options()) {
    if (o->get_group().empty()) continue;  // hidden: old spellings that answer with the new one
    for (const auto& l : o->get_lnames()) names.push_back("--" + l);
    for (const auto& s : o->get_snames()) names.push_back("-" + s);
  }
  return names;
}

// The commands other than `except` that show `option` in their --help.
std::vector<std::string> commands_with_option(const CLI::App& app, const CLI::App* except,
                                              const std::string& option) {
  std::vector<std::string> out;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (sub == except) continue;
    const auto names = option_names(*sub);
    if (std::find(names.begin(), names.end(), option) != names.end()) {
      out.push_back(sub->get_name());
    }
  }
  return out;
}

// "a", "a and b", "a, b and c".
std::string and_list(const std::vector<std::string>& items) {
  if (items.size() <= 1) return items.empty() ? "" : items.front();
  return fmt::format("{} and {}", fmt::join(items.begin(), items.end() - 1, ", "), items.back());
}

// The arguments of CLI11's "The following argument(s) was/were not expected: B A", in command-line
// order (CLI11 lists them last first).
std::vector<std::string> unexpected_arguments(const std::string& message) {
  std::vector<std::string> out;
  const auto colon = message.find("expected: ");
  if (colon == std::string::npos) return out;
  std::string_view rest = std::string_view(message).substr(colon + 10);
  while (!rest.empty()) {
    const auto space = rest.find(' ');
    if (space != 0) out.emplace_back(rest.substr(0, space));
    if (space == std::string_view::npos) break;
    rest.remove_prefix(space + 1);
  }
  std::reverse(out.begin(), out.end());
  return out;
}

bool is_option(const std::string& arg) {
  return arg.size() > 1 && arg[0] == '-';
}

std::string unknown_option(const CLI::App& app, const CLI::App& command, std::string option) {
  option = option.substr(0, option.find('='));  // --name=value
  std::string text = "unknown option " + option;
  if (auto near = nearest_name(option, option_names(command))) {
    return text + " (did you mean " + *near + "?)";
  }
  const auto others = commands_with_option(app, &command, option);
  if (!others.empty()) {
    text += fmt::format(" ({} take{} it{})", and_list(others), others.size() == 1 ? "s" : "",
                        &command == &app ? ", after the command" : "");
  }
  return text;
}

}  // namespace

std::optional<std::string> nearest_name(std::string_view typed,
                                        const std::vector<std::string>& names) {
  if (std::find(names.begin(), names.end(), typed) != names.end()) return std::nullopt;
  std::optional<std::string> best;
  std::size_t best_distance = 0;
  bool tie = false;
  for (const auto& name : names) {
    const std::size_t limit = name.size() <= 4 ? 1 : 2;
    const std::size_t d = edit_distance(typed, name);
    if (d > limit) continue;
    if (!best || d < best_distance) {
      best = name;
      best_distance = d;
      tie = false;
    } else if (d == best_distance && name != *best) {
      tie = true;
    }
  }
  if (best && !tie) return best;
  std::vector<std::string> extended;
  for (const auto& name : names) {
    if (typed.size() >= 2 && name.size() > typed.size() && name.starts_with(typed)) {
      extended.push_back(name);
    }
  }
  if (extended.size() == 1) return extended.front();
  return std::nullopt;
}

std::optional<std::string> unknown_command(const CLI::App& app,
                                           const std::vector<std::string>& args) {
  if (args.size() < 2 || args[1].empty() || args[1][0] == '-') return std::nullopt;
  const std::string& typed = args[1];
  const auto names = command_names(app);
  if (std::find(names.begin(), names.end(), typed) != names.end()) return std::nullopt;
  const std::string commands = fmt::format(
      "the commands: {} ('npkit-analyze --help' says what each does)", fmt::join(names, ", "));
  std::error_code ec;
  if (std::filesystem::exists(typed, ec) || typed.find('/') != std::string::npos) {
    return fmt::format(
        "'{}' is not a command: the command comes first, then the input, e.g. 'npkit-analyze "
        "report {}'; {}",
        typed, typed, commands);
  }
  if (auto near = nearest_name(typed, names)) {
    return fmt::format("unknown command '{}'; did you mean '{}'? {}", typed, *near, commands);
  }
  return fmt::format("unknown command '{}'; {}", typed, commands);
}

std::string parse_error_message(const CLI::App& app, const CLI::ParseError& error) {
  const CLI::App* command = &app;
  while (!command->get_subcommands().empty()) command = command->get_subcommands().back();
  const bool top = command == &app;
  const std::string help =
      top ? "see 'npkit-analyze --help'" : "see 'npkit-analyze " + command->get_name() + " --help'";
  std::string body;
  if (top && dynamic_cast<const CLI::RequiredError*>(&error) != nullptr) {
    return fmt::format(
        "no command given: npkit-analyze COMMAND PATH [options], COMMAND one of {}; {}",
        fmt::join(command_names(app), ", "), help);
  }
  if (dynamic_cast<const CLI::ExtrasError*>(&error) != nullptr) {
    std::vector<std::string> parts;
    const auto args = unexpected_arguments(error.what());
    for (std::size_t i = 0; i < args.size(); ++i) {
      if (is_option(args[i])) {
        parts.push_back(unknown_option(app, *command, args[i]));
      } else if (i == 0 || !is_option(args[i - 1]) || args[i - 1].find('=') != std::string::npos) {
        parts.push_back("unexpected argument '" + args[i] + "'");
      }  // else: the value of the unknown option before it
    }
    body = fmt::format("{}", fmt::join(parts, "; "));
  }
  if (body.empty()) body = error.what();
  return fmt::format("{}{}; {}", top ? "" : command->get_name() + ": ", body, help);
}

}  // namespace npkit::cli
