#include "capture/plugin/dump_checks.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <sstream>
#include <string>

#include <catch2/catch.hpp>

#include "capture/plugin/dump_files.hpp"

namespace npkit::test {
namespace {

// Collects mismatches and reports them as one CHECK with the first few listed.
class Mismatches {
 public:
  void add(const std::string& what) {
    ++count_;
    if (count_ <= 25) text_ += what + "\n";
  }
  void check(const char* what) const {
    INFO(what << ": " << count_ << " mismatch(es)\n" << text_);
    CHECK(count_ == 0);
  }

 private:
  size_t count_ = 0;
  std::string text_;
};

template <typename Payload>
Payload payload_of(const format::ProfilerRecord& record) {
  static_assert(sizeof(Payload) == sizeof(record.payload));
  Payload p;
  std::memcpy(&p, record.payload, sizeof(p));
  return p;
}

class FieldDiff {
 public:
  template <typename A, typename B>
  void equal(const char* field, const A& actual, const B& expected) {
    if (!(actual == expected)) {
      std::ostringstream s;
      s << field << " = " << +actual << ", expected " << +expected << "; ";
      text_ += s.str();
    }
  }
  void string(const NpktDump& dump, const char* field, uint16_t id, const char* expected) {
    const std::string want = expected != nullptr ? expected : "";
    if (dump.string_at(id) != want || (expected == nullptr && id != 0) ||
        (expected != nullptr && id == 0)) {
      text_ += std::string(field) + " = #" + std::to_string(id) + " \"" + dump.string_at(id) +
               "\", expected \"" + want + "\"; ";
    }
  }
  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

uint64_t pointer_value(const void* p) {
  return reinterpret_cast<uint64_t>(p);
}

}  // namespace

DumpExpectations finalized_expectations(const CommDriver& comm) {
  DumpExpectations e;
  e.records_attempted = comm.calls().size();
  e.end_before = comm.finalize_before();
  e.end_after = comm.finalize_after();
  return e;
}

void check_comm_info(const NpktDump& dump, const CommDriver& comm,
                     const DumpExpectations& expected) {
  const format::CommunicatorInfo& info = dump.comm;
  CHECK(info.comm_hash == comm.setup().comm_hash);
  CHECK(info.rank == comm.setup().rank);
  CHECK(info.nranks == comm.setup().nranks);
  CHECK(info.nnodes == comm.setup().nnodes);
  CHECK(info.pid == static_cast<int32_t>(::getpid()));
  CHECK(info.profiler_api == static_cast<uint32_t>(comm.setup().api));
  CHECK(info.end_reason == expected.end_reason);
  CHECK(info.host_clock == format::kHostClockRealtime);
  CHECK(info.event_mask == static_cast<uint64_t>(comm.mask()));
  CHECK(info.capture_start_ns >= comm.init_before());
  CHECK(info.capture_start_ns <= comm.init_after());
  CHECK(info.capture_end_ns >= expected.end_before);
  CHECK(info.capture_end_ns <= expected.end_after);
  CHECK(info.records_capacity == expected.records_capacity);
  CHECK(info.records_attempted == expected.records_attempted);
  CHECK(info.records_dropped == expected.records_dropped);
  CHECK(info.records_incomplete == 0);
  CHECK(info.events_after_dump == 0);
  // No CUDA context is current on any test thread: the plugin cannot sample the GPU clock.
  CHECK(info.clock_method == format::kClockNone);
  CHECK(dump.clock_samples.empty());
  CHECK_FALSE(dump.meta("clock.note").empty());
  CHECK((dump.feature_bits & format::kFeatureProfilerRecords) != 0);
  CHECK((dump.feature_bits & format::kFeatureClockCalibration) == 0);
  CHECK(dump.records.size() == expected.records_attempted - expected.records_dropped);
}

std::string start_payload_mismatch(const NpktDump& dump, const format::ProfilerRecord& record,
                                   const abi::EventDescrV5& d) {
  FieldDiff diff;
  switch (d.type) {
    case abi::kGroupApi: {
      auto p = payload_of<format::GroupApiPayload>(record);
      diff.equal("group_depth", p.group_depth, d.groupApi.groupDepth);
      diff.equal("graph_captured", p.graph_captured, d.groupApi.graphCaptured ? 1 : 0);
      break;
    }
    case abi::kCollApi: {
      auto p = payload_of<format::CollApiPayload>(record);
      diff.equal("count", p.count, d.collApi.count);
      diff.equal("stream", p.stream, pointer_value(d.collApi.stream));
      diff.equal("root", p.root, d.collApi.root);
      diff.string(dump, "func", p.func, d.collApi.func);
      diff.string(dump, "datatype", p.datatype, d.collApi.datatype);
      diff.equal("graph_captured", p.graph_captured, d.collApi.graphCaptured ? 1 : 0);
      break;
    }
    case abi::kP2pApi: {
      auto p = payload_of<format::P2pApiPayload>(record);
      diff.equal("count", p.count, d.p2pApi.count);
      diff.equal("stream", p.stream, pointer_value(d.p2pApi.stream));
      diff.string(dump, "func", p.func, d.p2pApi.func);
      diff.string(dump, "datatype", p.datatype, d.p2pApi.datatype);
      diff.equal("graph_captured", p.graph_captured, d.p2pApi.graphCaptured ? 1 : 0);
      break;
    }
    case abi::kKernelLaunch: {
      auto p = payload_of<format::KernelLaunchPayload>(record);
      diff.equal("stream", p.stream, pointer_value(d.kernelLaunch.stream));
      break;
    }
    case abi::kColl: {
      auto p = payload_of<format::CollPayload>(record);
      diff.equal("seq", p.seq, d.coll.seqNumber);
      diff.equal("count", p.count, d.coll.count);
      diff.equal("root", p.root, d.coll.root);
      diff.string(dump, "func", p.func, d.coll.func);
      diff.string(dump, "datatype", p.datatype, d.coll.datatype);
      diff.string(dump, "algo", p.algo, d.coll.algo);
      diff.string(dump, "proto", p.proto, d.coll.proto);
      diff.equal("n_channels", p.n_channels, d.coll.nChannels);
      diff.equal("n_warps", p.n_warps, d.coll.nWarps);
      break;
    }
    case abi::kP2p: {
      auto p = payload_of<format::P2pPayload>(record);
      diff.equal("count", p.count, d.p2p.count);
      diff.equal("peer", p.peer, d.p2p.peer);
      diff.string(dump, "func", p.func, d.p2p.func);
      diff.string(dump, "datatype", p.datatype, d.p2p.datatype);
      // docs/format.md: kept under API v4 too, unless NCCL 2.28+ drives v4 (the tests' logger is
      // no NCCL's, so the value fed is kept).
      diff.equal("n_channels", p.n_channels, d.p2p.nChannels);
      break;
    }
    case abi::kProxyOp: {
      auto p = payload_of<format::ProxyOpPayload>(record);
      diff.equal("pid", p.pid, d.proxyOp.pid);
      diff.equal("peer", p.peer, d.proxyOp.peer);
      diff.equal("n_steps", p.n_steps, d.proxyOp.nSteps);
      diff.equal("chunk_size", p.chunk_size, d.proxyOp.chunkSize);
      diff.equal("rank", p.rank, d.rank);
      diff.equal("channel", p.channel, d.proxyOp.channelId);
      diff.equal("is_send", p.is_send, d.proxyOp.isSend);
      break;
    }
    case abi::kProxyStep: {
      auto p = payload_of<format::ProxyStepPayload>(record);
      diff.equal("step", p.step, d.proxyStep.step);
      diff.equal("rank", p.rank, d.rank);
      break;
    }
    case abi::kKernelCh: {
      auto p = payload_of<format::KernelChPayload>(record);
      diff.equal("gpu_start_ns", p.gpu_start_ns, d.kernelCh.pTimer);
      diff.equal("channel", p.channel, d.kernelCh.channelId);
      break;
    }
    case abi::kNetPlugin: {
      auto p = payload_of<format::NetPluginPayload>(record);
      diff.equal("plugin_id", p.plugin_id, d.netPlugin.id);
      break;
    }
    default:  // Group, ProxyCtrl: no payload fields.
      break;
  }
  return diff.text();
}

void check_records_match_calls(const NpktDump& dump, const std::vector<LoggedCall>& calls) {
  REQUIRE(dump.records.size() == calls.size());
  std::map<uint32_t, int32_t> tid_of_slot;
  for (const format::ThreadEntry& t : dump.threads) tid_of_slot[t.slot] = t.os_tid;

  Mismatches bad;
  std::map<uint64_t, size_t> start_with_id;
  std::map<uint16_t, uint64_t> last_ns_of_slot;
  for (size_t i = 0; i < calls.size(); ++i) {
    const LoggedCall& call = calls[i];
    const format::ProfilerRecord& rec = dump.records[i];
    const std::string at = "record " + std::to_string(i) + ": ";
    if (rec.kind != call.kind) {
      bad.add(at + "kind " + std::to_string(rec.kind) + ", expected " + std::to_string(call.kind));
      continue;
    }
    if (rec.type != call.type_index) {
      bad.add(at + "type " + std::to_string(rec.type) + ", expected " +
              std::to_string(call.type_index));
    }
    auto slot = tid_of_slot.find(rec.thread);
    if (slot == tid_of_slot.end()) {
      bad.add(at + "thread slot " + std::to_string(rec.thread) + " not in the Threads section");
    } else if (slot->second != call.tid) {
      bad.add(at + "thread tid " + std::to_string(slot->second) + ", expected " +
              std::to_string(call.tid));
    }
    if (static_cast<int64_t>(rec.host_ns) < call.t_before ||
        static_cast<int64_t>(rec.host_ns) > call.t_after) {
      bad.add(at + "host_ns " + std::to_string(rec.host_ns) + " outside the call [" +
              std::to_string(call.t_before) + ", " + std::to_string(call.t_after) + "]");
    }
    auto last = last_ns_of_slot.find(rec.thread);
    if (last != last_ns_of_slot.end() && rec.host_ns < last->second) {
      bad.add(at + "host_ns goes back on its thread");
    }
    last_ns_of_slot[rec.thread] = rec.host_ns;

    if (call.kind == format::kRecordStart) {
      if (rec.event_id == 0 || !start_with_id.emplace(rec.event_id, i).second) {
        bad.add(at + "start event_id " + std::to_string(rec.event_id) + " is 0 or reused");
      }
      if (rec.word != call.parent_flags) {
        bad.add(at + "parent flags " + std::to_string(rec.word) + ", expected " +
                std::to_string(call.parent_flags));
      }
      const uint64_t parent_id =
          call.parent_call ? dump.records[*call.parent_call].event_id : uint64_t{0};
      if (rec.parent_id != parent_id) {
        bad.add(at + "parent_id " + std::to_string(rec.parent_id) + ", expected " +
                std::to_string(parent_id));
      }
      const std::string fields = start_payload_mismatch(dump, rec, call.descr);
      if (!fields.empty()) bad.add(at + fields);
      continue;
    }
    const uint64_t event_id = dump.records[call.start_call].event_id;
    if (rec.event_id != event_id) {
      bad.add(at + "event_id " + std::to_string(rec.event_id) + ", expected " +
              std::to_string(event_id));
    }
    if (call.kind == format::kRecordDetail) {
      const auto group = payload_of<format::ParentGroupDetail>(rec);
      const uint64_t group_id =
          call.parent_call ? dump.records[*call.parent_call].event_id : uint64_t{0};
      if (rec.word != format::kDetailParentGroup || rec.parent_id != 0 ||
          group.group_id != group_id || group.flags != call.parent_flags) {
        bad.add(at + "parent group detail: word " + std::to_string(rec.word) + ", group " +
                std::to_string(group.group_id) + " flags " + std::to_string(group.flags) +
                ", expected group " + std::to_string(group_id) + " flags " +
                std::to_string(call.parent_flags));
      }
      continue;
    }
    if (call.kind == format::kRecordStop) {
      const format::ProfilerRecord zero{};
      if (rec.word != 0 || std::memcmp(rec.payload, zero.payload, sizeof(rec.payload)) != 0) {
        bad.add(at + "stop record with a non-zero word or payload");
      }
      continue;
    }
    const auto state = payload_of<format::StatePayload>(rec);
    if (rec.word != call.state) {
      bad.add(at + "state " + std::to_string(rec.word) + ", expected " +
              std::to_string(call.state));
    }
    if (state.has_args != (call.state_has_args ? 1 : 0)) {
      bad.add(at + "has_args " + std::to_string(state.has_args));
    }
    if (call.state_value && state.value != *call.state_value) {
      bad.add(at + "state value " + std::to_string(state.value) + ", expected " +
              std::to_string(*call.state_value));
    }
  }
  bad.check("records against calls");
}

NpktDump finalize_and_check(CommDriver& comm, const std::string& dir) {
  comm.finalize();
  const std::string name = dump_file_name(comm.setup().comm_hash, comm.setup().rank);
  const std::vector<std::string> files = entries_in(dir);
  INFO("looking for " << name << " in " << dir);
  REQUIRE(std::count(files.begin(), files.end(), name) == 1);
  NpktDump dump = read_dump(dir + "/" + name);
  check_comm_info(dump, comm, finalized_expectations(comm));
  check_records_match_calls(dump, comm.calls());
  return dump;
}

void check_names_section(const NpktDump& dump) {
  const std::map<uint32_t, std::string> types = {
      {0, "Group"},     {1, "Coll"},      {2, "P2p"},      {3, "ProxyOp"},
      {4, "ProxyStep"}, {5, "ProxyCtrl"}, {6, "KernelCh"}, {7, "NetPlugin"},
      {8, "GroupApi"},  {9, "CollApi"},   {10, "P2pApi"},  {11, "KernelLaunch"},
      {12, "CeColl"},   {13, "CeSync"},   {14, "CeBatch"}, {15, "KernelPhase"}};
  std::map<uint32_t, std::string> type_names;
  for (const auto& [id, name] : dump.event_type_names) {
    CHECK(type_names.emplace(id, name).second);
  }
  for (const auto& [id, name] : types) {
    INFO("event type bit " << id);
    REQUIRE(type_names.count(id) == 1);
    CHECK(type_names[id] == name);
  }
  // Reference 2.6, NCCL core names without the ncclProfiler prefix; 19 and 20 carry a "_v4"
  // suffix in NCCL, so only their stem is required.
  const std::map<uint32_t, std::string> states = {
      {8, "ProxyStepSendGPUWait"},    {9, "ProxyStepSendWait"},     {10, "ProxyStepRecvWait"},
      {11, "ProxyStepRecvFlushWait"}, {12, "ProxyStepRecvGPUWait"}, {13, "ProxyCtrlIdle"},
      {14, "ProxyCtrlActive"},        {15, "ProxyCtrlSleep"},       {16, "ProxyCtrlWakeup"},
      {17, "ProxyCtrlAppend"},        {18, "ProxyCtrlAppendEnd"},   {19, "ProxyOpInProgress"},
      {20, "ProxyStepSendPeerWait"},  {21, "NetPluginUpdate"},      {22, "KernelChStop"},
      {23, "GroupStartApiStop"},      {24, "GroupEndApiStart"},     {25, "CeCollStart"},
      {26, "CeCollComplete"},         {27, "CeSyncStart"},          {28, "CeSyncComplete"},
      {29, "CeBatchStart"},           {30, "CeBatchComplete"},      {31, "KernelPhaseStop"}};
  std::map<uint32_t, std::string> state_names;
  for (const auto& [id, name] : dump.state_names) CHECK(state_names.emplace(id, name).second);
  for (const auto& [id, name] : states) {
    INFO("state " << id << " named \"" << state_names[id] << "\"");
    if (id == 19 || id == 20) {
      CHECK(state_names[id].rfind(name, 0) == 0);
    } else {
      CHECK(state_names[id] == name);
    }
  }
}

}  // namespace npkit::test
