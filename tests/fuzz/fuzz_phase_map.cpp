// fuzz_phase_map.cpp — libFuzzer target for the `--phase-map FILE` path of the analysis commands:
// the input is written to a file, read back with io::read_text_file (the 1 MiB limit of
// read_phase_map_file in import/run_input.cpp), parsed with PhaseMap::parse, put in front of the
// built-in rules, and resolved with assign_phases against every built-in event table. Contract:
// never crashes, hangs or trips a sanitizer. A parsed map keeps one rule per non-blank, non-comment
// line, each with non-empty, allowed fields; the resolution agrees with a second, independent
// implementation here (first matching rule wins, '*' matches any run of characters, `inherit` maps
// to kInheritPhase, no rule leaves the base inheriting); a failed parse names the file and line.
// abort() otherwise.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "run/event_table.hpp"
#include "run/phase_map.hpp"
#include "util/file_io.hpp"

// The oracle's own branches would only add noise to the coverage feedback (clang; other
// compilers build the replay test, which has no coverage feedback).
#if defined(__clang__)
#define ORACLE_WITHOUT_COVERAGE __attribute__((no_sanitize("coverage")))
#else
#define ORACLE_WITHOUT_COVERAGE
#endif

namespace {

namespace fs = std::filesystem;

constexpr std::size_t kPhaseMapLimit = std::size_t{1} << 20;  // read_phase_map_file's read limit

void check(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "fuzz_phase_map: contract violated: %s\n", what);
  std::abort();
}

// A per-process file the input is written to.
class ScratchFile {
 public:
  ScratchFile() {
    std::string tmpl = (fs::temp_directory_path() / "npkit-fuzz-phases-XXXXXX").string();
    const int fd = ::mkstemp(tmpl.data());
    if (fd < 0) {
      std::perror("fuzz_phase_map: mkstemp");
      std::abort();
    }
    ::close(fd);
    path_ = tmpl;
  }
  ~ScratchFile() {
    std::error_code ec;
    fs::remove(path_, ec);
  }
  const std::string& write(const std::uint8_t* data, std::size_t size) const {
    std::ofstream out(path_, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    out.close();
    check(out.good(), "writing the scratch file");
    return path_;
  }

 private:
  std::string path_;
};

// '*' matches any run of characters (also empty); every other character matches itself. Works on
// the pattern's literal segments between the stars: the first must start the text, the last must
// end it, and each one between is found leftmost after the previous (leftmost is never worse), a
// different algorithm from the analyzer's single-backtrack matcher. It is the oracle, run for
// every rule and event name of every input, so it is linear and left out of coverage feedback.
ORACLE_WITHOUT_COVERAGE bool segment_glob(std::string_view pattern, std::string_view text) {
  const std::size_t first_star = pattern.find('*');
  if (first_star == std::string_view::npos) return pattern == text;
  const std::string_view head = pattern.substr(0, first_star);
  const std::size_t last_star = pattern.rfind('*');
  const std::string_view tail = pattern.substr(last_star + 1);
  if (text.size() < head.size() + tail.size()) return false;
  if (text.substr(0, head.size()) != head) return false;
  if (text.substr(text.size() - tail.size()) != tail) return false;
  std::string_view rest = text.substr(head.size(), text.size() - head.size() - tail.size());
  std::string_view middle = pattern.substr(first_star + 1, last_star - first_star);
  while (!middle.empty()) {  // middle: the segments between the first and the last star, each
    const std::size_t star = middle.find('*');  // followed by its star
    const std::string_view segment = middle.substr(0, star);
    middle.remove_prefix(star + 1);
    const std::size_t at = rest.find(segment);
    if (at == std::string_view::npos) return false;
    rest.remove_prefix(at + segment.size());
  }
  return true;
}

// Lines that carry a rule: something other than blanks once the comment is cut off.
std::size_t rule_lines(std::string_view text) {
  std::size_t rules = 0;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (const auto hash = line.find('#'); hash != std::string_view::npos)
      line = line.substr(0, hash);
    for (char c : line) {
      if (c != ' ' && c != '\t' && c != '\r' && c != '\v' && c != '\f') {
        ++rules;
        break;
      }
    }
    if (end == text.size()) break;
    start = end + 1;
  }
  return rules;
}

bool allowed_field(const std::string& field) {
  if (field.empty()) return false;
  for (char c : field) {
    const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '*' || c == '-' || c == '.';
    if (!ok) return false;
  }
  return true;
}

