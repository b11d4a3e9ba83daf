// Kernels for the cursor check of tests/cuda (check_cu.sh, mode cursor): three events through a
// block cursor, a warp cursor and the handle. With a cursor an entry loads one state word however
// many events it records; through the handle it loads one per event.
#include "npkit/device.cuh"

#define NPKIT_EVENT_CURSOR_STEP_ENTRY 0x1000
#define NPKIT_EVENT_CURSOR_STEP_EXIT 0x1001
#define NPKIT_EVENT_CURSOR_TICK 0x1002

extern "C" __global__ void check_block_cursor(npkit::DeviceRecorder rec, int* out) {
  NPKIT_BLOCK_RECORDER(events, rec);
  NPKIT_EVENT_ENTRY(events, CURSOR_STEP, 64, 0);
  if (threadIdx.x == 0) out[0] = 1;
  NPKIT_EVENT_INSTANT(events, CURSOR_TICK, 0, 1);
  NPKIT_EVENT_EXIT(events, CURSOR_STEP, 64, 0);
}

extern "C" __global__ void check_warp_cursor(npkit::DeviceRecorder rec, int* out) {
  NPKIT_WARP_RECORDER(events, rec);
  NPKIT_WARP_EVENT_ENTRY(events, CURSOR_STEP, 64, 0);
  if (threadIdx.x == 0) out[0] = 2;
  NPKIT_WARP_EVENT_INSTANT(events, CURSOR_TICK, 0, 1);
  NPKIT_WARP_EVENT_EXIT(events, CURSOR_STEP, 64, 0);
}

extern "C" __global__ void check_handle_events(npkit::DeviceRecorder rec, int* out) {
  NPKIT_EVENT_ENTRY(rec, CURSOR_STEP, 64, 0);
  if (threadIdx.x == 0) out[0] = 3;
  NPKIT_EVENT_INSTANT(rec, CURSOR_TICK, 0, 1);
  NPKIT_EVENT_EXIT(rec, CURSOR_STEP, 64, 0);
}
