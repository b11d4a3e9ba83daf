#include "output/hang_output.hpp"

#include <fmt/format.h>

#include "util/readable_duration.hpp"

namespace npkit {
namespace {

// The rank's wait: "5.000 s"; ">= 125.727 us" where the capture end is only its last record (a
// live file); "15.200 s so far" where its process still ran when read.
std::string time_cell(const RankAtStall& a) {
  if (a.so_far_ns != kUnknownTime) return readable_duration(a.so_far_ns) + " so far";
  if (a.before_end_ns == kUnknownTime) return "-";
  return (a.at_least ? ">= " : "") + readable_duration(a.before_end_ns);
}

void rank_rows(const CommunicatorStall& c, bool with_comm, TextTable& t) {
  for (const auto& a : c.ranks) {
    std::vector<std::string> row;
    if (with_comm) row.push_back(c.comm->scope);
    row.insert(row.end(), {std::to_string(a.rank), std::string(stall_state_name(a.state)),
                           a.last_completed.empty() ? "-" : a.last_completed, time_cell(a),
                           a.detail.empty() ? "-" : a.detail});
    t.add_row(std::move(row));
  }
}

const std::vector<std::string> kColumns = {"rank", "state", "last completed", "before capture end",
                                           "detail"};

// Without kernel events a rank's last operation is the last it enqueued.
std::vector<std::string> columns_of(const CommunicatorStall& c) {
  std::vector<std::string> columns = kColumns;
  if (!c.completion_known) columns[2] = "last enqueued";
  return columns;
}

// "comm X (2 ranks): STALLED at AllReduce seq 10"; "(1 of 2 ranks with data): cannot tell; the
// ranks with data stopped at ..." where ranks lack data; "cannot tell" where no rank is stopped
// and some lack data or their completion is unknown.
std::string heading(const CommunicatorStall& c) {
  const std::int32_t n = c.comm->nranks;
  const std::string size =
      c.ranks_without_data.empty()
          ? fmt::format("{} ranks", n)
          : fmt::format("{} of {} ranks with data",
                        n - static_cast<std::int32_t>(c.ranks_without_data.size()), n);
  std::string state = c.stalled         ? "STALLED at " + c.label
                      : c.cannot_tell() ? std::string("cannot tell")
                                        : std::string("nothing stuck");
  if (c.stalled && !c.ranks_without_data.empty()) {
    state = "cannot tell; the ranks with data stopped at " + c.label;
  }
  return fmt::format("{} ({}): {}", c.comm->scope, size, state);
}

void rank_list_json(JsonWriter& w, const char* key, const std::vector<std::int32_t>& ranks) {
  w.values(key, ranks);
}

}  // namespace

TextTable hang_rank_table(const CommunicatorStall& stall) {
  TextTable t;
  t.columns = columns_of(stall);
  rank_rows(stall, false, t);
  return t;
}

void append_hang_text(const HangAnalysis& hang, OutputFormat format, std::string& out) {
  if (format == OutputFormat::kCsv) {
    TextTable t;
    t.columns = {"comm"};
    t.columns.insert(t.columns.end(), kColumns.begin(), kColumns.end());
    for (const auto& c : hang.comms) rank_rows(c, true, t);
    render_table(t, format, out);
    return;
  }
  if (!hang.judged) {
    render_line(
        "Where it stopped: not known (the input does not record operations as they start and "
        "finish; .npkt captures do)",
        format, out);
    return;
  }
  for (const auto& c : hang.comms) {
    render_section_line(heading(c), format, out);
    render_line("  " + c.verdict, format, out);
    render_table(hang_rank_table(c), format, out);
  }
}

void write_hang_json(const HangAnalysis& hang, JsonWriter& w) {
  w.field("stalled", hang.stalled());
  w.field("cannot_tell", hang.cannot_tell());
  w.field("judged", hang.judged);
  w.objects("communicators", hang.comms, [&](const auto& c) {
    w.field("comm", c.comm->scope);
    w.field("nranks", c.comm->nranks);
    w.field("stalled", c.stalled);
    w.field("cannot_tell", c.cannot_tell());
    rank_list_json(w, "ranks_without_data", c.ranks_without_data);
    w.field("completion_known", c.completion_known);
    if (c.completion_unknown) w.field("completion_unknown", true);
    if (c.stalled) {
      w.field("func", c.func);
      w.field("seq", c.seq);
      w.field("label", c.label);
      rank_list_json(w, "ranks_missing", c.ranks_missing);
      rank_list_json(w, "ranks_in_flight", c.ranks_in_flight);
      rank_list_json(w, "ranks_completed", c.ranks_completed);
      w.field("typical_ns", c.typical_ns);
    } else {
      w.field("last_completed", c.last_completed);
    }
    w.field("alignment", c.alignment);
    if (!c.divergence.empty()) w.field("divergence", c.divergence);
    if (!c.comm->sample.empty()) {
      w.field("sample", c.comm->sample);
      w.field("last_gpu_evidence", c.last_gpu_evidence);
    }
    w.field("verdict", c.verdict);
    w.objects("ranks", c.ranks, [&](const auto& a) {
      w.field("rank", a.rank);
      w.field("state", std::string(stall_state_name(a.state)));
      w.field("detail", a.detail);
      if (!a.other.empty()) w.field("other", a.other);
      w.field("last_completed", a.last_completed);
      if (a.since_ns != kUnknownTime) w.field("since_ns", a.since_ns);
      if (a.since_aligned_ns != kUnknownTime) w.field("since_aligned_ns", a.since_aligned_ns);
      if (a.before_end_ns != kUnknownTime) w.field("before_end_ns", a.before_end_ns);
      w.field("before_end_at_least", a.at_least);
      if (a.so_far_ns != kUnknownTime) w.field("waited_so_far_ns", a.so_far_ns);
      if (a.waits_on >= 0) w.field("waits_on", a.waits_on);
    });
  });
}

}  // namespace npkit
