#include <chrono>
#include <optional>

#include "device_errors.hpp"
#include "rank_modes.hpp"
#include "report.hpp"

namespace npkit::driver {
namespace {

// Warm-up, then the nccl-tests timed loop; microseconds per call on this rank.
double time_calls(RankRun& run, CollKind kind, const CollShape& shape) {
  const Options& options = run.options();
  for (int i = 0; i < options.warmup; ++i) run.call(kind, shape, CallPhase::kWarmup);
  run.synchronize();
  run.barrier();
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < options.iters; ++i) run.call(kind, shape, CallPhase::kTimed);
  const auto stop = run.synchronize();
  const double elapsed_us = std::chrono::duration<double, std::micro>(stop - start).count();
  return elapsed_us / options.iters;
}

// Runs every size of one collective; returns the wrong values found (rank 0: over all ranks).
std::int64_t sweep_collective(RankRun& run, CollKind kind) {
  const Options& options = run.options();
  if (run.rank() == 0) run.print(table_header(kind, run.nranks()));
  double busbw_sum = 0.0;
  int rows = 0;
  std::int64_t wrong_total = 0;
  for (std::size_t bytes : size_sweep(options.min_bytes, options.max_bytes, options.step_factor)) {
    const CollShape shape = shape_for(kind, bytes, kTypeSize, run.nranks());
    if (shape.count == 0) continue;
    run.slot().time_us = time_calls(run, kind, shape);
    run.slot().wrong = options.check ? run.checked_call(kind, shape) : 0;
    run.barrier();
    if (run.rank() != 0) continue;
    Row row;
    row.kind = kind;
    row.shape = shape;
    row.nranks = run.nranks();
    std::int64_t wrong = 0;
    for (int rank = 0; rank < run.nranks(); ++rank) {
      row.time_us += run.slot_of(rank).time_us / run.nranks();
      wrong += run.slot_of(rank).wrong;
    }
    if (options.check) row.wrong = wrong;
    wrong_total += wrong;
    busbw_sum += busbw_gbps(row);
    ++rows;
    run.print(table_row(row));
    run.csv(csv_row(row));
  }
  if (run.rank() == 0) {
    const std::optional<std::int64_t> footer_wrong =
        options.check ? std::optional<std::int64_t>(wrong_total) : std::nullopt;
    run.print(table_footer(rows > 0 ? busbw_sum / rows : 0.0, footer_wrong));
  }
  return wrong_total;
}

}  // namespace

std::size_t buffer_bytes(const Options& options) {
  // A loop runs one size; shapes never need more than their size (coll_shape.hpp).
  return options.loop_calls > 0 ? options.min_bytes : options.max_bytes;
}

std::int64_t run_sweep(RankRun& run) {
  std::int64_t wrong = 0;
  for (CollKind kind : run.options().colls) wrong += sweep_collective(run, kind);
  return wrong;
}

}  // namespace npkit::driver
