#include <chrono>
#include <optional>
#include <string>

#include "device_errors.hpp"
#include "rank_modes.hpp"
#include "report.hpp"

namespace npkit::driver {

void run_loop(RankRun& run) {
  const Options& options = run.options();
  const CollKind kind = options.colls.front();
  const CollShape shape = shape_for(kind, options.min_bytes, kTypeSize, run.nranks());
  if (shape.count == 0) {
    throw DriverError("--loop: " + std::to_string(options.min_bytes) + " B of " +
                      std::string(coll_name(kind)) + " leaves a count of 0 on " +
                      std::to_string(run.nranks()) + " ranks");
  }
  if (run.rank() == 0) run.print(table_header(kind, run.nranks()));
  run.barrier();
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < options.loop_calls; ++i) {
    run.call(kind, shape, CallPhase::kLoop);
    run.synchronize();
  }
  const auto stop = std::chrono::steady_clock::now();
  run.slot().time_us =
      std::chrono::duration<double, std::micro>(stop - start).count() / options.loop_calls;
  run.barrier();
  if (run.rank() != 0) return;
  Row row;
  row.kind = kind;
  row.shape = shape;
  row.nranks = run.nranks();
  for (int rank = 0; rank < run.nranks(); ++rank) {
    row.time_us += run.slot_of(rank).time_us / run.nranks();
  }
  run.print(table_row(row));
  run.csv(csv_row(row));
  run.print(table_footer(busbw_gbps(row), std::nullopt));
}

}  // namespace npkit::driver
