#include "output/latency_columns.hpp"

namespace npkit {

TableSpec<LatencyBucket> latency_columns() {
  using B = LatencyBucket;
  constexpr auto kDuration = CellUnit::kDuration;
  return {
      field_column("collective", "collective", &B::func),
      name_column("algo", "algo", &B::algo),
      name_column("proto", "proto", &B::proto),
      field_column("bucket", "bucket_bytes", &B::bucket_bytes, CellUnit::kSize),
      field_column("count", "count", &B::count),
      field_column("min", "min_ns", &B::min_ns, kDuration),
      field_column("p10", "p10_ns", &B::p10_ns, kDuration),
      field_column("p50", "p50_ns", &B::p50_ns, kDuration),
      field_column("p90", "p90_ns", &B::p90_ns, kDuration),
      field_column("p99", "p99_ns", &B::p99_ns, kDuration),
      field_column("max", "max_ns", &B::max_ns, kDuration),
  };
}

}  // namespace npkit
