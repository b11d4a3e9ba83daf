// The latency distributions' column spec (output/latency_columns.hpp) in text and JSON; the
// bucket and expected cells written out by hand.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "output/json_writer.hpp"
#include "output/latency_columns.hpp"

namespace {

// Legacy dumps name no protocol: proto is empty.
npkit::LatencyBucket ring_bucket() {
  npkit::LatencyBucket b;
  b.func = "AllReduce";
  b.algo = "RING";
  b.bucket_bytes = 1048576;
  b.count = 8;
  b.min_ns = 900;
  b.p10_ns = 1000;
  b.p50_ns = 12500;
  b.p90_ns = 250000;
  b.p99_ns = 999999;
  b.max_ns = 2000000000;
  return b;
}

}  // namespace

TEST_CASE("latency columns: text reads sizes and durations, a dash for no protocol", "[output]") {
  const npkit::TextTable t =
      npkit::spec_table(npkit::latency_columns(), std::vector{ring_bucket()}, npkit::kTextView);
  CHECK(t.columns == std::vector<std::string>{"collective", "algo", "proto", "bucket", "count",
                                              "min", "p10", "p50", "p90", "p99", "max"});
  CHECK(t.rows == std::vector<std::vector<std::string>>{{"AllReduce", "RING", "-", "1 MiB", "8",
                                                         "900 ns", "1.000 us", "12.50 us",
                                                         "250.0 us", "1.000 ms", "2.000 s"}});
}

TEST_CASE("latency columns: JSON keeps the empty protocol and the nanoseconds as they are",
          "[output]") {
  std::string out;
  npkit::JsonWriter w(out, npkit::JsonLayout::kOneLine);
  w.begin_object();
  npkit::write_spec_fields(w, npkit::latency_columns(), ring_bucket());
  w.end_object();
  CHECK(out ==
        "{\"collective\":\"AllReduce\",\"algo\":\"RING\",\"proto\":\"\",\"bucket_bytes\":1048576,"
        "\"count\":8,\"min_ns\":900,\"p10_ns\":1000,\"p50_ns\":12500,\"p90_ns\":250000,"
        "\"p99_ns\":999999,\"max_ns\":2000000000}\n");
}
