// EventNameTable's rules, and events.hpp's copy of NPKit's NCCL table checked against entries
// typed from reference/npkit-formats.md (section 4.1).
#include <catch2/catch.hpp>
#include <cstring>
#include <string>

#include "npkit/events.hpp"
#include "npkit/host.hpp"

namespace fmt = npkit::format;

#define NPKIT_EVENT_TEST_PHASE_ENTRY 0x1234
#define NPKIT_EVENT_TEST_PHASE_EXIT 0x1235
#define NPKIT_EVENT_TEST_TICK 0x1236

TEST_CASE("event names: user events are named by the macros", "[capture]") {
  npkit::EventNameTable table;
  std::string error;
  REQUIRE(NPKIT_NAME_EVENT_PAIR(table, TEST_PHASE, "reduce_scatter", &error));
  REQUIRE(NPKIT_NAME_EVENT_INSTANT(table, TEST_TICK, "", &error));
  REQUIRE(table.entries().size() == 3);
  CHECK(table.find(0x1234)->name == "TEST_PHASE_ENTRY");
  CHECK(table.find(0x1234)->kind == fmt::kEventEntry);
  CHECK(table.find(0x1234)->phase == "reduce_scatter");
  CHECK(table.find(0x1235)->name == "TEST_PHASE_EXIT");
  CHECK(table.find(0x1235)->kind == fmt::kEventExit);
  CHECK(table.find(0x1236)->name == "TEST_TICK");
  CHECK(table.find(0x1236)->kind == fmt::kEventInstant);
  CHECK(table.find(0x1237) == nullptr);
}

TEST_CASE("event names: entries stay sorted by id", "[capture]") {
  npkit::EventNameTable table;
  std::string error;
  REQUIRE(table.add(0x2000, fmt::kEventInstant, "B", "", &error));
  REQUIRE(table.add(0x1000, fmt::kEventInstant, "A", "", &error));
  REQUIRE(table.add(0xFFFE, fmt::kEventInstant, "C", "", &error));
  REQUIRE(table.entries().size() == 3);
  CHECK(table.entries()[0].id == 0x1000);
  CHECK(table.entries()[1].id == 0x2000);
  CHECK(table.entries()[2].id == 0xFFFE);
}

TEST_CASE("event names: what the table refuses", "[capture]") {
  npkit::EventNameTable table;
  std::string error;
  CHECK_FALSE(table.add(0x0FFF, fmt::kEventInstant, "RESERVED", "", &error));
  CHECK_THAT(error, Catch::Contains("0x1000..0xFFFE"));
  CHECK_FALSE(table.add(0x35, fmt::kEventEntry, "MINE_ENTRY", "", &error));
  CHECK_FALSE(table.add(0xFFFF, fmt::kEventInstant, "LAST", "", &error));
  CHECK_FALSE(table.add(0x1000, fmt::kEventInstant, "", "", &error));
  CHECK_THAT(error, Catch::Contains("empty name"));
  CHECK_FALSE(table.add(0x1000, fmt::kEventEntry, "STEP", "", &error));
  CHECK_THAT(error, Catch::Contains("_ENTRY"));
  CHECK_FALSE(table.add(0x1000, fmt::kEventExit, "STEP_ENTRY", "", &error));
  CHECK_FALSE(table.add(0x1000, fmt::kEventInstant, "STEP_EXIT", "", &error));
  CHECK(table.entries().empty());

  REQUIRE(table.add(0x1000, fmt::kEventInstant, "TICK", "sync", &error));
  CHECK(table.add(0x1000, fmt::kEventInstant, "TICK", "sync", &error));  // the same again
  CHECK_FALSE(table.add(0x1000, fmt::kEventInstant, "TOCK", "sync", &error));
  CHECK_THAT(error, Catch::Contains("already named 'TICK'"));
  CHECK_FALSE(table.add(0x1000, fmt::kEventInstant, "TICK", "other", &error));

  // A pair is added whole or not at all.
  CHECK_FALSE(table.add_pair(0x1001, 0x1000, "STEP", "", &error));
  CHECK(table.find(0x1001) == nullptr);
  CHECK_FALSE(table.add_pair(0x1001, 0x1001, "STEP", "", &error));
  CHECK_THAT(error, Catch::Contains("two ids"));
  CHECK(table.entries().size() == 1);
}

