// Without NPKIT_ENABLE every event macro of device.cuh is ((void)0) and evaluates nothing, whatever
// other switches say (this translation unit sets them and leaves NPKIT_ENABLE undefined).
#define NPKIT_ENABLE_ALL_EVENTS 1
#define NPKIT_ENABLE_EVENT_STEP 1

#include <catch2/catch.hpp>
#include <string>

#include "npkit/device.cuh"

#define NPKIT_EVENT_STEP_ENTRY 0x1000
#define NPKIT_EVENT_STEP_EXIT 0x1001
#define NPKIT_EVENT_TICK 0x1002

#define TEXT(x) TEXT_I(x)
#define TEXT_I(x) #x

TEST_CASE("device events without NPKIT_ENABLE: nothing is compiled or evaluated", "[capture]") {
  CHECK_FALSE(npkit::kEventsCompiledIn);
  CHECK(NPKIT_EVENT_IS_ENABLED(STEP) == 0);
  int evaluated = 0;
  const npkit::DeviceRecorder rec;
  NPKIT_EVENT_ENTRY(rec, STEP, ++evaluated, ++evaluated);
  NPKIT_EVENT_EXIT(rec, STEP, ++evaluated, ++evaluated);
  NPKIT_EVENT_INSTANT(rec, TICK, ++evaluated, ++evaluated);
  NPKIT_WARP_EVENT_ENTRY(rec, STEP, ++evaluated, ++evaluated);
  NPKIT_WARP_EVENT_EXIT(rec, STEP, ++evaluated, ++evaluated);
  NPKIT_WARP_EVENT_INSTANT(rec, TICK, ++evaluated, ++evaluated);
  CHECK(evaluated == 0);
  CHECK(std::string(TEXT(NPKIT_EVENT_ENTRY(rec, STEP, 1, 2))) == "((void)0)");
  CHECK(std::string(TEXT(NPKIT_WARP_EVENT_INSTANT(rec, TICK, 1, 2))) == "((void)0)");
}
