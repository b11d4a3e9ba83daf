#include "nccl_plugin/chained_plugin.hpp"

#include <dlfcn.h>

#include <cstring>

#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

#include "nccl_plugin/chain_handles.hpp"
#include "nccl_plugin/emitted_events.hpp"
#include "nccl_plugin/plugin_runtime.hpp"

extern "C" npkit::nccl_abi::ncclProfiler_v7_t ncclProfiler_v7;
extern "C" npkit::nccl_abi::ncclProfiler_v6_t ncclProfiler_v6;
extern "C" npkit::nccl_abi::ncclProfiler_v5_t ncclProfiler_v5;
extern "C" npkit::nccl_abi::ncclProfiler_v4_t ncclProfiler_v4;

namespace npkit::capture {

using nccl_abi::ncclProfilerEventDescr_v4_t;
using nccl_abi::ncclProfilerEventDescr_v5_t;
using nccl_abi::ncclProfilerEventDescr_v6_t;
using nccl_abi::ncclProfilerEventDescr_v7_t;
using nccl_abi::ncclProfilerEventStateArgs_v5_t;
using nccl_abi::ncclResult_t;

// One chained communicator. Never freed: NCCL may pass its handles back after finalize, and the
// chained plugin may keep the address of `their_mask` (NCCL's plugins store through it to change
// their mask at run time).
struct ChainLink {
  // Exactly one of v7/v6/v5/v4: the newest they have of the version NCCL called us as and, for
  // v7 and v6, the versions below it down to v5 (their starts then get the descriptors of their
  // version, and no event type it does not know).
  const nccl_abi::ncclProfiler_v7_t* v7 = nullptr;
  const nccl_abi::ncclProfiler_v6_t* v6 = nullptr;
  const nccl_abi::ncclProfiler_v5_t* v5 = nullptr;
  const nccl_abi::ncclProfiler_v4_t* v4 = nullptr;
  void* their_context = nullptr;
  int their_mask = 0;
  uint64_t our_events = 0;  // emitted_events(our mask)
  uint16_t slot = 0;
  std::atomic<bool> finalized{false};
  std::atomic<uint64_t> last_chain_only_key{0};
  // Made once their init succeeded (an init that fails keeps the link, not the tables).
  std::unique_ptr<HandleTable> by_our_id;   // paired handles, by our event id
  std::unique_ptr<HandleTable> chain_only;  // chain-only handles

