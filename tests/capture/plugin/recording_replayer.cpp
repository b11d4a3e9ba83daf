#include "capture/plugin/recording_replayer.hpp"

#include <unistd.h>

#include <condition_variable>
#include <mutex>
#include <set>
#include <thread>

#include "capture/plugin/captured_log.hpp"
#include "capture/plugin/host_clock.hpp"

namespace npkit::test {
namespace {

class Replay {
 public:
  Replay(const Recording& recording, const PluginLibrary& plugin, bool honour_mask)
      : recording_(recording), plugin_(plugin), honour_mask_(honour_mask) {}

  ReplayOutcome run() {
    std::map<int64_t, std::vector<size_t>> calls_of_tid;
    for (size_t i = 0; i < recording_.calls.size(); ++i) {
      calls_of_tid[recording_.calls[i].tid].push_back(i);
    }
    std::vector<std::thread> threads;
    for (const auto& [tid, calls] : calls_of_tid) {
      threads.emplace_back([this, tid = tid, &calls = calls] { replay_thread(tid, calls); });
    }
    for (std::thread& thread : threads) thread.join();
    return std::move(outcome_);
  }

 private:
  void replay_thread(int64_t recorded_tid, const std::vector<size_t>& calls) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      outcome_.os_tid_of_recorded_tid[recorded_tid] = current_tid();
    }
    for (size_t index : calls) {
      const RecordedCall& call = recording_.calls[index];
      {
        std::unique_lock<std::mutex> lock(mutex_);
        turn_changed_.wait(lock, [&] { return turn_ == call.seq; });
      }
      // Only the thread holding the turn runs here; the maps are handed over with the mutex.
      execute(call);
      {
        std::lock_guard<std::mutex> lock(mutex_);
        ++turn_;
      }
      turn_changed_.notify_all();
    }
  }

  void fail(const RecordedCall& call, const std::string& what) {
    std::lock_guard<std::mutex> lock(mutex_);
    outcome_.errors.push_back(recording_.path + " seq " + std::to_string(call.seq) + ": " + what);
  }

  // The pointer the plugin returned for a recorded handle id (0 = NULL).
  void* handle_of(const RecordedCall& call, uint64_t recorded) {
    if (recorded == 0) return nullptr;
    auto found = handles_.find(recorded);
    if (found == handles_.end()) {
      fail(call, "unknown handle id " + std::to_string(recorded));
      return nullptr;
    }
    return found->second;
  }

  void* context_of(const RecordedCall& call) {
    auto found = contexts_.find(call.ctx);
    if (found == contexts_.end()) {
      fail(call, "unknown context id " + std::to_string(call.ctx));
      return nullptr;
    }
    return found->second;
  }

  // Whether NCCL would make this start under the mask (and which mask its children inherit).
  bool started_by_nccl(const RecordedCall& call) {
    const uint64_t type = call.descr.type;
    int mask = 0;
    if (type == abi::kCollApi || type == abi::kP2pApi || type == abi::kProxyCtrl) {
      mask = __atomic_load_n(&mask_, __ATOMIC_RELAXED);
    } else {
      const auto parent = mask_of_handle_.find(call.parent);
      if (parent == mask_of_handle_.end()) return true;
      mask = parent->second;
    }
    mask_of_handle_[call.handle] = mask;
    const int proxy = abi::kProxyOp | abi::kProxyStep | abi::kNetPlugin;
    switch (type) {
      case abi::kColl:
        return (mask & (abi::kColl | abi::kKernelCh | proxy)) != 0;
      case abi::kP2p:
        return (mask & (abi::kP2p | abi::kKernelCh | proxy)) != 0;
      case abi::kKernelCh:
        return (mask & abi::kKernelCh) != 0;
      case abi::kProxyOp:
        return (mask & proxy) != 0;
      case abi::kProxyStep:
        return (mask & (abi::kProxyStep | abi::kNetPlugin)) != 0;
      case abi::kNetPlugin:
        return (mask & abi::kNetPlugin) != 0;
      case abi::kProxyCtrl:
        return (mask & abi::kProxyCtrl) != 0;
      default:
        return true;
    }
  }

  void execute(const RecordedCall& call) {
    if (honour_mask_ && call.kind == RecordedCall::Kind::kStart && !started_by_nccl(call)) {
      skipped_.insert(call.handle);
      mask_of_handle_[call.handle] = 0;
      ++outcome_.starts_skipped;
      return;
    }
    if ((call.kind == RecordedCall::Kind::kState || call.kind == RecordedCall::Kind::kStop) &&
        skipped_.count(call.handle) != 0) {
      return;
    }
    const abi::ProfilerV5& v5 = *plugin_.v5;
    abi::Result result = abi::kSuccess;
    switch (call.kind) {
      case RecordedCall::Kind::kInit: {
        void* context = nullptr;
        result = v5.init(&context, call.comm_id, &mask_, call.comm_name.c_str(), call.nnodes,
                         call.nranks, call.rank, capture_log);
        if (context == nullptr) fail(call, "init returned no context");
        contexts_[call.ctx] = context;
        std::lock_guard<std::mutex> lock(mutex_);
        outcome_.mask_after_init[call.ctx] = mask_;
        break;
      }
      case RecordedCall::Kind::kStart: {
        abi::EventDescrV5 descr = call.descr;
        descr.parentObj = handle_of(call, call.parent);
        if (descr.type == abi::kColl) descr.coll.parentGroup = handle_of(call, call.parent_group);
        if (descr.type == abi::kP2p) descr.p2p.parentGroup = handle_of(call, call.parent_group);
        if (descr.type == abi::kProxyOp && descr.proxyOp.pid == recording_.pid) {
          descr.proxyOp.pid = ::getpid();
        }
        void* handle = nullptr;
        result = v5.startEvent(context_of(call), &handle, &descr);
        if (handle == nullptr) fail(call, "start returned no handle");
        handles_[call.handle] = handle;
        break;
      }
      case RecordedCall::Kind::kState: {
        abi::StateArgs args = call.args;
        result = v5.recordEventState(handle_of(call, call.handle),
                                     static_cast<abi::EventState>(call.state),
                                     call.null_args ? nullptr : &args);
        break;
      }
      case RecordedCall::Kind::kStop:
        result = v5.stopEvent(handle_of(call, call.handle));
        break;
      case RecordedCall::Kind::kFinalize:
        result = v5.finalize(context_of(call));
        break;
    }
    if (result != abi::kSuccess) fail(call, "result " + std::to_string(result));
  }

  const Recording& recording_;
  const PluginLibrary& plugin_;
  std::mutex mutex_;
  std::condition_variable turn_changed_;
  uint64_t turn_ = 0;
  const bool honour_mask_;
  int mask_ = 0;
  std::map<uint64_t, int> mask_of_handle_;  // recorded handle id -> the mask of its call
  std::set<uint64_t> skipped_;              // recorded handle ids NCCL would not have started
  std::map<uint64_t, void*> contexts_;
  std::map<uint64_t, void*> handles_;
  ReplayOutcome outcome_;
};

}  // namespace

ReplayOutcome replay_recording(const Recording& recording, const PluginLibrary& plugin,
                               bool honour_mask) {
  return Replay(recording, plugin, honour_mask).run();
}

}  // namespace npkit::test