TEST_CASE("npkit nccl table: ids, names and kinds of the NCCL 2.17 patch", "[capture]") {
  using npkit::events::find_nccl_event;
  using npkit::events::kNcclEvents;
  // 38 ENTRY/EXIT pairs and the two TIME_SYNC instants of ids 0x01-0x4E.
  CHECK(std::size(kNcclEvents) == 78);
  for (size_t i = 1; i < std::size(kNcclEvents); ++i) {
    CHECK(kNcclEvents[i - 1].id < kNcclEvents[i].id);
  }
  CHECK(kNcclEvents[0].id == 0x01);
  CHECK(kNcclEvents[std::size(kNcclEvents) - 1].id == 0x4E);
  CHECK(find_nccl_event(0x00) == nullptr);
  CHECK(find_nccl_event(0x4F) == nullptr);  // a build switch in NPKit, not an event

  struct Expected {
    uint16_t id;
    const char* name;
    fmt::EventKind kind;
  };
  const Expected expected[] = {
      {0x01, "ALL_REDUCE_RING_ENTRY", fmt::kEventEntry},
      {0x02, "ALL_REDUCE_RING_EXIT", fmt::kEventExit},
      {0x0F, "DIRECT_RECV_REDUCE_COPY_SEND_ENTRY", fmt::kEventEntry},
      {0x22, "SEND_FROM_OUTPUT_EXIT", fmt::kEventExit},
      {0x2F, "NET_SEND_ENTRY", fmt::kEventEntry},
      {0x33, "TIME_SYNC_GPU", fmt::kEventInstant},
      {0x34, "TIME_SYNC_CPU", fmt::kEventInstant},
      {0x35, "ALL_REDUCE_RING_SEND_ENTRY", fmt::kEventEntry},
      {0x3A, "ALL_REDUCE_RING_DIRECT_RECV_REDUCE_COPY_SEND_EXIT", fmt::kEventExit},
      {0x44, "ALL_REDUCE_TREE_SPLIT_REDUCE_BROADCAST_EXIT", fmt::kEventExit},
      {0x4B, "SEND_RECV_SEND_ENTRY", fmt::kEventEntry},
      {0x4E, "SEND_RECV_RECV_EXIT", fmt::kEventExit},
  };
  for (const Expected& e : expected) {
    INFO(e.name);
    const auto* event = find_nccl_event(e.id);
    REQUIRE(event != nullptr);
    CHECK(std::string(event->name) == e.name);
    CHECK(event->kind == e.kind);
  }
  CHECK(std::string(find_nccl_event(0x3B)->phase) == "all_gather");
  CHECK(std::string(find_nccl_event(0x37)->phase) == "reduce_scatter");
  CHECK(std::string(find_nccl_event(0x27)->phase) == "sync");
  CHECK(NPKIT_EVENT_ALL_REDUCE_RING_DIRECT_RECV_EXIT == 0x3E);
  CHECK(NPKIT_EVENT_SEND_RECV_LOCAL_COPY_ENTRY == 0x49);

  // Every name's suffix agrees with its kind.
  for (const auto& event : kNcclEvents) {
    const std::string name = event.name;
    const bool entry = name.size() > 6 && name.compare(name.size() - 6, 6, "_ENTRY") == 0;
    const bool exit = name.size() > 5 && name.compare(name.size() - 5, 5, "_EXIT") == 0;
    INFO(name);
    CHECK(entry == (event.kind == fmt::kEventEntry));
    CHECK(exit == (event.kind == fmt::kEventExit));
  }
}
