#include "run/phase_map.hpp"

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

namespace {

// Resolves phase names to ids and rules' collectives to indexes, in order of first use.
class AssignmentBuilder {
 public:
  explicit AssignmentBuilder(std::size_t bases) {
    a_.phase_names.push_back("other");
    a_.other_phase = 0;
    a_.phase_of_base.assign(bases, kInheritPhase);
    a_.collective_of_base.assign(bases, kNoCollective);
  }

  void set_phase(std::size_t base, const std::string& phase) {
    a_.phase_of_base[base] = phase_id(phase);
  }

  // Applies the first rule of `map` that matches `name`; false when none does.
  bool apply_rule(const PhaseMap& map, std::size_t base, const std::string& name) {
    for (const auto& rule : map.rules()) {
      if (!glob_match(rule.pattern, name)) continue;
      set_phase(base, rule.phase);
      if (!rule.func.empty()) a_.collective_of_base[base] = collective_id(rule.func, rule.algo);
      return true;
    }
    return false;
  }

  PhaseAssignment take() { return std::move(a_); }

 private:
  std::uint16_t phase_id(const std::string& name) {
    if (name == "inherit") return kInheritPhase;
    for (std::size_t i = 0; i < a_.phase_names.size(); ++i) {
      if (a_.phase_names[i] == name) return static_cast<std::uint16_t>(i);
    }
    a_.phase_names.push_back(name);
    return static_cast<std::uint16_t>(a_.phase_names.size() - 1);
  }

  std::int32_t collective_id(const std::string& func, const std::string& algo) {
    std::int32_t idx = kNoCollective;
    for (std::size_t c = 0; c < a_.collectives.size(); ++c) {
      if (a_.collectives[c].func == func && a_.collectives[c].algo == algo) {
        idx = static_cast<std::int32_t>(c);
      }
    }
    if (idx != kNoCollective) return idx;
    a_.collectives.push_back({func, algo});
    return static_cast<std::int32_t>(a_.collectives.size() - 1);
  }

  PhaseAssignment a_;
};

}  // namespace

PhaseAssignment assign_phases(const PhaseMap& map, const EventTable& table) {
  const auto& bases = table.base_names();
  AssignmentBuilder builder(bases.size());
  for (std::size_t b = 0; b < bases.size(); ++b) builder.apply_rule(map, b, bases[b]);
  return builder.take();
}

PhaseAssignment assign_phases_with_hints(const PhaseMap& user,
                                         const std::vector<std::string>& bases,
                                         const std::vector<std::string>& hints,
                                         const PhaseMap& fallback) {
  AssignmentBuilder builder(bases.size());
  for (std::size_t b = 0; b < bases.size(); ++b) {
    if (builder.apply_rule(user, b, bases[b])) continue;
    if (b < hints.size() && !hints[b].empty()) {
      builder.set_phase(b, hints[b]);
      continue;
    }
    builder.apply_rule(fallback, b, bases[b]);
  }
  return builder.take();
}

}  // namespace npkit
