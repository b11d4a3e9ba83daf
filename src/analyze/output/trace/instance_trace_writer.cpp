#include "output/trace/instance_trace_writer.hpp"

#include <algorithm>
#include <map>

#include "npkit/version.hpp"
#include "output/json_writer.hpp"
#include "output/trace/busbw_counters.hpp"
#include "output/trace/trace_lanes.hpp"
#include "run/trace_layout.hpp"

namespace npkit {
namespace {

struct Slice {
  const RunInstance* inst = nullptr;
  const RunMember* member = nullptr;
};

std::string other_data(const Run& run, std::int64_t origin) {
  std::string other;
  JsonWriter w(other);
  w.begin_object();
  w.field("generator", "npkit-analyze " NPKIT_VERSION_STRING);
  w.field("layout", kTraceLayout);
  w.field("source", run.path);
  w.field("source_kind", "collective instances");
  w.field("clock", "private: time_origin_ns is the input's earliest time, not the wall clock");
  w.field("time_origin_ns", origin);
  w.field("time_unit", "ts and dur are microseconds after time_origin_ns, exact to the nanosecond");
  w.end_object();
  while (!other.empty() && other.back() == '\n') other.pop_back();
  return other;
}

}  // namespace

Status write_instance_trace(const Run& run, TraceEncoder& encoder,
                            const std::string& path_for_messages) {
  std::int64_t origin = INT64_MAX;
  std::string why;
  std::vector<const RunCommunicator*> comms;
  for (const auto& comm : run.comms) {
    if (!comm.no_start_times.empty()) {
      why = comm.no_start_times;
      continue;
    }
    comms.push_back(&comm);
    for (const auto& inst : comm.instances) {
      for (const auto& m : inst.members) {
        if (m.timed) origin = std::min(origin, m.start_ns);
      }
    }
  }
  if (comms.empty()) {
    return Error{run.path + ": no operation with a start time to trace: " +
                 (why.empty() ? std::string("the input holds no communicator") : why)};
  }
  if (origin == INT64_MAX) origin = 0;
  encoder.begin(other_data(run, origin), origin);
  std::uint32_t number = 0;
  std::map<std::pair<const RunCommunicator*, std::int32_t>, std::uint32_t> pids;
  for (const RunCommunicator* comm : comms) {
    std::map<std::int32_t, std::vector<Slice>> by_rank;
    for (const auto& inst : comm->instances) {
      for (const auto& m : inst.members) {
        if (m.timed) by_rank[m.rank].push_back({&inst, &m});
      }
    }
    for (const auto& rank : comm->ranks) {
      const std::uint32_t pid = trace_pid(++number, TraceTimeBase::kHost);
      pids[{comm, rank.rank}] = pid;
      encoder.name_process(
          pid, trace_process_name(rank.rank, comm->hash, rank.host, TraceTimeBase::kHost));
      auto& slices = by_rank[rank.rank];
      std::sort(slices.begin(), slices.end(), [](const Slice& a, const Slice& b) {
        if (a.member->start_ns != b.member->start_ns) {
          return a.member->start_ns < b.member->start_ns;
        }
        return a.member->end_ns > b.member->end_ns;
      });
      LanePacker lanes;
      std::vector<bool> named;
      for (const Slice& s : slices) {
        const std::uint32_t lane = lanes.place(s.member->start_ns, s.member->end_ns);
        const std::uint32_t tid = trace_tid(TraceThread::kCollectives, 0, lane);
        if (named.size() <= lane) named.resize(lane + 1, false);
        if (!named[lane]) {
          encoder.name_thread(pid, tid, trace_thread_name(TraceThread::kCollectives, 0, lane));
          named[lane] = true;
        }
        TraceArgList args;
        args.add_uint("seq", s.inst->seq);
        args.add_uint("size", s.inst->bytes);
        args.add_int("time_ns", s.member->duration_ns());
        args.add_uint("channels", s.member->channels);
        TraceSlice slice;
        slice.name = s.inst->func;
        slice.category = "collective";
        slice.pid = pid;
        slice.tid = tid;
        slice.start_ns = s.member->start_ns - origin;
        slice.end_ns = s.member->end_ns - origin;
        slice.args = &args;
        encoder.write(slice);
      }
      encoder.close_process(pid);
    }
  }
  write_busbw_counters(
      run,
      [&](const RunCommunicator& comm, std::int32_t rank) -> std::optional<std::uint32_t> {
        const auto it = pids.find({&comm, rank});
        if (it == pids.end()) return std::nullopt;
        return it->second;
      },
      origin, encoder);
  return encoder.finish(path_for_messages);
}

}  // namespace npkit