  // Calls into the chained plugin; their results are ignored (as NCCL ignores them) and an
  // exception thrown across its C interface goes no further.
  void stop(void* theirs) const noexcept {
    try {
      v7 != nullptr   ? v7->stopEvent(theirs)
      : v6 != nullptr ? v6->stopEvent(theirs)
      : v5 != nullptr ? v5->stopEvent(theirs)
                      : v4->stopEvent(theirs);
    } catch (...) {
    }
  }
  void state(void* theirs, int state, ncclProfilerEventStateArgs_v5_t* args) const noexcept {
    try {
      v7 != nullptr   ? v7->recordEventState(theirs, state, args)
      : v6 != nullptr ? v6->recordEventState(theirs, state, args)
      : v5 != nullptr ? v5->recordEventState(theirs, state, args)
                      : v4->recordEventState(theirs, state, args);
    } catch (...) {
    }
  }
  void finalize() const noexcept {
    try {
      v7 != nullptr   ? v7->finalize(their_context)
      : v6 != nullptr ? v6->finalize(their_context)
      : v5 != nullptr ? v5->finalize(their_context)
                      : v4->finalize(their_context);
    } catch (...) {
    }
  }
  uint64_t their_events() const {
    const uint64_t events =
        emitted_events(static_cast<unsigned>(__atomic_load_n(&their_mask, __ATOMIC_RELAXED)));
    return events & events_of_api(api());
  }
  uint32_t api() const { return v7 != nullptr ? 7 : v6 != nullptr ? 6 : v5 != nullptr ? 5 : 4; }
};

namespace {

// A library named by NPKIT_CHAIN_PLUGIN, opened once per process and never closed.
struct LoadedPlugin {
  std::string path;
  void* library = nullptr;
  std::string why_not;  // dlopen failure
  bool reported = false;
  bool missing_reported[4] = {false, false, false, false};  // v4, v5, v6, v7
};

std::mutex g_load_mutex;

// Guarded by g_load_mutex; never freed (trivially safe during process exit).
std::vector<LoadedPlugin*>& loaded_plugins() {
  static auto* plugins = new std::vector<LoadedPlugin*>;
  return *plugins;
}

std::atomic<ChainLink*> g_links[ContextRegistry::kSlots] = {};

// Keeps a link that is not (or no longer) in g_links: the chained plugin may still hold the
// address of its mask word.
void retire(ChainLink* link) {
  std::lock_guard<std::mutex> lock(g_load_mutex);
  static auto* retired = new std::vector<ChainLink*>;
  retired->push_back(link);
}

LoadedPlugin* load(const std::string& path) {
  for (LoadedPlugin* plugin : loaded_plugins()) {
    if (plugin->path == path) return plugin;
  }
  auto* plugin = new LoadedPlugin;
  plugin->path = path;
  plugin->library = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (plugin->library == nullptr) {
    const char* error = ::dlerror();
    plugin->why_not = error != nullptr ? error : "dlopen failed";
  }
  loaded_plugins().push_back(plugin);
  return plugin;
}

template <typename Table>
const char* missing_entry_point(const Table& table) {
  if (table.init == nullptr) return "init";
  if (table.startEvent == nullptr) return "startEvent";
  if (table.stopEvent == nullptr) return "stopEvent";
  if (table.recordEventState == nullptr) return "recordEventState";
  if (table.finalize == nullptr) return "finalize";
  return nullptr;
}

const char* table_symbol(uint32_t api) {
  return api >= 7   ? "ncclProfiler_v7"
         : api == 6 ? "ncclProfiler_v6"
         : api == 5 ? "ncclProfiler_v5"
                    : "ncclProfiler_v4";
}

// What is wrong with `table`, the library's table for `api` (nullptr: nothing).
std::string table_problem(void* table, uint32_t api) {
  const char* symbol = table_symbol(api);
  if (table == nullptr) return std::string("has no ") + symbol;
  if (table == static_cast<void*>(&ncclProfiler_v7) ||
      table == static_cast<void*>(&ncclProfiler_v6) ||
      table == static_cast<void*>(&ncclProfiler_v5) ||
      table == static_cast<void*>(&ncclProfiler_v4)) {
    return "is this plugin itself";
  }
  const char* missing =
      api >= 7   ? missing_entry_point(*static_cast<const nccl_abi::ncclProfiler_v7_t*>(table))
      : api == 6 ? missing_entry_point(*static_cast<const nccl_abi::ncclProfiler_v6_t*>(table))
      : api == 5 ? missing_entry_point(*static_cast<const nccl_abi::ncclProfiler_v5_t*>(table))
                 : missing_entry_point(*static_cast<const nccl_abi::ncclProfiler_v4_t*>(table));
  if (missing != nullptr) return std::string(symbol) + " has no " + missing + " function";
  return {};
}

// Resolves the library and its table for `api` (for api 7 and 6, a library without that table is
// taken through the newest it has down to ncclProfiler_v5); false with *why_not (and whether to
// report it: library and symbol problems once per process) otherwise.
bool resolve(const std::string& path, uint32_t api, ChainLink* link, std::string* why_not,
             bool* report) {
  std::lock_guard<std::mutex> lock(g_load_mutex);
  LoadedPlugin* plugin = load(path);
  if (plugin->library == nullptr) {
    *why_not = "cannot be loaded: " + plugin->why_not;
    *report = !plugin->reported;
    plugin->reported = true;
    return false;
  }
  uint32_t used = api;
  void* table = ::dlsym(plugin->library, table_symbol(api));
  while (table == nullptr && used >= 6) {
    --used;
    table = ::dlsym(plugin->library, table_symbol(used));
  }
  std::string problem = table_problem(table, used);
  if (table == nullptr) {
    if (api == 7) problem = "has no ncclProfiler_v7, ncclProfiler_v6 or ncclProfiler_v5";
    if (api == 6) problem = "has no ncclProfiler_v6 or ncclProfiler_v5";
    problem += " (NCCL called this plugin as v" + std::to_string(api) + ")";
  }
  if (!problem.empty()) {
    *why_not = problem;
    bool& reported = plugin->missing_reported[api >= 7 ? 3 : api - 4];
    *report = !reported;
    reported = true;
    return false;
  }
  if (used >= 7) {
    link->v7 = static_cast<const nccl_abi::ncclProfiler_v7_t*>(table);
  } else if (used == 6) {
    link->v6 = static_cast<const nccl_abi::ncclProfiler_v6_t*>(table);
  } else if (used == 5) {
    link->v5 = static_cast<const nccl_abi::ncclProfiler_v5_t*>(table);
  } else {
    link->v4 = static_cast<const nccl_abi::ncclProfiler_v4_t*>(table);
  }
  return true;
}

// Our part and theirs of a parent handle NCCL passes back (or of any handle).
struct Parts {
  void* ours = nullptr;
  void* theirs = nullptr;
  bool their_stopped = false;
  ChainLink* link = nullptr;  // the link the handle was issued for; NULL for other values
};

Parts parts_of(const void* handle, const DecodedChainHandle& decoded) {
  Parts parts;
  if (decoded.kind == ChainHandleKind::kNone) {
    // Ours, NULL, or no handle at all: our recorder sorts it out as without chaining; the
    // chained plugin never receives a value it did not hand out.
    parts.ours = const_cast<void*>(handle);
    return parts;
  }
  parts.link = g_links[decoded.slot].load(std::memory_order_acquire);
  if (decoded.kind == ChainHandleKind::kPaired) parts.ours = paired_to_ours(handle);
  if (parts.link == nullptr) return parts;
  const HandleTable& table =
      decoded.kind == ChainHandleKind::kPaired ? *parts.link->by_our_id : *parts.link->chain_only;
  const HandleTable::Found found = table.find(decoded.key);
  if (!found.found) return parts;
  if (decoded.kind == ChainHandleKind::kChainOnly) parts.ours = found.ours;
  parts.theirs = found.theirs;
  parts.their_stopped = found.stopped;
  return parts;
}

Parts parts_of(const void* handle) {
  return parts_of(handle, decode_chain_handle(handle));
}

// The slot of the context this thread started its last chained event with.
thread_local uint16_t t_last_slot = 0;

// Our communicator context at address `context` (never read before it is found among ours): the
// slot a parent handle names is tried first, then this thread's last one, then every slot.
const CaptureContext* find_our_context(void* context, const void* parent) {
  const DecodedChainHandle chained = decode_chain_handle(parent);
  const DecodedHandle ours = decode_handle(parent);
  const uint16_t hint = chained.kind != ChainHandleKind::kNone ? chained.slot
                        : ours.ours                            ? ours.slot
                                                               : t_last_slot;
  const CaptureContext* found = process_context_registry().find(context, hint);
  if (found != nullptr) t_last_slot = found->slot;
  return found;
}

// Their handle for `descr`, or NULL; their result is ignored, as NCCL ignores it.
template <typename Descr>
void* call_their_start(const ChainLink& link, Descr* descr) noexcept {
  void* theirs = nullptr;
  try {
    if constexpr (std::is_same_v<Descr, ncclProfilerEventDescr_v7_t>) {
      if (link.v7 != nullptr) {
        link.v7->startEvent(link.their_context, &theirs, descr);
      } else if (link.v6 != nullptr) {
        // v7 keeps every v6 member at its v6 offsets and appends its fields to them; KernelPhase
        // never reaches here (their_events has none).
        ncclProfilerEventDescr_v6_t v6_descr;
        static_assert(sizeof(v6_descr) <= sizeof(*descr));
        std::memcpy(&v6_descr, descr, sizeof(v6_descr));
        link.v6->startEvent(link.their_context, &theirs, &v6_descr);
      } else {
        ncclProfilerEventDescr_v5_t v5_descr;
        static_assert(sizeof(v5_descr) <= sizeof(*descr));
        std::memcpy(&v5_descr, descr, sizeof(v5_descr));
        link.v5->startEvent(link.their_context, &theirs, &v5_descr);
      }
    } else if constexpr (std::is_same_v<Descr, ncclProfilerEventDescr_v6_t>) {
      if (link.v6 != nullptr) {
        link.v6->startEvent(link.their_context, &theirs, descr);
      } else {
        // A v5 plugin under NCCL's v6 calls: v6 lays the v5 members out as v5 does, and CE
        // types never reach here (their_events has none).
        ncclProfilerEventDescr_v5_t v5_descr;
        static_assert(sizeof(v5_descr) <= sizeof(*descr));
        std::memcpy(&v5_descr, descr, sizeof(v5_descr));
        link.v5->startEvent(link.their_context, &theirs, &v5_descr);
      }
    } else if constexpr (std::is_same_v<Descr, ncclProfilerEventDescr_v5_t>) {
      link.v5->startEvent(link.their_context, &theirs, descr);
    } else {
      link.v4->startEvent(link.their_context, &theirs, descr);
    }
  } catch (...) {
  }
  return theirs;
}

template <typename Descr>
void* start_both(void* context, const Descr& descr) noexcept {
  const CaptureContext* ours_context = find_our_context(context, descr.parentObj);
  ChainLink* link = ours_context != nullptr
                        ? g_links[ours_context->slot].load(std::memory_order_acquire)
                        : nullptr;
  const uint64_t type = descr.type;
  const bool foreign_op = type == kEventProxyOp && descr.proxyOp.pid != own_pid();
  if (link == nullptr || foreign_op) return record_descr(context, descr);

  const Parts parent = parts_of(descr.parentObj);
  void* ours = nullptr;
  if ((type & link->our_events) != 0) {
    Descr our_descr = descr;
    our_descr.parentObj = parent.ours;
    if constexpr (!std::is_same_v<Descr, ncclProfilerEventDescr_v4_t>) {
      if (type == kEventColl) our_descr.coll.parentGroup = parts_of(descr.coll.parentGroup).ours;
      if (type == kEventP2p) our_descr.p2p.parentGroup = parts_of(descr.p2p.parentGroup).ours;
    }
    ours = record_descr(context, our_descr);
  }
  if (link->finalized.load(std::memory_order_acquire) || (type & link->their_events()) == 0) {
    return ours;
  }
  Descr their_descr = descr;
  their_descr.parentObj = parent.theirs;
  if constexpr (!std::is_same_v<Descr, ncclProfilerEventDescr_v4_t>) {
    if (type == kEventColl) their_descr.coll.parentGroup = parts_of(descr.coll.parentGroup).theirs;
    if (type == kEventP2p) their_descr.p2p.parentGroup = parts_of(descr.p2p.parentGroup).theirs;
  }
  void* const theirs = call_their_start(*link, &their_descr);
  if (theirs == nullptr) return ours;

  const DecodedHandle decoded = decode_handle(ours);
  if (decoded.ours && !decoded.dropped && decoded.slot == link->slot) {
    link->by_our_id->put(decoded.event_id, ours, theirs);
    return paired_handle(ours);
  }
  uint64_t key = link->last_chain_only_key.fetch_add(1, std::memory_order_relaxed) + 1;
  key &= kMaxEventId;
  if (key == 0) key = 1;
  link->chain_only->put(key, ours, theirs);
  return chain_only_handle(link->slot, key);
}

}  // namespace

ChainStart chain_init(const std::string& path, uint64_t our_mask,
                      const CommunicatorIdentity& identity,
                      nccl_abi::ncclDebugLogger_t logfn) noexcept {
  ChainStart out;
  try {
    auto link = std::make_unique<ChainLink>();
    std::string why_not;
    bool report = false;
    if (!resolve(path, identity.profiler_api, link.get(), &why_not, &report)) {
      if (report) {
        out.warnings.push_back("chained plugin " + path + " " + why_not + "; not chained");
      }
      out.metadata = "not loaded: " + path + " " + why_not;
      return out;
    }
    link->our_events = emitted_events(our_mask);
    const char* name = link->v7 != nullptr   ? link->v7->name
                       : link->v6 != nullptr ? link->v6->name
                       : link->v5 != nullptr ? link->v5->name
                                             : link->v4->name;
    const std::string label =
        (name != nullptr ? name : "(unnamed)") + std::string(" (") + path + ")";
    ncclResult_t result;
    if (link->v7 != nullptr || link->v6 != nullptr || link->v5 != nullptr) {
      const auto init = link->v7 != nullptr   ? link->v7->init
                        : link->v6 != nullptr ? link->v6->init
                                              : link->v5->init;
      result = init(&link->their_context, identity.comm_hash, &link->their_mask, identity.comm_name,
                    identity.nnodes, identity.nranks, identity.rank, logfn);
    } else {
      result = link->v4->init(&link->their_context, &link->their_mask, identity.comm_name,
                              identity.comm_hash, identity.nnodes, identity.nranks, identity.rank,
                              logfn);
    }
    if (result != nccl_abi::ncclSuccess || link->their_context == nullptr) {
      why_not = result != nccl_abi::ncclSuccess
                    ? "init returned " + std::to_string(static_cast<int>(result))
                    : "init left a NULL context";
      out.warnings.push_back("chained plugin " + label + " " + why_not +
                             "; not chained for this communicator");
      out.metadata = "not loaded: " + label + " " + why_not;
      retire(link.release());
      return out;
    }
    link->by_our_id = std::make_unique<HandleTable>();
    link->chain_only = std::make_unique<HandleTable>();
    out.their_mask = __atomic_load_n(&link->their_mask, __ATOMIC_RELAXED);
    out.metadata = label;
    out.link = link.release();
  } catch (...) {
    out.link = nullptr;
    out.warnings.push_back("chained plugin " + path + ": internal error; not chained");
    out.metadata = "not loaded: internal error";
  }
  return out;
}

void chain_attach(ChainLink* link, uint16_t slot) noexcept {
  if (link == nullptr) return;
  link->slot = slot;
  g_links[slot].store(link, std::memory_order_release);
  g_chain_in_use.store(true, std::memory_order_release);
}

void chain_abandon(ChainLink* link) noexcept {
  if (link == nullptr || link->finalized.exchange(true)) return;
  link->finalize();
  try {
    retire(link);
  } catch (...) {
    // Not kept: the link stays allocated, unreferenced; nothing reads it again.
  }
}

void chain_finalize(uint16_t slot) noexcept {
  ChainLink* link = g_links[slot].load(std::memory_order_acquire);
  if (link == nullptr || link->finalized.exchange(true)) return;
  link->finalize();
}

void* chained_start(void* context, const ncclProfilerEventDescr_v7_t& descr) noexcept {
  return start_both(context, descr);
}

void* chained_start(void* context, const ncclProfilerEventDescr_v6_t& descr) noexcept {
  return start_both(context, descr);
}

void* chained_start(void* context, const ncclProfilerEventDescr_v5_t& descr) noexcept {
  return start_both(context, descr);
}

void* chained_start(void* context, const ncclProfilerEventDescr_v4_t& descr) noexcept {
  return start_both(context, descr);
}

void chained_stop(void* handle) noexcept {
  const DecodedChainHandle decoded = decode_chain_handle(handle);
  const Parts parts = parts_of(handle, decoded);
  if (parts.ours != nullptr) stop_event(parts.ours);
  if (parts.theirs == nullptr || parts.their_stopped ||
      parts.link->finalized.load(std::memory_order_acquire)) {
    return;
  }
  HandleTable& table =
      decoded.kind == ChainHandleKind::kPaired ? *parts.link->by_our_id : *parts.link->chain_only;
  if (table.mark_stopped(decoded.key)) parts.link->stop(parts.theirs);
}

void chained_state(void* handle, int state, const ncclProfilerEventStateArgs_v5_t* args) noexcept {
  const Parts parts = parts_of(handle);
  if (parts.ours != nullptr) record_event_state(parts.ours, state, args);
  if (parts.theirs == nullptr || parts.their_stopped ||
      parts.link->finalized.load(std::memory_order_acquire)) {
    return;
  }
  parts.link->state(parts.theirs, state, const_cast<ncclProfilerEventStateArgs_v5_t*>(args));
}

}  // namespace npkit::capture
