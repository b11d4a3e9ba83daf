// usage_errors.hpp — the wording of command-line mistakes, for the error boundary (cli.hpp), which
// prints each as one line after the one "npkit-analyze: error: " prefix.
// Contract:
// - nearest_name: the name of `names` a mistyped `typed` most likely meant: the closest within
//   two edits (insertions, deletions, substitutions, swaps of neighbours; one edit for names of
//   up to four characters), else the only name `typed` is a prefix of; none when `typed` is one
//   of the names, nothing is that close, or two names are equally close.
// - unknown_command: where the first argument is no option and names no command of `app`, the
//   message ("unknown command 'reprot'; did you mean 'report'? ..."); none otherwise.
// - parse_error_message: a CLI11 parse error other than help and version as one line naming the
//   command it happened in: an unknown option with the nearest option of that command or the
//   commands that take it, a missing command or argument with what is expected, and where to
//   read the options.
#pragma once

#include <CLI/CLI.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace npkit::cli {

std::optional<std::string> nearest_name(std::string_view typed,
                                        const std::vector<std::string>& names);

std::optional<std::string> unknown_command(const CLI::App& app,
                                           const std::vector<std::string>& args);

std::string parse_error_message(const CLI::App& app, const CLI::ParseError& error);

}  // namespace npkit::cli
