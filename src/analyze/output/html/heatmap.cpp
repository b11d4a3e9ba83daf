#include "output/html/heatmap.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "output/html/svg.hpp"

namespace npkit::html {

void render_heatmap(const Heatmap& model, std::string& out) {
  constexpr double kWidth = 960;
  constexpr double kLeft = 96;
  constexpr double kTop = 34;
  const std::size_t rows = model.rows.size();
  const std::size_t cols = model.columns.size();
  const double plot_width = kWidth - kLeft - 20;
  const double cell_h = rows == 0 ? 10 : std::clamp(360.0 / static_cast<double>(rows), 3.0, 18.0);
  const double cell_w = cols == 0 ? plot_width : plot_width / static_cast<double>(cols);
  const double height = kTop + cell_h * static_cast<double>(rows) + 44;
  Svg svg(out, kWidth, height, "heatmap", model.title);
  if (rows == 0 || cols == 0) {
    svg.text(kLeft + plot_width / 2, kTop + 20, "no data", Anchor::kMiddle, "empty");
    return;
  }
  std::vector<double> finite;
  for (const auto& row : model.values) {
    for (double v : row) {
      if (std::isfinite(v)) finite.push_back(v);
    }
  }
  std::sort(finite.begin(), finite.end());
  const double largest = finite.empty() ? 0 : finite.back();
  // Nearest rank: the ceil(0.98 n)-th smallest value.
  const double top =
      finite.empty()
          ? 0
          : finite[static_cast<std::size_t>(std::ceil(0.98 * static_cast<double>(finite.size()))) -
                   1];
  // Colour scale: 10 steps from 0 to top.
  svg.begin_group("colour-scale");
  svg.text(kLeft, 12, format_value(0, model.unit), Anchor::kStart, "tick-label");
  for (int i = 0; i < 10; ++i) {
    svg.rect(kLeft + 40 + 16 * i, 4, 16, 10, sequential_colour((i + 0.5) / 10), "scale-step");
  }
  svg.text(kLeft + 40 + 165, 12, (top < largest ? "≥ " : "") + format_value(top, model.unit),
           Anchor::kStart, "tick-label");
  svg.rect(kLeft + 300, 4, 10, 10, "#e6e6e6", "scale-step");
  svg.text(kLeft + 315, 12, "no data", Anchor::kStart, "tick-label");
  svg.end_group();

  svg.begin_group("cells");
  for (std::size_t r = 0; r < rows; ++r) {
    const double y = kTop + cell_h * static_cast<double>(r);
    for (std::size_t c = 0; c < cols; ++c) {
      const double v = r < model.values.size() && c < model.values[r].size()
                           ? model.values[r][c]
                           : std::numeric_limits<double>::quiet_NaN();
      const double x = kLeft + cell_w * static_cast<double>(c);
      const std::string tooltip =
          fmt::format("{} · {}: {}", model.rows[r], model.columns[c],
                      std::isfinite(v) ? format_value(v, model.unit) : std::string("no data"));
      if (std::isfinite(v)) {
        svg.rect(x, y, cell_w, cell_h, sequential_colour(top > 0 ? v / top : 0), "cell", tooltip);
      } else {
        svg.rect(x, y, cell_w, cell_h, "#e6e6e6", "cell missing", tooltip);
      }
    }
  }
  svg.end_group();

  const std::size_t row_every =
      std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(11.0 / cell_h)));
  for (std::size_t r = 0; r < rows; r += row_every) {
    svg.text(kLeft - 6, kTop + cell_h * (static_cast<double>(r) + 0.5) + 4, model.rows[r],
             Anchor::kEnd, "tick-label");
  }
  const double bottom = kTop + cell_h * static_cast<double>(rows);
  const std::size_t col_every =
      std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(40.0 / cell_w)));
  for (std::size_t c = 0; c < cols; c += col_every) {
    svg.text(kLeft + cell_w * (static_cast<double>(c) + 0.5), bottom + 14,
             std::to_string(model.first_item + c * model.items_per_column), Anchor::kMiddle,
             "tick-label");
  }
  svg.text(kLeft + plot_width / 2, bottom + 32, model.column_axis, Anchor::kMiddle, "axis-title");
  svg.vertical_text(18, kTop + cell_h * static_cast<double>(rows) / 2, model.row_axis,
                    "axis-title");
}

namespace {

// Buckets of `per` consecutive indexes out of `n`: the largest non-NaN value of each.
std::vector<double> merge_max(const std::vector<double>& values, std::size_t per,
                              std::size_t buckets) {
  std::vector<double> merged(buckets, std::numeric_limits<double>::quiet_NaN());
  for (std::size_t i = 0; i < values.size(); ++i) {
    double& m = merged[i / per];
    if (std::isfinite(values[i]) && !(m >= values[i])) m = values[i];
  }
  return merged;
}

std::vector<std::string> bucket_labels(const std::vector<std::string>& names, std::size_t per,
                                       std::size_t buckets, const BucketLabel& label,
                                       const char* what) {
  std::vector<std::string> out;
  for (std::size_t b = 0; b < buckets; ++b) {
    const std::size_t first = b * per;
    const std::size_t last = std::min(names.size(), first + per) - 1;
    out.push_back(
        label ? label(first, last)
              : fmt::format("{} … {} ({} {})", names[first], names[last], last - first + 1, what));
  }
  return out;
}

}  // namespace

std::size_t bucket_columns(Heatmap& h, std::size_t max_columns, const BucketLabel& label) {
  const std::size_t cols = h.columns.size();
  if (max_columns == 0 || cols <= max_columns) return 1;
  const std::size_t per = (cols + max_columns - 1) / max_columns;
  const std::size_t buckets = (cols + per - 1) / per;
  for (auto& row : h.values) {
    row.resize(cols, std::numeric_limits<double>::quiet_NaN());
    row = merge_max(row, per, buckets);
  }
  h.columns = bucket_labels(h.columns, per, buckets, label, "columns");
  h.items_per_column *= per;
  return per;
}

std::size_t bucket_rows(Heatmap& h, std::size_t max_rows, const BucketLabel& label) {
  const std::size_t rows = h.rows.size();
  if (max_rows == 0 || rows <= max_rows) return 1;
  const std::size_t per = (rows + max_rows - 1) / max_rows;
  const std::size_t buckets = (rows + per - 1) / per;
  const std::size_t cols = h.columns.size();
  std::vector<std::vector<double>> merged(
      buckets, std::vector<double>(cols, std::numeric_limits<double>::quiet_NaN()));
  for (std::size_t r = 0; r < rows && r < h.values.size(); ++r) {
    for (std::size_t c = 0; c < cols && c < h.values[r].size(); ++c) {
      double& m = merged[r / per][c];
      const double v = h.values[r][c];
      if (std::isfinite(v) && !(m >= v)) m = v;
    }
  }
  h.values = std::move(merged);
  h.rows = bucket_labels(h.rows, per, buckets, label, "rows");
  return per;
}

}  // namespace npkit::html
