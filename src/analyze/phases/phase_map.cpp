#include "phases/phase_map.hpp"

#include <sstream>

namespace npkit {

bool glob_match(std::string_view pattern, std::string_view text) {
  std::size_t p = 0;
  std::size_t t = 0;
  std::size_t star = std::string_view::npos;
  std::size_t mark = 0;
  while (t < text.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = t;
    } else if (p < pattern.size() && pattern[p] == text[t]) {
      ++p;
      ++t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

Result<PhaseMap> PhaseMap::parse(std::string_view text, const std::string& source) {
  PhaseMap map;
  std::istringstream in{std::string(text)};
  std::string line;
  std::size_t line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (const auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream fields(line);
    std::vector<std::string> f;
    for (std::string w; fields >> w;) f.push_back(w);
    if (f.empty()) continue;
    const std::string where = source + ":" + std::to_string(line_no);
    if (f.size() != 2 && f.size() != 4) {
      return Error{where +
                   ": expected 'PATTERN PHASE' or 'PATTERN PHASE COLLECTIVE ALGORITHM', got " +
                   std::to_string(f.size()) + " fields"};
    }
    for (const auto& field : f) {
      for (char c : field) {
        const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                        (c >= '0' && c <= '9') || c == '_' || c == '*' || c == '-' || c == '.';
        if (!ok)
          return Error{where + ": '" + field + "' contains '" + std::string(1, c) +
                       "'; expected letters, digits, '_', '-', '.' or '*'"};
      }
    }
    PhaseRule rule{f[0], f[1], f.size() == 4 ? f[2] : "", f.size() == 4 ? f[3] : "", where};
    map.rules_.push_back(std::move(rule));
  }
  return map;
}

PhaseMap PhaseMap::with_user_rules(const PhaseMap& user) const {
  PhaseMap merged;
  merged.rules_ = user.rules_;
  merged.rules_.insert(merged.rules_.end(), rules_.begin(), rules_.end());
  return merged;
}

PhaseAssignment assign_phases(const PhaseMap& map, const EventTable& table) {
  PhaseAssignment a;
  a.phase_names.push_back("other");
  a.other_phase = 0;
  const auto phase_id = [&](const std::string& name) -> std::uint16_t {
    if (name == "inherit") return kInheritPhase;
    for (std::size_t i = 0; i < a.phase_names.size(); ++i) {
      if (a.phase_names[i] == name) return static_cast<std::uint16_t>(i);
    }
    a.phase_names.push_back(name);
    return static_cast<std::uint16_t>(a.phase_names.size() - 1);
  };
  const auto& bases = table.base_names();
  a.phase_of_base.assign(bases.size(), kInheritPhase);
  a.collective_of_base.assign(bases.size(), kNoCollective);
  for (std::size_t b = 0; b < bases.size(); ++b) {
    for (const auto& rule : map.rules()) {
      if (!glob_match(rule.pattern, bases[b])) continue;
      a.phase_of_base[b] = phase_id(rule.phase);
      if (!rule.func.empty()) {
        std::int32_t idx = kNoCollective;
        for (std::size_t c = 0; c < a.collectives.size(); ++c) {
          if (a.collectives[c].func == rule.func && a.collectives[c].algo == rule.algo) {
            idx = static_cast<std::int32_t>(c);
          }
        }
        if (idx == kNoCollective) {
          a.collectives.push_back({rule.func, rule.algo});
          idx = static_cast<std::int32_t>(a.collectives.size() - 1);
        }
        a.collective_of_base[b] = idx;
      }
      break;
    }
  }
  return a;
}

}  // namespace npkit
