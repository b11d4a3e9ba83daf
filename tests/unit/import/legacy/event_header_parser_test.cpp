// parse_event_header: the generator's rule (npkit-formats.md 4.4) and the edge cases of 5.4.
#include <catch2/catch.hpp>

#include "run/event_table.hpp"

using npkit::Diagnostics;
using npkit::EventKind;
using npkit::SyncRole;

TEST_CASE("header: guard, switch name, TAB and 0X prefix", "[ingest][event_header]") {
  const std::string text =
      "#ifndef NPKIT_EVENT_H_\n"
      "#define NPKIT_EVENT_H_\n"  // 2 fields: skipped
      "\n"
      "#define NPKIT_PRIM_COLLECT_DATA_PROCESS_TIME 0x4F\n"  // no NPKIT_EVENT_ prefix: skipped
      "#define NPKIT_EVENT_ALL_REDUCE_RING_ENTRY 0x1\n"
      "#define NPKIT_EVENT_ALL_REDUCE_RING_EXIT\t0X2\n"  // TAB (RCCL) and 0X (2.20 port)
      "#define NPKIT_EVENT_TIME_SYNC_GPU   0x33\n"
      "#define NPKIT_EVENT_TIME_SYNC_CPU 52\n"  // decimal 52 = 0x34
      "// #define NPKIT_EVENT_COMMENTED 0x60\n"
      "#endif\n";
  Diagnostics diag;
  auto t = npkit::parse_event_header(text, "npkit_event.h", diag);
  REQUIRE(t.ok());
  CHECK(t->defined_count() == 4);
  CHECK(t->label() == "npkit_event.h");
  CHECK(t->operator[](0x01).full == "NPKIT_EVENT_ALL_REDUCE_RING_ENTRY");
  CHECK(t->operator[](0x02).kind == EventKind::kExit);
  CHECK(t->operator[](0x01).base == t->operator[](0x02).base);
  CHECK(t->operator[](0x33).sync == SyncRole::kGpuTimeSync);
  CHECK(t->operator[](0x34).sync == SyncRole::kCpuTimeSync);
  CHECK_FALSE(t->operator[](0x4F).defined);
  CHECK_FALSE(t->operator[](0x60).defined);
  CHECK(diag.total() == 0);
}

TEST_CASE("header: MSCCL++ op base lines are expanded", "[ingest][event_header]") {
  const std::string text =
      "#define NPKIT_EVENT_TIME_SYNC_GPU 0x1\n"
      "#define NPKIT_EVENT_TIME_SYNC_CPU 0x2\n"
      "#define NPKIT_EVENT_EXECUTOR_OP_BASE_ENTRY 0x1D\n"
      "#define NPKIT_EVENT_EXECUTOR_OP_BASE_EXIT 0x3B\n";
  Diagnostics diag;
  auto t = npkit::parse_event_header(text, "mscclpp.h", diag);
  REQUIRE(t.ok());
  const auto& table = *t;
  // op 0 NOP at the bases; op 11 SIGNAL at 0x1D + 11 = 0x28 and 0x3B + 11 = 0x46.
  CHECK(table[0x1D].full == "NPKIT_EVENT_EXECUTOR_NOP_ENTRY");
  CHECK(table[0x3B].full == "NPKIT_EVENT_EXECUTOR_NOP_EXIT");
  CHECK(table[0x28].full == "NPKIT_EVENT_EXECUTOR_SIGNAL_ENTRY");
  CHECK(table[0x46].full == "NPKIT_EVENT_EXECUTOR_SIGNAL_EXIT");
  CHECK(table[0x28].base == table[0x46].base);
  CHECK(table[0x01].sync == SyncRole::kGpuTimeSync);
  // 2 sync ids + 30 ops x (ENTRY, EXIT).
  CHECK(table.defined_count() == 62);
  for (int id = 0; id < 256; ++id) {
    CHECK(table[static_cast<std::uint8_t>(id)].full.find("OP_BASE") == std::string::npos);
  }
}

TEST_CASE("header: duplicate id, the last definition wins with a warning",
          "[ingest][event_header]") {
  const std::string text =
      "#define NPKIT_EVENT_FIRST_ENTRY 0x10\n"
      "#define NPKIT_EVENT_SECOND_ENTRY 0x10\n";
  Diagnostics diag;
  auto t = npkit::parse_event_header(text, "dup.h", diag);
  REQUIRE(t.ok());
  CHECK(t->operator[](0x10).full == "NPKIT_EVENT_SECOND_ENTRY");
  REQUIRE(diag.warnings().size() == 1);
  CHECK(diag.warnings()[0].count == 1);
  REQUIRE(diag.warnings()[0].examples.size() == 1);
  CHECK_THAT(diag.warnings()[0].examples[0], Catch::Contains("dup.h:2"));
}

TEST_CASE("header: values outside 0..255 are errors naming file:line", "[ingest][event_header]") {
  Diagnostics diag;
  const std::string prefix = "#define NPKIT_EVENT_A_ENTRY 0x1\n#define NPKIT_EVENT_A_EXIT 0x2\n";
  for (const char* bad : {"0x100", "256", "-1"}) {
    auto t = npkit::parse_event_header(prefix + "#define NPKIT_EVENT_B_ENTRY " + bad + "\n", "x.h",
                                       diag);
    REQUIRE_FALSE(t.ok());
    CHECK_THAT(t.error().message, Catch::Contains("x.h:3"));
    CHECK_THAT(t.error().message, Catch::Contains("NPKIT_EVENT_B_ENTRY"));
  }
}

TEST_CASE("header: a value that is not an integer is an error naming file:line",
          "[ingest][event_header]") {
  Diagnostics diag;
  auto t = npkit::parse_event_header("#define NPKIT_EVENT_A_ENTRY 0xZZ\n", "y.h", diag);
  REQUIRE_FALSE(t.ok());
  CHECK_THAT(t.error().message, Catch::Contains("y.h:1"));
  CHECK_THAT(t.error().message, Catch::Contains("0xZZ"));
}

TEST_CASE("header: no defines at all is an error", "[ingest][event_header]") {
  Diagnostics diag;
  for (const char* text : {"", "int main() {}\n", "#define NPKIT_EVENT_H_\n"}) {
    auto t = npkit::parse_event_header(text, "not_a_header.txt", diag);
    REQUIRE_FALSE(t.ok());
    CHECK_THAT(t.error().message, Catch::Contains("not_a_header.txt"));
  }
}
