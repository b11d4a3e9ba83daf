// gpu/clock_probe_kernel.hpp — the one-thread kernel that answers the host's clock-sampling
// rounds with %globaltimer, and the block of mapped host memory through which they talk.
//
// Contract (the PTX below and ClockProbeBlock agree on these offsets and values):
// - Kernel npkit_clock_probe(block, rounds, timeout_ns), launched with one thread. For round
//   k = 1..rounds it polls block->go until it reads k, then stores %globaltimer into
//   block->gpu_ns[k-1], issues membar.sys, and stores k into block->ack.
// - It exits on its own when it reads kClockProbeAbort in block->go, or when %globaltimer has
//   passed its own start by timeout_ns, so a host that gives up never leaves it spinning.
// - Loads and stores of the block are volatile (sent to system memory, never cached on the GPU).
// - PTX ISA 7.0, sm_70, 64-bit addresses: the driver compiles it for any GPU from Volta on.
#pragma once

#include <cstddef>
#include <cstdint>

namespace npkit::capture {

inline constexpr uint32_t kClockProbeRounds = 16;
inline constexpr uint32_t kClockProbeAbort = 0xffffffffu;  // in `go`: stop now
inline constexpr const char* kClockProbeKernelName = "npkit_clock_probe";

struct ClockProbeBlock {
  uint32_t go;                         // host -> kernel: round to answer (1..), or abort
  uint32_t ack;                        // kernel -> host: last round answered
  uint64_t gpu_ns[kClockProbeRounds];  // kernel -> host: %globaltimer of each round
};
static_assert(offsetof(ClockProbeBlock, go) == 0);
static_assert(offsetof(ClockProbeBlock, ack) == 4);
static_assert(offsetof(ClockProbeBlock, gpu_ns) == 8);

inline constexpr const char kClockProbePtx[] = R"ptx(
.version 7.0
.target sm_70
.address_size 64

.visible .entry npkit_clock_probe(
    .param .u64 block_param,
    .param .u32 rounds_param,
    .param .u64 timeout_ns_param)
{
    .reg .pred %p<5>;
    .reg .b32 %r<5>;
    .reg .b64 %rd<9>;

    ld.param.u64 %rd1, [block_param];
    cvta.to.global.u64 %rd1, %rd1;
    ld.param.u32 %r1, [rounds_param];
    ld.param.u64 %rd2, [timeout_ns_param];
    mov.u64 %rd3, %globaltimer;
    add.u64 %rd4, %rd3, %rd2;              // deadline
    mov.u32 %r2, 0;                        // rounds answered
NEXT_ROUND:
    setp.ge.u32 %p1, %r2, %r1;
    @%p1 bra DONE;
    add.u32 %r3, %r2, 1;                   // the round to wait for
WAIT_GO:
    ld.volatile.global.u32 %r4, [%rd1];    // go
    setp.eq.u32 %p2, %r4, %r3;
    @%p2 bra ANSWER;
    setp.eq.u32 %p3, %r4, 0xffffffff;      // kClockProbeAbort
    @%p3 bra DONE;
    mov.u64 %rd5, %globaltimer;
    setp.gt.u64 %p4, %rd5, %rd4;
    @%p4 bra DONE;
    bra.uni WAIT_GO;
ANSWER:
    mov.u64 %rd6, %globaltimer;
    mul.wide.u32 %rd7, %r2, 8;
    add.s64 %rd8, %rd1, %rd7;
    st.volatile.global.u64 [%rd8+8], %rd6; // gpu_ns[round - 1]
    membar.sys;
    st.volatile.global.u32 [%rd1+4], %r3;  // ack
    mov.u32 %r2, %r3;
    bra.uni NEXT_ROUND;
DONE:
    ret;
}
)ptx";

}  // namespace npkit::capture
