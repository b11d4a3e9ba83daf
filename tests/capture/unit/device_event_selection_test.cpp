// Compile-time event selection of device.cuh with NPKIT_ENABLE: all events, a group, one event by
// name; checked on the macros' expansion (this translation unit defines the switches itself).
#define NPKIT_ENABLE
#define NPKIT_ENABLE_ALL_REDUCE 1
#define NPKIT_ENABLE_ALL_TO_ALL 0
#define NPKIT_ENABLE_EVENT_SOLO 1
#define NPKIT_ENABLE_EVENT_EMPTY_SWITCH

#include <catch2/catch.hpp>
#include <string>

#include "npkit/device.cuh"

#define NPKIT_EVENT_RS_ENTRY 0x1000
#define NPKIT_EVENT_RS_EXIT 0x1001
#define NPKIT_EVENT_RS_GROUP ALL_REDUCE
#define NPKIT_EVENT_A2A_ENTRY 0x1002
#define NPKIT_EVENT_A2A_EXIT 0x1003
#define NPKIT_EVENT_A2A_GROUP ALL_TO_ALL
#define NPKIT_EVENT_SOLO 0x1004
#define NPKIT_EVENT_EMPTY_SWITCH 0x1005
#define NPKIT_EVENT_LONER 0x1006
// An event whose name is also a macro stays a name.
#define GATHER unrelated tokens
#define NPKIT_EVENT_GATHER_ENTRY 0x1007
#define NPKIT_EVENT_GATHER_GROUP ALL_REDUCE

#define TEXT(x) TEXT_I(x)
#define TEXT_I(x) #x

TEST_CASE("device event selection: groups and single events with NPKIT_ENABLE", "[capture]") {
  CHECK(npkit::kEventsCompiledIn);
  CHECK(NPKIT_EVENT_IS_ENABLED(RS) == 1);            // group ALL_REDUCE=1
  CHECK(NPKIT_EVENT_IS_ENABLED(A2A) == 0);           // group ALL_TO_ALL=0
  CHECK(NPKIT_EVENT_IS_ENABLED(SOLO) == 1);          // NPKIT_ENABLE_EVENT_SOLO=1
  CHECK(NPKIT_EVENT_IS_ENABLED(EMPTY_SWITCH) == 1);  // defined empty counts as on
  CHECK(NPKIT_EVENT_IS_ENABLED(LONER) == 0);         // no switch, no group
  CHECK(NPKIT_EVENT_IS_ENABLED(GATHER) == 1);
#if !NPKIT_EVENT_IS_ENABLED(RS) || NPKIT_EVENT_IS_ENABLED(A2A)
  FAIL("NPKIT_EVENT_IS_ENABLED does not work in #if");
#endif
}

TEST_CASE("device event selection: a selected site calls the recorder, others are empty",
          "[capture]") {
  const std::string rs_entry = TEXT(NPKIT_EVENT_ENTRY(rec, RS, bytes, step));
  CHECK(rs_entry == "::npkit::device_detail::block_event((rec), (0x1000), (bytes), (step))");
  CHECK(std::string(TEXT(NPKIT_EVENT_EXIT(rec, RS, 0, 1))) ==
        "::npkit::device_detail::block_event((rec), (0x1001), (0), (1))");
  CHECK(std::string(TEXT(NPKIT_WARP_EVENT_INSTANT(rec, SOLO, 0, 1))) ==
        "::npkit::device_detail::warp_event((rec), (0x1004), (0), (1))");
  CHECK(std::string(TEXT(NPKIT_WARP_EVENT_ENTRY(rec, GATHER, 0, 1))) ==
        "::npkit::device_detail::warp_event((rec), (0x1007), (0), (1))");
  CHECK(std::string(TEXT(NPKIT_EVENT_ENTRY(rec, A2A, 0, 1))) == "((void)0)");
  CHECK(std::string(TEXT(NPKIT_EVENT_INSTANT(rec, LONER, 0, 1))) == "((void)0)");
}
