// comm_driver.hpp — drives one communicator of the plugin through API v5 (or v4, v6) and remembers,
// for every call, what the dump must then contain: the record kind and type, the event it names,
// the expected parent link or parent flags, the descriptor or state arguments fed, the calling
// thread and a host-clock bracket [t_before, t_after] around the call.
//
// Contract:
// - The constructor calls init (REQUIREs ncclSuccess and a non-NULL context); finalize() calls
//   finalize once. Calls may come from several threads, but the expectations assume they are
//   serialized (one call at a time), so that buffer order equals call order.
// - start() REQUIREs a non-NULL handle. With ParentLink::kAuto the expectation follows parentObj:
//   NULL -> kStartParentNull; a handle this driver returned -> a link to that event; anything else
//   is a test error. Other links are stated by the test.
// - Under API v4 the v5 descriptor given to start() is converted field by field to the v4 layout
//   (over bytes filled with 0xCD, as NCCL's adapter does not zero it); API events are refused.
//   Under API v6 it is fed as the same bytes in the v6 layout.
// - Under API v5 and v6 a Coll or P2p start with a non-NULL parentGroup is followed by an
//   expected detail record (kRecordDetail, kDetailParentGroup): parent_call is then the group's
//   start call, or parent_flags kStartParentUnknown for a group this driver did not start.
// - A state that carries no arguments (19, 23, 24, 25..30) is expected with has_args 0 and
//   value 0 whatever args are fed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "capture/plugin/nccl_abi_for_tests.hpp"
#include "capture/plugin/plugin_library.hpp"
#include "npkit/format.hpp"

namespace npkit::test {

enum class ParentLink {
  kAuto,       // derived from parentObj (see contract)
  kOtherComm,  // a handle of another communicator: kStartParentOtherComm, parent_id 0
  kUnknown,    // not a handle of the plugin: kStartParentUnknown, parent_id 0
};

struct CommSetup {
  uint64_t comm_hash = 0;
  int rank = 0;
  int nranks = 1;
  int nnodes = 1;
  const char* comm_name = nullptr;
  int api = 5;  // 6, 5 or 4
};

struct LoggedCall {
  format::RecordKind kind = format::kRecordNone;
  uint8_t type_index = 0;               // bit index of the event's type
  size_t start_call = 0;                // index in calls() of the event's start
  abi::EventDescrV5 descr{};            // start: what was fed (as v5 fields)
  std::optional<size_t> parent_call;    // start: index of the parent's start call
  uint32_t parent_flags = 0;            // start: expected ProfilerRecord::word
  uint32_t state = 0;                   // state: the state number
  std::optional<uint64_t> state_value;  // state: expected StatePayload::value (nullopt: any)
  bool state_has_args = false;          // state: eStateArgs != NULL
  int64_t t_before = 0;
  int64_t t_after = 0;
  int32_t tid = 0;
};

class CommDriver {
 public:
  // Drives `plugin`, or the process's shared instance (require_plugin()) when NULL.
  explicit CommDriver(const CommSetup& setup, const PluginLibrary* plugin = nullptr);

  void* start(const abi::EventDescrV5& descr, ParentLink link = ParentLink::kAuto);
  void state(void* handle, int state, const abi::StateArgs* args);
  void stop(void* handle);
  void finalize();

  const CommSetup& setup() const { return setup_; }
  void* context() const { return context_; }
  int mask() const { return mask_; }
  int64_t init_before() const { return init_before_; }
  int64_t init_after() const { return init_after_; }
  int64_t finalize_before() const { return finalize_before_; }
  int64_t finalize_after() const { return finalize_after_; }
  std::vector<LoggedCall> calls() const;

 private:
  void log(LoggedCall call);
  void log_parent_group(const LoggedCall& start);

  CommSetup setup_;
  const PluginLibrary& lib_;
  void* context_ = nullptr;
  int mask_ = -1;
  int64_t init_before_ = 0, init_after_ = 0, finalize_before_ = 0, finalize_after_ = 0;
  mutable std::mutex mutex_;
  std::vector<LoggedCall> calls_;
  std::map<void*, size_t> start_of_handle_;
};

// Descriptor builders with every field given (rank as NCCL sets it: the comm rank for Coll, P2p,
// ProxyOp, ProxyStep and NetPlugin; 0 otherwise).
abi::EventDescrV5 group_api_descr(int group_depth, bool graph_captured);
abi::EventDescrV5 coll_api_descr(void* parent, const char* func, size_t count, const char* datatype,
                                 int root, void* stream, bool graph_captured);
abi::EventDescrV5 p2p_api_descr(void* parent, const char* func, size_t count, const char* datatype,
                                void* stream, bool graph_captured);
abi::EventDescrV5 kernel_launch_descr(void* parent, void* stream);
abi::EventDescrV5 group_descr();
abi::EventDescrV5 coll_descr(void* parent, int rank, uint64_t seq, const char* func, size_t count,
                             int root, const char* datatype, uint8_t n_channels, uint8_t n_warps,
                             const char* algo, const char* proto, void* parent_group);
abi::EventDescrV5 p2p_descr(void* parent, int rank, const char* func, size_t count,
                            const char* datatype, int peer, uint8_t n_channels, void* parent_group);
abi::EventDescrV5 proxy_op_descr(void* parent, int rank, pid_t pid, uint8_t channel, int peer,
                                 int n_steps, int chunk_size, int is_send);
abi::EventDescrV5 proxy_step_descr(void* parent, int rank, int step);
abi::EventDescrV5 kernel_ch_descr(void* parent, uint8_t channel, uint64_t gpu_start_ns);
abi::EventDescrV5 proxy_ctrl_descr();
abi::EventDescrV5 net_plugin_descr(void* parent, int rank, int64_t plugin_id, void* data);

// State arguments with one member set (the other bytes of the union are 0xFF, so reading the
// wrong member shows).
abi::StateArgs trans_size_args(size_t trans_size);
abi::StateArgs appended_ops_args(int appended);
abi::StateArgs kernel_stop_args(uint64_t gpu_stop_ns);
abi::StateArgs net_data_args(void* data);
abi::StateArgs zeroed_args();

}  // namespace npkit::test
