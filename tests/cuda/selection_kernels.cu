// Kernels for the compile checks of tests/cuda (check_cu.sh): each records one kind of event, so
// the PTX of each entry shows whether its event was compiled in under a given set of switches.
#include "npkit/device.cuh"

#define NPKIT_EVENT_CHECK_RS_ENTRY 0x1000
#define NPKIT_EVENT_CHECK_RS_EXIT 0x1001
#define NPKIT_EVENT_CHECK_RS_GROUP ALL_REDUCE
#define NPKIT_EVENT_CHECK_A2A_ENTRY 0x1002
#define NPKIT_EVENT_CHECK_A2A_EXIT 0x1003
#define NPKIT_EVENT_CHECK_A2A_GROUP ALL_TO_ALL
#define NPKIT_EVENT_CHECK_SOLO 0x1004
#define NPKIT_EVENT_CHECK_WARP_ENTRY 0x1005
#define NPKIT_EVENT_CHECK_WARP_EXIT 0x1006
#define NPKIT_EVENT_CHECK_WARP_GROUP ALL_REDUCE

extern "C" __global__ void check_all_reduce_group(npkit::DeviceRecorder rec, int* out) {
  NPKIT_EVENT_ENTRY(rec, CHECK_RS, 64, threadIdx.x);
  if (threadIdx.x == 0) out[0] = 1;
  NPKIT_EVENT_EXIT(rec, CHECK_RS, 64, threadIdx.x);
}

extern "C" __global__ void check_all_to_all_group(npkit::DeviceRecorder rec, int* out) {
  NPKIT_EVENT_ENTRY(rec, CHECK_A2A, 64, 0);
  if (threadIdx.x == 0) out[0] = 2;
  NPKIT_EVENT_EXIT(rec, CHECK_A2A, 64, 0);
}

extern "C" __global__ void check_single_event(npkit::DeviceRecorder rec, int* out) {
  if (threadIdx.x == 0) out[0] = 3;
  NPKIT_EVENT_INSTANT(rec, CHECK_SOLO, 0, 7);
}

extern "C" __global__ void check_warp_events(npkit::DeviceRecorder rec, int* out) {
  NPKIT_WARP_EVENT_ENTRY(rec, CHECK_WARP, 0, 1);
  if (threadIdx.x == 0) out[0] = 4;
  NPKIT_WARP_EVENT_EXIT(rec, CHECK_WARP, 0, 1);
}
