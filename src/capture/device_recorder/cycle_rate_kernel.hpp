// device_recorder/cycle_rate_kernel.hpp — the one-thread kernel that measures the SM clock: it
// reads %globaltimer and clock64 together, spins until %globaltimer has advanced by `window_ns`,
// and reads both again.
//
// Contract (the PTX below and CycleRateBlock agree on these offsets):
// - Kernel npkit_cycle_rate(block, window_ns), launched with one thread, stores into *block:
//   gpu_ns_start, cycles_start, then after the window cycles_end, gpu_ns_end; stores are volatile
//   (the block lives in mapped host memory) and followed by membar.sys.
// - PTX ISA 7.0, sm_70, 64-bit addresses: the driver compiles it for any GPU from Volta on.
#pragma once

#include <cstddef>
#include <cstdint>

namespace npkit::capture {

inline constexpr const char* kCycleRateKernelName = "npkit_cycle_rate";

struct CycleRateBlock {
  uint64_t gpu_ns_start;
  uint64_t cycles_start;
  uint64_t cycles_end;
  uint64_t gpu_ns_end;
};
static_assert(offsetof(CycleRateBlock, cycles_start) == 8);
static_assert(offsetof(CycleRateBlock, cycles_end) == 16);
static_assert(offsetof(CycleRateBlock, gpu_ns_end) == 24);

inline constexpr const char kCycleRatePtx[] = R"ptx(
.version 7.0
.target sm_70
.address_size 64

.visible .entry npkit_cycle_rate(
    .param .u64 block_param,
    .param .u64 window_ns_param)
{
    .reg .pred %p<2>;
    .reg .b64 %rd<9>;

    ld.param.u64 %rd1, [block_param];
    cvta.to.global.u64 %rd1, %rd1;
    ld.param.u64 %rd2, [window_ns_param];
    mov.u64 %rd3, %globaltimer;
    mov.u64 %rd4, %clock64;
    add.u64 %rd5, %rd3, %rd2;              // end of the window
SPIN:
    mov.u64 %rd6, %globaltimer;
    setp.lt.u64 %p1, %rd6, %rd5;
    @%p1 bra.uni SPIN;
    mov.u64 %rd7, %clock64;
    mov.u64 %rd8, %globaltimer;
    st.volatile.global.u64 [%rd1], %rd3;    // gpu_ns_start
    st.volatile.global.u64 [%rd1+8], %rd4;  // cycles_start
    st.volatile.global.u64 [%rd1+16], %rd7; // cycles_end
    st.volatile.global.u64 [%rd1+24], %rd8; // gpu_ns_end
    membar.sys;
    ret;
}
)ptx";

}  // namespace npkit::capture
