// The timeline rows of every input (output/html/timeline_layout.hpp): groups by rank, rows by
// kind and channel, lanes for overlaps, nesting, merged channels and thinned ranks. The expected
// rows and spans are worked out by hand from the items.

#include <catch2/catch.hpp>

#include "output/html/timeline_layout.hpp"

using npkit::html::lay_out_timeline;
using npkit::html::Timeline;
using npkit::html::TimelineItem;

namespace {

TimelineItem item(std::int32_t rank, std::uint8_t kind, std::uint32_t channel, std::int64_t start,
                  std::int64_t end, bool leaf = true) {
  TimelineItem it;
  it.rank = rank;
  it.kind = kind;
  it.channel = channel;
  it.start = start;
  it.end = end;
  it.leaf = leaf;
  it.label = std::to_string(rank) + "/" + std::to_string(start);
  return it;
}

std::string row_label(std::uint8_t kind, std::optional<std::uint32_t> channel) {
  const std::string name = kind == 0 ? "a" : "b";
  return channel ? name + " " + std::to_string(*channel) : name + " (all)";
}

std::vector<std::string> row_labels(const Timeline& t) {
  std::vector<std::string> out;
  for (const auto& r : t.rows) out.push_back(t.groups[r.group] + ": " + r.label);
  return out;
}

std::vector<std::uint32_t> span_rows(const Timeline& t) {
  std::vector<std::uint32_t> out;
  for (const auto& s : t.spans) out.push_back(s.row);
  return out;
}

}  // namespace

TEST_CASE("timeline layout: ranks, rows by kind and channel, lanes and nesting", "[html]") {
  // Rank 1 channel 2: [0,100] and [50,150] overlap without nesting: a second lane. Rank 0
  // channel 5: [10,50] nests in [0,100] (not leaves): one row. Rank 0 kind 1 channel 0: its own
  // row after kind 0. Placed in start order, longer first: 1/0, 0/0, 0/10 (to 50), 0/10 (kind
  // 1, to 20), 1/50.
  std::vector<TimelineItem> items = {item(1, 0, 2, 0, 100), item(0, 0, 5, 0, 100, false),
                                     item(0, 1, 0, 10, 20), item(0, 0, 5, 10, 50, false),
                                     item(1, 0, 2, 50, 150)};
  const Timeline t = lay_out_timeline(items, row_label, 256);
  CHECK(t.groups == std::vector<std::string>{"rank 0", "rank 1"});
  CHECK(row_labels(t) ==
        std::vector<std::string>{"rank 0: a 5", "rank 0: b 0", "rank 1: a 2", "rank 1: a 2 +1"});
  CHECK(span_rows(t) == std::vector<std::uint32_t>{2, 0, 0, 1, 3});
  CHECK(t.spans[2].end_ns == 50);
  CHECK(t.note.empty());
}

TEST_CASE("timeline layout: too many rows merge each rank's channels into at most 4 lanes",
          "[html]") {
  // Six overlapping spans on six channels: 6 rows > 5, so the channels share rows; lanes 0..3,
  // the last two spans drawn on lane 3.
  std::vector<TimelineItem> items;
  for (std::uint32_t c = 0; c < 6; ++c) items.push_back(item(0, 0, c, 0, 10 + c));
  const Timeline t = lay_out_timeline(items, row_label, 5);
  CHECK(row_labels(t) == std::vector<std::string>{"rank 0: a (all)", "rank 0: a (all) +1",
                                                  "rank 0: a (all) +2", "rank 0: a (all) +3"});
  // Longest first: channels 5, 4, 3, 2, 1, 0.
  CHECK(span_rows(t) == std::vector<std::uint32_t>{0, 1, 2, 3, 3, 3});
  CHECK(t.spans[0].label == "0/0");
  CHECK(t.spans[0].end_ns == 15);
  CHECK(t.note.find("each rank's channels share rows (at most 4 lanes") != std::string::npos);
  CHECK(t.note.find("One rank in") == std::string::npos);
}

TEST_CASE("timeline layout: still too many rows keep one rank in k", "[html]") {
  // Five ranks of one row each, at most 2 rows: merging leaves 5 rows, so one rank in
  // ceil(5 / 2) = 3 is kept: ranks 0 and 3.
  std::vector<TimelineItem> items;
  for (std::int32_t r = 0; r < 5; ++r) items.push_back(item(r, 0, 0, 0, 10));
  const Timeline t = lay_out_timeline(items, row_label, 2);
  CHECK(t.groups == std::vector<std::string>{"rank 0", "rank 3"});
  CHECK(row_labels(t) == std::vector<std::string>{"rank 0: a (all)", "rank 3: a (all)"});
  CHECK(t.spans.size() == 2);
  CHECK(t.note.find("One rank in 3 is shown.") != std::string::npos);
}
