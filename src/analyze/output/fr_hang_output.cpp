#include "output/fr_hang_output.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "output/text_table.hpp"
#include "util/prose_list.hpp"

namespace npkit {
namespace {

constexpr const char* kCaptureWouldAdd =
    "From Flight Recorder dumps alone: they say what each rank enqueued and what its watchdog saw "
    "start and finish. An npkit capture of the same run (docs/capture.md) would add the GPU side: "
    "which rank's kernel did not finish, on which channel, and since when.";

std::string ranks_text(const std::vector<std::int64_t>& ranks) {
  std::vector<std::string> names;
  for (const auto r : ranks) names.push_back(std::to_string(r));
  return fmt::format("global rank{} {}", ranks.size() == 1 ? "" : "s", prose_list(names));
}

std::string group_name(const FrGroupHang& g) {
  return g.desc.empty() ? "process group " + g.name
                        : fmt::format("process group {} ({})", g.name, g.desc);
}

std::string sizes_text(const std::vector<std::vector<std::int64_t>>& sizes) {
  return sizes.empty() ? "-" : fmt::format("{}", fmt::join(sizes, " "));
}

std::string collective(const FrGroupHang& g) {
  return fmt::format("{} #{}", g.operation, g.seq);
}

std::string heading(const FrGroupHang& g) {
  const std::size_t n = g.members.size();
  const std::string size = g.without_dump.empty() ? fmt::format("{} ranks", n)
                                                  : fmt::format("{} of {} ranks with a dump",
                                                                n - g.without_dump.size(), n);
  const std::string state = g.stalled()       ? "STALLED at " + collective(g)
                            : g.cannot_tell() ? std::string("cannot tell")
                                              : std::string("nothing stuck");
  return fmt::format("{}, {}: {}", group_name(g), size, state);
}

TextTable rank_table(const FrHangAnalysis& hang, bool with_group) {
  TextTable t;
  if (with_group) t.columns.push_back("group");
  t.columns.insert(t.columns.end(),
                   {"global rank", "last seq", "operation", "state", "input sizes"});
  for (const auto& g : hang.groups) {
    for (const auto& m : g.ranks) {
      std::vector<std::string> row;
      if (with_group) row.push_back(g.name);
      const bool any = m.last_seq >= 0;
      row.insert(row.end(), {std::to_string(m.global_rank),
                             !m.has_dump ? "no dump"
                             : any       ? std::to_string(m.last_seq)
                                         : "-",
                             any ? m.operation : "-", any ? fr_state_name(m.state) : "-",
                             any ? sizes_text(m.input_sizes) : "-"});
      t.add_row(std::move(row));
    }
  }
  return t;
}

}  // namespace

std::string fr_group_verdict(const FrGroupHang& g) {
  std::vector<std::string> parts;
  const std::string what = fmt::format("{} of {}", collective(g), group_name(g));
  const std::string call = g.called_from.empty() ? "" : ", called from " + g.called_from;
  const std::string dtypes =
      g.input_dtypes.empty() ? "" : fmt::format(" {}", fmt::join(g.input_dtypes, ","));
  std::vector<std::string> states;
  for (const auto& m : g.ranks) {
    if (m.last_seq == g.seq && m.state != FrState::kCompleted) {
      states.push_back(fr_state_name(m.state));
    }
  }
  const std::string state = states.empty() ? "" : states.front();
  if (!g.missing.empty()) {
    parts.push_back(fmt::format("{} never called {}, input {}{}", ranks_text(g.missing), what,
                                sizes_text(g.input_sizes), dtypes));
    if (!g.waiting.empty()) {
      parts.push_back(fmt::format("{} wait in it ({}){}", ranks_text(g.waiting), state, call));
    }
  } else if (!g.waiting.empty()) {
    parts.push_back(
        fmt::format("every rank with a dump called {}, input {}{}{}; {} have not "
                    "completed it ({}): the collective itself does not finish",
                    what, sizes_text(g.input_sizes), dtypes, call, ranks_text(g.waiting), state));
  } else {
    parts.push_back(
        fmt::format("every rank with a dump completed {}, the latest it recorded", what));
  }
  if (!g.mismatches.empty()) {
    parts.push_back("mismatched: " + prose_list(g.mismatches));
  }
  if (!g.without_dump.empty()) {
    parts.push_back(fmt::format("{} left no dump: whether they called it is not known",
                                ranks_text(g.without_dump)));
  }
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : "; ") + p;
  return out;
}

void append_fr_hang_text(const FrHangAnalysis& hang, OutputFormat format, std::string& out) {
  if (format == OutputFormat::kCsv) {
    render_table(rank_table(hang, true), format, out);
    return;
  }
  for (const auto& g : hang.groups) {
    render_section_line(heading(g), format, out);
    render_line("  " + fr_group_verdict(g), format, out);
    FrHangAnalysis one;
    one.groups.push_back(g);
    render_table(rank_table(one, false), format, out);
  }
  render_section_line(kCaptureWouldAdd, format, out);
}

void write_fr_hang_json(const FrHangAnalysis& hang, JsonWriter& w) {
  w.field("source", "flight_recorder");
  w.field("stalled", hang.stalled());
  w.field("cannot_tell", hang.cannot_tell());
  w.objects("process_groups", hang.groups, [&](const FrGroupHang& g) {
    w.field("name", g.name);
    w.field("desc", g.desc);
    w.values("global_ranks", g.members);
    w.field("stalled", g.stalled());
    w.field("cannot_tell", g.cannot_tell());
    w.field("seq", g.seq);
    w.field("operation", g.operation);
    w.key("input_sizes");
    w.begin_array();
    for (const auto& s : g.input_sizes) {
      w.begin_array();
      for (const auto d : s) w.value(d);
      w.end_array();
    }
    w.end_array();
    w.values("input_dtypes", g.input_dtypes);
    w.field("called_from", g.called_from);
    w.values("ranks_missing", g.missing);
    w.values("ranks_waiting", g.waiting);
    w.values("ranks_without_dump", g.without_dump);
    w.values("mismatches", g.mismatches);
    w.field("verdict", fr_group_verdict(g));
    w.objects("ranks", g.ranks, [&](const FrMemberState& m) {
      w.field("global_rank", m.global_rank);
      w.field("has_dump", m.has_dump);
      w.field("last_seq", m.last_seq);
      if (m.last_seq >= 0) {
        w.field("operation", m.operation);
        w.field("state", fr_state_name(m.state));
      }
    });
  });
}

}  // namespace npkit
