// recorder/sample_setting.hpp — NPKIT_SAMPLE: which operations get the costly event groups.
//
// The costly groups are what NPKIT_EVENTS selects beyond api, coll, ctrl and ce: KernelCh,
// ProxyOp/ProxyStep, NetPlugin and KernelPhase (kSampledEvents). With sampling on, the plugin
// asks NCCL for them only for some operations, through the activation mask NCCL reloads at every
// collective and point-to-point call (nccl_plugin/sampler.hpp).
//
// Values (blanks around them ignored, case-insensitive):
//   unset, empty, "off", "none"  no sampling: every operation gets every group of NPKIT_EVENTS.
//   "1/N"                        every N-th collective of each communicator (N in [1, kMaxEvery]):
//                                the ones whose 0-based index among that communicator's
//                                collective calls is N-1, 2N-1, 3N-1, ... ("1/1": all of them).
//   "T/P"                        windows: the operations called while the host clock
//                                (CLOCK_REALTIME) modulo P is below T. T and P are a whole
//                                number with a unit ns, us, ms, s, m (minutes), 0 < T <= P,
//                                P <= kMaxPeriodNs; e.g. "10ms/10s".
// Contract: parsing never fails; a value it cannot read becomes one warning and no sampling.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace npkit::capture {

inline constexpr uint64_t kMaxEvery = 1000000000;
inline constexpr int64_t kMaxPeriodNs = 86400LL * 1000000000;  // one day

struct SampleSetting {
  enum class Mode { kOff, kEvery, kWindow };
  Mode mode = Mode::kOff;
  uint64_t every = 0;     // kEvery: N
  int64_t window_ns = 0;  // kWindow: T
  int64_t period_ns = 0;  // kWindow: P
  std::string text;       // normalised: "off", "1/100", "10ms/10s" (as given, lower case)
};

// Parses NPKIT_SAMPLE's value (NULL: not set); appends one warning for a value it cannot read.
SampleSetting parse_sample_setting(const char* text, std::vector<std::string>* warnings);

// Whether the collective with 0-based index `index` on its communicator is chosen (kEvery).
constexpr bool every_chooses(uint64_t every, uint64_t index) noexcept {
  return every != 0 && (index + 1) % every == 0;
}

// Whether host time `now_ns` lies inside a window (kWindow).
constexpr bool window_open(int64_t window_ns, int64_t period_ns, int64_t now_ns) noexcept {
  if (period_ns <= 0) return false;
  int64_t phase = now_ns % period_ns;
  if (phase < 0) phase += period_ns;
  return phase < window_ns;
}

}  // namespace npkit::capture
