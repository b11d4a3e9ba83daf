// output/html/regression_bars.hpp — the regression view of `diff`: per size, the change of a
// metric between two runs against its noise band.
// Contract: appends one <svg class="plot regression-bars"> to `out`. Per bar: a grey
// <rect class="noise"> from noise_low_percent to noise_high_percent and a <rect class="bar ...">
// from 0 to change_percent, with the class and colour of its verdict: "regression" (red) when
// the change lies outside the band on the bad side (below it when higher_is_better, above it
// otherwise), "improvement" (green) outside on the good side, "within-noise" (grey) inside.
// Tooltips give the label, the change, the band and the verdict. The value axis is linear in
// percent and always includes 0 and every band.
#pragma once

#include <string>
#include <string_view>

#include "output/html/report_model.hpp"

namespace npkit::html {

// "regression", "improvement" or "within-noise" for one bar (the contract's rule).
std::string_view regression_verdict(const RegressionBar& bar, bool higher_is_better);

void render_regression_bars(const RegressionBars& bars, std::string& out);

}  // namespace npkit::html
