#include "capture/plugin/comm_summary.hpp"

#include <cstring>

namespace npkit::test {
namespace {

int bit_index(uint64_t type) {
  return __builtin_ctzll(type);
}

template <typename Payload>
Payload payload_of(const format::ProfilerRecord& record) {
  Payload p;
  std::memcpy(&p, record.payload, sizeof(p));
  return p;
}

}  // namespace

std::map<uint64_t, CommSummary> summarize_recording(const Recording& recording) {
  std::map<uint64_t, uint64_t> comm_of_ctx;
  std::map<uint64_t, std::pair<uint64_t, uint64_t>> comm_and_type_of_handle;
  std::map<uint64_t, int> kernel_channel_of_handle;
  std::map<uint64_t, CommSummary> summaries;
  for (const RecordedCall& call : recording.calls) {
    switch (call.kind) {
      case RecordedCall::Kind::kInit: {
        comm_of_ctx[call.ctx] = call.comm_id;
        CommSummary& s = summaries[call.comm_id];
        s.comm_hash = call.comm_id;
        s.rank = call.rank;
        s.nranks = call.nranks;
        s.nnodes = call.nnodes;
        s.end_reason = format::kEndProcessExit;
        break;
      }
      case RecordedCall::Kind::kFinalize:
        summaries.at(comm_of_ctx.at(call.ctx)).end_reason = format::kEndFinalize;
        break;
      case RecordedCall::Kind::kStart: {
        const uint64_t comm = comm_of_ctx.at(call.ctx);
        const abi::EventDescrV5& d = call.descr;
        comm_and_type_of_handle[call.handle] = {comm, d.type};
        CommSummary& s = summaries.at(comm);
        ++s.records_by_type_and_kind[{bit_index(d.type), format::kRecordStart}];
        // A v5 Coll/P2p naming its legacy Group gets a parent-group detail record after its start.
        if ((d.type == abi::kColl || d.type == abi::kP2p) && call.parent_group != 0) {
          ++s.records_by_type_and_kind[{bit_index(d.type), format::kRecordDetail}];
        }
        s.threads.insert(call.tid);
        if (d.type == abi::kColl) {
          s.colls.push_back(CollRow{d.coll.seqNumber, d.coll.func, d.coll.count, d.coll.algo,
                                    d.coll.proto, d.coll.nChannels});
        } else if (d.type == abi::kKernelCh) {
          kernel_channel_of_handle[call.handle] = d.kernelCh.channelId;
          s.kernel_start_ns_by_channel[d.kernelCh.channelId].push_back(d.kernelCh.pTimer);
        }
        break;
      }
      case RecordedCall::Kind::kState:
      case RecordedCall::Kind::kStop: {
        const auto [comm, type] = comm_and_type_of_handle.at(call.handle);
        CommSummary& s = summaries.at(comm);
        s.threads.insert(call.tid);
        if (call.kind == RecordedCall::Kind::kStop) {
          ++s.records_by_type_and_kind[{bit_index(type), format::kRecordStop}];
          break;
        }
        ++s.records_by_type_and_kind[{bit_index(type), format::kRecordState}];
        ++s.states_by_type_and_number[{bit_index(type), static_cast<uint32_t>(call.state)}];
        if (type == abi::kKernelCh && call.state == format::kStateKernelChStop) {
          s.kernel_stop_ns_by_channel[kernel_channel_of_handle.at(call.handle)].push_back(
              call.args.kernelCh.pTimer);
        }
        break;
      }
    }
  }
  return summaries;
}

CommSummary summarize_dump(const NpktDump& dump) {
  CommSummary s;
  s.comm_hash = dump.comm.comm_hash;
  s.rank = dump.comm.rank;
  s.nranks = dump.comm.nranks;
  s.nnodes = dump.comm.nnodes;
  s.end_reason = dump.comm.end_reason;
  std::map<uint32_t, int32_t> tid_of_slot;
  for (const format::ThreadEntry& entry : dump.threads) tid_of_slot[entry.slot] = entry.os_tid;
  std::map<uint64_t, int> kernel_channel_of_event;
  for (const format::ProfilerRecord& rec : dump.records) {
    ++s.records_by_type_and_kind[{rec.type, rec.kind}];
    auto tid = tid_of_slot.find(rec.thread);
    s.threads.insert(tid == tid_of_slot.end() ? -1 : tid->second);
    if (rec.kind == format::kRecordState) ++s.states_by_type_and_number[{rec.type, rec.word}];
    if (rec.kind == format::kRecordStart && rec.type == format::kTypeColl) {
      const auto coll = payload_of<format::CollPayload>(rec);
      s.colls.push_back(CollRow{coll.seq, dump.string_at(coll.func), coll.count,
                                dump.string_at(coll.algo), dump.string_at(coll.proto),
                                coll.n_channels});
    } else if (rec.kind == format::kRecordStart && rec.type == format::kTypeKernelCh) {
      const auto kernel = payload_of<format::KernelChPayload>(rec);
      kernel_channel_of_event[rec.event_id] = kernel.channel;
      s.kernel_start_ns_by_channel[kernel.channel].push_back(kernel.gpu_start_ns);
    } else if (rec.kind == format::kRecordState && rec.type == format::kTypeKernelCh &&
               rec.word == format::kStateKernelChStop) {
      auto channel = kernel_channel_of_event.find(rec.event_id);
      s.kernel_stop_ns_by_channel[channel == kernel_channel_of_event.end() ? -1 : channel->second]
          .push_back(payload_of<format::StatePayload>(rec).value);
    }
  }
  return s;
}

}  // namespace npkit::test
