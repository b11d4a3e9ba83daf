// NCCL data type names as the profiler records them, their sizes, and the names nccl-tests
// prints in its "type" column (its test_typenames table: int8 uint8 int32 uint32 int64 uint64
// half float double bfloat16 f8e4m3 f8e5m2, in ncclDataType_t order).
#include "run/nccl_names.hpp"

#include <catch2/catch.hpp>

TEST_CASE("nccl names: nccl-tests type names and element sizes", "[npkt][model]") {
  struct Expected {
    const char* nccl;
    const char* nccl_tests;
    std::uint32_t size;
  };
  const Expected table[] = {
      {"ncclInt8", "int8", 1},         {"ncclUint8", "uint8", 1},
      {"ncclInt32", "int32", 4},       {"ncclUint32", "uint32", 4},
      {"ncclInt64", "int64", 8},       {"ncclUint64", "uint64", 8},
      {"ncclFloat16", "half", 2},      {"ncclFloat32", "float", 4},
      {"ncclFloat64", "double", 8},    {"ncclBfloat16", "bfloat16", 2},
      {"ncclFloat8e4m3", "f8e4m3", 1}, {"ncclFloat8e5m2", "f8e5m2", 1},
  };
  for (const auto& t : table) {
    INFO(t.nccl);
    CHECK(npkit::nccl_tests_type_name(t.nccl) == t.nccl_tests);
    CHECK(npkit::nccl_datatype_size(t.nccl) == t.size);
  }
  // A name NCCL may record that nccl-tests has no name for is shown as recorded.
  CHECK(npkit::nccl_tests_type_name("Unknown") == "Unknown");
  CHECK(npkit::nccl_datatype_size("Unknown") == 0);
}