// A built-in event table with, per base name, the index of the first built-in rule whose pattern
// matches it (or none). The built-in rules are the same for every input, so this part of the
// oracle is computed once.
struct TableWithBuiltinMatches {
  npkit::EventTable table;
  std::vector<std::size_t> first_builtin_rule;  // kNoRule: no built-in rule matches
};
constexpr std::size_t kNoRule = static_cast<std::size_t>(-1);

const std::vector<TableWithBuiltinMatches>& builtin_tables() {
  static const std::vector<TableWithBuiltinMatches> tables = [] {
    std::vector<TableWithBuiltinMatches> out;
    const auto& builtin_rules = npkit::PhaseMap::builtin().rules();
    for (const std::string& name : npkit::builtin_event_table_names()) {
      auto table = npkit::builtin_event_table(name);
      check(table.ok(), "built-in table");
      TableWithBuiltinMatches entry{std::move(*table), {}};
      for (const std::string& base : entry.table.base_names()) {
        std::size_t first = kNoRule;
        for (std::size_t r = 0; r < builtin_rules.size() && first == kNoRule; ++r)
          if (segment_glob(builtin_rules[r].pattern, base)) first = r;
        entry.first_builtin_rule.push_back(first);
      }
      out.push_back(std::move(entry));
    }
    return out;
  }();
  return tables;
}

// assign_phases against the rules applied by hand: the first of the user's rules that matches,
// else the first built-in one.
void check_resolution(const npkit::PhaseMap& merged, std::size_t user_rules,
                      const TableWithBuiltinMatches& entry) {
  const npkit::EventTable& table = entry.table;
  const npkit::PhaseAssignment a = npkit::assign_phases(merged, table);
  const auto& bases = table.base_names();
  check(a.phase_of_base.size() == bases.size(), "phase_of_base size");
  check(a.collective_of_base.size() == bases.size(), "collective_of_base size");
  check(!a.phase_names.empty() && a.phase_names[a.other_phase] == "other", "the other phase");
  const auto& rules = merged.rules();
  for (std::size_t b = 0; b < bases.size(); ++b) {
    const npkit::PhaseRule* first = nullptr;
    for (std::size_t r = 0; r < user_rules && first == nullptr; ++r)
      if (segment_glob(rules[r].pattern, bases[b])) first = &rules[r];
    if (first == nullptr && entry.first_builtin_rule[b] != kNoRule)
      first = &rules[user_rules + entry.first_builtin_rule[b]];
    const std::uint16_t phase = a.phase_of_base[b];
    const std::int32_t coll = a.collective_of_base[b];
    if (first == nullptr) {
      check(phase == npkit::kInheritPhase && coll == npkit::kNoCollective, "unmatched base");
      continue;
    }
    if (first->phase == "inherit") {
      check(phase == npkit::kInheritPhase, "inherit rule");
    } else {
      check(phase < a.phase_names.size() && a.phase_names[phase] == first->phase, "phase name");
    }
    if (first->func.empty()) {
      check(coll == npkit::kNoCollective, "collective without FUNC");
    } else {
      check(coll >= 0 && static_cast<std::size_t>(coll) < a.collectives.size(), "collective id");
      const npkit::CollectiveKind& kind = a.collectives[static_cast<std::size_t>(coll)];
      check(kind.func == first->func && kind.algo == first->algo, "collective kind");
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const ScratchFile scratch;
  const std::string& path = scratch.write(data, size);
  auto text = npkit::io::read_text_file(path, kPhaseMapLimit);
  check(text.ok(), "read_text_file of a small regular file");
  check(text->size() == size, "read_text_file returned another size");

  auto map = npkit::PhaseMap::parse(*text, path);
  if (!map) {
    const std::string& message = map.error().message;
    check(message.rfind(path + ":", 0) == 0, "error without the file:line prefix");
    return 0;
  }
  check(map->rules().size() == rule_lines(*text), "rule count against the rule lines");
  for (const auto& rule : map->rules()) {
    check(allowed_field(rule.pattern) && allowed_field(rule.phase), "pattern or phase field");
    check(rule.func.empty() == rule.algo.empty(), "FUNC without ALGO");
    check(rule.func.empty() || (allowed_field(rule.func) && allowed_field(rule.algo)),
          "FUNC or ALGO field");
    check(rule.origin.rfind(path + ":", 0) == 0, "rule origin");
  }
  const npkit::PhaseMap merged = npkit::PhaseMap::builtin().with_user_rules(*map);
  const std::size_t user_rules = map->rules().size();
  check(merged.rules().size() == user_rules + npkit::PhaseMap::builtin().rules().size(),
        "merged map: the user's rules and the built-in ones");
  for (const auto& entry : builtin_tables()) check_resolution(merged, user_rules, entry);
  return 0;
}
