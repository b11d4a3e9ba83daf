#include <vector>

#include "rank_modes.hpp"
#include "report.hpp"

namespace npkit::driver {

void run_launch_cost(RankRun& run) {
  const Options& options = run.options();
  const CollKind kind = options.colls.front();
  const int calls = options.launch_cost_calls;
  if (run.rank() == 0) run.print(cost_table_header(kind, run.nranks(), calls));
  for (std::size_t bytes : size_sweep(options.min_bytes, options.max_bytes, options.step_factor)) {
    const CollShape shape = shape_for(kind, bytes, kTypeSize, run.nranks());
    if (shape.count == 0) continue;
    for (int i = 0; i < options.warmup; ++i) {
      run.call(kind, shape, CallPhase::kWarmup);
      run.synchronize();
    }
    run.barrier();
    for (int i = 0; i < calls; ++i) {
      run.slot().cost_us[i] = run.call(kind, shape, CallPhase::kCost);
      run.synchronize();
    }
    run.barrier();
    if (run.rank() != 0) continue;
    std::vector<double> samples;
    samples.reserve(static_cast<std::size_t>(calls) * static_cast<std::size_t>(run.nranks()));
    for (int rank = 0; rank < run.nranks(); ++rank) {
      const RankSlot& slot = run.slot_of(rank);
      samples.insert(samples.end(), slot.cost_us, slot.cost_us + calls);
    }
    CostRow row;
    row.kind = kind;
    row.shape = shape;
    row.nranks = run.nranks();
    row.calls = static_cast<int>(samples.size());
    row.median_us = percentile(samples, 50.0);
    row.p10_us = percentile(samples, 10.0);
    row.p90_us = percentile(samples, 90.0);
    run.print(cost_table_row(row));
    run.csv(cost_csv_row(row));
  }
}

}  // namespace npkit::driver
