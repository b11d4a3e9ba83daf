// output/html/heatmap.hpp — a rows × columns grid of values in colour (e.g. rank × collective
// instance arrival skew).
// Contract: appends one <svg class="plot heatmap"> to `out` with exactly one
// <rect class="cell"> per (row, column) of the model: coloured by sequential_colour(value / top)
// — top = the 98th percentile of the values (nearest rank; the largest value when there are
// fewer than 50), so that one outlier does not leave every other cell pale; values above it are
// drawn darkest and the scale says "≥ top"; a top of 0 colours every cell pale — or in grey with
// class "cell missing" for NaN; each with a tooltip "row · column: value". Row labels on the left
// (every k-th when they do not fit), column numbers below, a colour scale from 0 to the largest
// value above. Column ticks number the items a column starts with (first_item +
// c × items_per_column). The renderer never aggregates: callers bucket columns or rows first and
// say so in the note (bucket_columns helps).
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "output/html/report_model.hpp"

namespace npkit::html {

void render_heatmap(const Heatmap& heatmap, std::string& out);

// Names a bucket of the original columns (or rows) first..last.
using BucketLabel = std::function<std::string(std::size_t first, std::size_t last)>;

// Merges consecutive columns into at most `max_columns` buckets of equal width (the last may be
// narrower): a bucket's value per row is the largest non-NaN value of its columns (NaN when it
// has none), its label label(first, last) — by default "FIRST … LAST (k columns)" of the
// original labels; items_per_column is multiplied by the bucket width. Returns the number of
// columns per bucket (1 when nothing was merged).
std::size_t bucket_columns(Heatmap& heatmap, std::size_t max_columns,
                           const BucketLabel& label = {});
// The same for rows (default label "FIRST … LAST (k rows)").
std::size_t bucket_rows(Heatmap& heatmap, std::size_t max_rows, const BucketLabel& label = {});

}  // namespace npkit::html
