// Every real NPKit data set (tests/data/npkit-real, samples/npkit-h200) reads without error, and
// `info --format json` agrees with a count made here independently from the raw files: records =
// file size / record size, TIME_SYNC records by id, and — since every set pairs cleanly (their
// SOURCE.txt) — pairs = (records − sync records) / 2.
#include <simdjson.h>
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "support/cli_runner.hpp"
#include "support/real_dump.hpp"
#include "support/temp_dir.hpp"
#include "support/test_data.hpp"

namespace fs = std::filesystem;

namespace {

struct RawCount {
  std::uint64_t records = 0;
  std::uint64_t sync = 0;
  std::uint64_t negative_step_sizes = 0;  // size ≥ 2^31 outside the collective-level events
};

RawCount count_raw(const std::string& dump, unsigned cpu_record_size, std::uint8_t sync_gpu,
                   std::uint8_t sync_cpu) {
  RawCount c;
  for (const auto& e : fs::directory_iterator(dump)) {
    const std::string name = e.path().filename().string();
    const bool gpu = name.rfind("gpu_events_", 0) == 0;
    const bool cpu = name.rfind("cpu_events_", 0) == 0;
    if (!gpu && !cpu) continue;
    const unsigned size = gpu ? 16 : cpu_record_size;
    std::ifstream in(e.path(), std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    REQUIRE(bytes.size() % size == 0);
    for (std::size_t off = 0; off < bytes.size(); off += size) {
      ++c.records;
      const auto id = static_cast<std::uint8_t>(bytes[off]);
      if (gpu && (id == sync_gpu || id == sync_cpu)) ++c.sync;
      const bool collective_level = id >= 0x01 && id <= 0x06;  // ALL_REDUCE_RING / TREE_*
      const auto top = static_cast<std::uint8_t>(bytes[off + 4]);
      if (gpu && !collective_level && top >= 0x80) ++c.negative_step_sizes;
    }
  }
  return c;
}

void check_set(const std::string& relative, unsigned cpu_record_size, const std::string& table,
               std::uint64_t ranks) {
  const std::string dir = npkit::test::require_path(npkit::test::source_path(relative));
  npkit::test::TempDir tmp;
  const std::string dump = npkit::test::rebuild_from_manifest(dir, tmp);
  const RawCount raw = count_raw(dump, cpu_record_size, 0x33, 0x34);
  const auto run = npkit::test::run_cli({"info", dump, "--format", "json", "--quiet"});
  INFO(relative << "\n" << run.err);
  REQUIRE(run.exit_code == 0);
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.parse(run.out);
  CHECK(doc["details"]["event_table"]["name"].get_string().value() == table);
  CHECK(doc["details"]["cpu_record_size"]["bytes"].get_uint64().value() == cpu_record_size);
  CHECK(doc["spans"]["totals"]["ranks"].get_uint64().value() == ranks);
  CHECK(doc["spans"]["totals"]["records"].get_uint64().value() == raw.records);
  CHECK(doc["spans"]["totals"]["pairs"].get_uint64().value() == (raw.records - raw.sync) / 2);
  CHECK(doc["spans"]["totals"]["unmatched"].get_uint64().value() == 0);
  CHECK(doc["spans"]["totals"]["dropped"].get_uint64().value() == 0);
  CHECK(doc["spans"]["totals"]["unknown_ids"].get_uint64().value() == 0);
  CHECK(doc["spans"]["totals"]["overflowed_buffers"].get_uint64().value() == 0);
  // A complete directory (empty files included) raises no warning, except for the step records
  // whose byte count NPKit wrote as a wrapped negative number (counted here from the raw bytes).
  std::uint64_t negative_warned = 0;
  for (simdjson::dom::element w : doc["warnings"].get_array()) {
    CHECK(w["category"].get_string().value() == "negative sizes");
    negative_warned += w["count"].get_uint64().value();
  }
  CHECK(negative_warned == raw.negative_step_sizes);
}

}  // namespace

TEST_CASE("real dump: NCCL 2.20 port ring, 2 ranks, 18-byte CPU records", "[real]") {
  check_set("tests/data/npkit-real/B_nccl2.20port-ring_2rank_cpu18B", 18, "nccl-2.20-port", 2);
}

TEST_CASE("real dump: NCCL 2.20 port tree split, 4 ranks, 22-byte CPU records", "[real]") {
  check_set("tests/data/npkit-real/C_nccl2.20port-treesplit_4rank_cpu22B", 22, "nccl-2.20-port", 4);
}

TEST_CASE("real dump: H200 ring all-reduce", "[real]") {
  check_set("samples/npkit-h200/ring_simple", 16, "nccl", 2);
}

TEST_CASE("real dump: H200 tree all-reduce", "[real]") {
  check_set("samples/npkit-h200/tree_simple", 16, "nccl", 2);
}

TEST_CASE("real dump: H200 alltoall", "[real]") {
  check_set("samples/npkit-h200/alltoall", 16, "nccl", 2);
}
