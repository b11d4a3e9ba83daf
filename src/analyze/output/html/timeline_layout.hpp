// output/html/timeline_layout.hpp — puts the spans of one collective instance on timeline rows,
// the same way for every input: a group per rank, rows per (kind, channel), lanes where spans of
// one row overlap.
// Contract:
// - Items are placed in order of start (longer first on equal starts) with a LanePacker per row
//   (output/trace/trace_lanes.hpp): a `leaf` item takes no later item inside it; others let
//   contained items nest on their row (drawn over them). Groups are ranks ascending, rows in
//   (kind, channel) order, a row's extra lanes labelled "<row> +N".
// - With more than `max_rows` rows, each rank's channels of one kind share rows (at most 4
//   lanes; later overlapping items drawn on the last); with still more, every k-th rank is kept.
//   `row_label(kind, channel)` names a row; channel is nullopt where channels share rows.
// - The returned Timeline has groups, rows and spans; its note says what was merged or left out
//   ("" when nothing was). Title, origin and the rest of the note are the caller's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "output/html/report_model.hpp"

namespace npkit::html {

struct TimelineItem {
  std::int32_t rank = 0;
  std::uint8_t kind = 0;  // row kind, drawn in ascending order within a rank
  std::uint32_t channel = 0;
  bool leaf = true;
  std::int64_t start = 0;
  std::int64_t end = 0;
  std::string category;
  std::string label;
  std::string tooltip;
};

using RowLabel = std::function<std::string(std::uint8_t kind, std::optional<std::uint32_t>)>;

Timeline lay_out_timeline(std::vector<TimelineItem> items, const RowLabel& row_label,
                          std::size_t max_rows);

}  // namespace npkit::html
