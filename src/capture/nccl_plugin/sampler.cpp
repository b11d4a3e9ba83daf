#include "nccl_plugin/sampler.hpp"

#include <mutex>

#include "recorder/context_registry.hpp"
#include "recorder/host_clock.hpp"

namespace npkit::capture {
namespace {

struct SlotState {
  bool live = false;
  bool pending = false;
  uint64_t next_index = 0;  // collective calls seen on the communicator
};

// Guarded by g_mutex.
std::mutex g_mutex;
SlotState g_slots[ContextRegistry::kSlots];
int g_pending = 0;
int* g_word = nullptr;
int g_steady = 0;
int g_full = 0;
SampleSetting g_setting;

void set_pending(SlotState& state, bool pending) {
  if (state.pending == pending) return;
  state.pending = pending;
  g_pending += pending ? 1 : -1;
}

// The mask for the next call, from the state now; written to NCCL's word.
int store_mask() {
  const bool on = g_setting.mode == SampleSetting::Mode::kWindow
                      ? window_open(g_setting.window_ns, g_setting.period_ns, host_now_ns())
                      : g_pending > 0;
  const int mask = on ? g_full : g_steady;
  if (g_word != nullptr) __atomic_store_n(g_word, mask, __ATOMIC_RELAXED);
  return mask;
}

}  // namespace

int sampler_attach(uint16_t slot, int* mask_word, const SampleSetting& setting, int steady,
                   int full) noexcept {
  std::lock_guard<std::mutex> lock(g_mutex);
  // As NCCL's mask, the setting is the process's: the latest init's.
  g_setting = SampleSetting{setting.mode, setting.every, setting.window_ns, setting.period_ns, {}};
  g_word = mask_word;
  g_steady = steady;
  g_full = full;
  SlotState& state = g_slots[slot];
  state.live = true;
  state.next_index = 0;
  set_pending(state,
              setting.mode == SampleSetting::Mode::kEvery && every_chooses(setting.every, 0));
  g_sampling_in_use.store(true, std::memory_order_relaxed);
  return store_mask();
}

void sampler_after_call(uint16_t slot, bool collective) noexcept {
  std::lock_guard<std::mutex> lock(g_mutex);
  SlotState& state = g_slots[slot];
  if (!state.live) return;
  if (collective) {
    ++state.next_index;
    set_pending(state, g_setting.mode == SampleSetting::Mode::kEvery &&
                           every_chooses(g_setting.every, state.next_index));
  }
  store_mask();
}

void sampler_detach(uint16_t slot) noexcept {
  std::lock_guard<std::mutex> lock(g_mutex);
  SlotState& state = g_slots[slot];
  if (!state.live) return;
  state.live = false;
  set_pending(state, false);
  store_mask();
}

void sampler_end_all() noexcept {
  std::lock_guard<std::mutex> lock(g_mutex);
  for (SlotState& state : g_slots) {
    if (!state.live) continue;
    state.live = false;
    set_pending(state, false);
  }
}

}  // namespace npkit::capture
