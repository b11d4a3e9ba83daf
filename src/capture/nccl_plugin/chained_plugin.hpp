// nccl_plugin/chained_plugin.hpp — a second NCCL profiler plugin (NPKIT_CHAIN_PLUGIN) that this
// plugin loads and forwards every call to, with that plugin's own contexts and handles.
//
// Contract:
// - chain_init(): per communicator, before our own context is opened. Loads the library once per
//   process (dlopen RTLD_NOW | RTLD_LOCAL; never closed: its handles may outlive a communicator),
//   takes its ncclProfiler_v<api> (api = the version NCCL called us as; for v7 and v6, the newest
//   table it has down to ncclProfiler_v5: it then gets the descriptors of that version and no
//   event type that version does not know; v5 and v4 have no fallback), calls its init with a
//   mask word of its own, and returns a ChainStart whose
//   `metadata` is "<name> (<path>)" or "not loaded: <why>", and whose `warnings` say what
//   failed: a library that cannot be opened or lacks the symbol is reported once per process
//   (per path and version), an init that fails or leaves a NULL context once per communicator.
//   A chain that failed has `link == NULL`; nothing of that plugin is called for the communicator
//   again.
// - chain_attach() makes the link live for our context `slot` (then every event call of that
//   communicator goes through chained_start/stop/state); chain_abandon() finalizes the chained
//   plugin's context at once (our capture of the communicator could not be opened).
// - chained_start(): our start of `descr` (what plugin_runtime's start would do, restricted to
//   the types our mask emits, with parentObj translated to our handle of the parent) and theirs
//   (only types their current mask emits, parentObj and coll/p2p.parentGroup translated to their
//   handles, their context); returns the handle for NCCL: ours unchanged when they have none, a
//   paired or chain-only handle (chain_handles.hpp) when they do, NULL when neither has one.
//   Events NCCL starts with a context that is not one of our chained communicators (PXN: another
//   process's), and ProxyOps of another pid, are ours only, as without chaining.
// - chained_stop()/chained_state(): for paired and chain-only handles: our part recorded as
//   plugin_runtime's stop/state would; theirs forwarded unless it was stopped already or their
//   context was finalized. Their return codes and NULL handles are ignored.
// - chain_finalize(): calls their finalize once for the communicator of our context `slot`
//   (after ours: our dump is written before the chained plugin runs its own teardown).
// - chain_in_use() is false until the first chain_attach(): until then plugin_runtime takes its
//   usual paths unchanged.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "nccl_plugin/nccl_profiler_abi.hpp"
#include "recorder/context_factory.hpp"

namespace npkit::capture {

struct ChainLink;

struct ChainStart {
  ChainLink* link = nullptr;  // NULL: nothing chained for this communicator
  int their_mask = 0;         // their activation mask after init
  std::string metadata;       // capture.chained_plugin value
  std::vector<std::string> warnings;
};

inline std::atomic<bool> g_chain_in_use{false};

inline bool chain_in_use() noexcept {
  return g_chain_in_use.load(std::memory_order_relaxed);
}

ChainStart chain_init(const std::string& path, uint64_t our_mask,
                      const CommunicatorIdentity& identity,
                      nccl_abi::ncclDebugLogger_t logfn) noexcept;
void chain_attach(ChainLink* link, uint16_t slot) noexcept;
void chain_abandon(ChainLink* link) noexcept;
void chain_finalize(uint16_t slot) noexcept;

void* chained_start(void* context, const nccl_abi::ncclProfilerEventDescr_v7_t& descr) noexcept;
void* chained_start(void* context, const nccl_abi::ncclProfilerEventDescr_v6_t& descr) noexcept;
void* chained_start(void* context, const nccl_abi::ncclProfilerEventDescr_v5_t& descr) noexcept;
void* chained_start(void* context, const nccl_abi::ncclProfilerEventDescr_v4_t& descr) noexcept;
void chained_stop(void* handle) noexcept;
void chained_state(void* handle, int state,
                   const nccl_abi::ncclProfilerEventStateArgs_v5_t* args) noexcept;

}  // namespace npkit::capture
