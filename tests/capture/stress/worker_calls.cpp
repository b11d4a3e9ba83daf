#include "capture/stress/worker_calls.hpp"

#include <cstring>
#include <set>

#include "capture/plugin/comm_driver.hpp"
#include "npkit/format.hpp"

namespace npkit::test {
namespace {

constexpr size_t kSpelledOut = 8;

void problem(RecordComparison& out, const std::string& text) {
  if (out.problems.size() < kSpelledOut) out.problems.push_back(text);
  ++out.problem_count;
}

uint64_t payload_u64(const format::ProfilerRecord& record) {
  uint64_t value;
  std::memcpy(&value, record.payload, sizeof(value));
  return value;
}

// "" when `rec` is what `want` describes; otherwise what differs. Starts add their event id.
std::string mismatch(const format::ProfilerRecord& rec, const ExpectedRecord& want,
                     std::map<uint64_t, uint64_t>& event_id_of_key, std::set<uint64_t>& start_ids) {
  if (rec.kind != want.kind || rec.type != format::kTypeKernelCh) {
    return "kind " + std::to_string(rec.kind) + " type " + std::to_string(rec.type) +
           ", expected kind " + std::to_string(want.kind) + " type 6";
  }
  if (rec.kind == format::kRecordStart) {
    const uint64_t key = payload_u64(rec);
    uint64_t parent_id = 0;
    if (want.parent_key != 0) {
      auto parent = event_id_of_key.find(want.parent_key);
      parent_id = parent == event_id_of_key.end() ? ~uint64_t{0} : parent->second;
    }
    if (key != want.key || rec.word != want.flags || rec.parent_id != parent_id ||
        rec.event_id == 0 || start_ids.count(rec.event_id) != 0) {
      return "start key " + std::to_string(key) + " flags " + std::to_string(rec.word) +
             " parent_id " + std::to_string(rec.parent_id) + " event_id " +
             std::to_string(rec.event_id) + ", expected key " + std::to_string(want.key) +
             " flags " + std::to_string(want.flags) + " parent_id " + std::to_string(parent_id) +
             " and a new event id";
    }
    start_ids.insert(rec.event_id);
    event_id_of_key[key] = rec.event_id;
    return "";
  }
  const uint64_t key_of_start =
      rec.kind == format::kRecordState ? want.key & ~uint64_t{1} : want.key;
  auto start = event_id_of_key.find(key_of_start);
  const bool state_ok =
      rec.kind != format::kRecordState || (rec.word == want.flags && payload_u64(rec) == want.key);
  if (start == event_id_of_key.end() || rec.event_id != start->second || !state_ok) {
    return "kind " + std::to_string(rec.kind) + " event_id " + std::to_string(rec.event_id) +
           " word " + std::to_string(rec.word) + " value " + std::to_string(payload_u64(rec)) +
           " does not follow its start (key " + std::to_string(want.key) + ")";
  }
  return "";
}

}  // namespace

uint64_t start_key(int worker, int comm, uint64_t iteration) {
  return (uint64_t(worker + 1) << 52) | (uint64_t(comm) << 40) | (iteration << 1);
}

Worker::Worker(const PluginLibrary& lib, int index, std::vector<void*> contexts)
    : lib_(lib),
      index_(index),
      contexts_(std::move(contexts)),
      last_handle_(contexts_.size(), nullptr),
      last_key_(contexts_.size(), 0) {}

void Worker::event(int comm, int parent_comm) {
  const uint64_t key = start_key(index_, comm, iteration_++);
  ExpectedRecord start{format::kRecordStart, key, 0, 0};
  void* parent = parent_comm >= 0 ? last_handle_[parent_comm] : nullptr;
  if (parent == nullptr) {
    start.flags = format::kStartParentNull;
  } else if (parent_comm == comm) {
    start.parent_key = last_key_[comm];
  } else {
    start.flags = format::kStartParentOtherComm;
  }
  abi::EventDescrV5 descr = kernel_ch_descr(parent, static_cast<uint8_t>(comm % 64), key);
  void* handle = nullptr;
  if (lib_.v5->startEvent(contexts_[comm], &handle, &descr) != abi::kSuccess) ++failures_;
  if (handle == nullptr) {
    ++null_handles_;
    return;
  }
  ExpectedRecords& expected = expected_[comm];
  expected.push_back(start);
  abi::StateArgs stop_time = kernel_stop_args(key | 1);
  if (lib_.v5->recordEventState(handle, static_cast<abi::EventState>(format::kStateKernelChStop),
                                &stop_time) != abi::kSuccess) {
    ++failures_;
  }
  expected.push_back({format::kRecordState, key | 1, 0, format::kStateKernelChStop});
  if (lib_.v5->stopEvent(handle) != abi::kSuccess) ++failures_;
  expected.push_back({format::kRecordStop, key, 0, 0});
  last_handle_[comm] = handle;
  last_key_[comm] = key;
}

RecordComparison compare_worker_records(const NpktDump& dump, const std::vector<int32_t>& tids,
                                        const std::vector<const ExpectedRecords*>& expected,
                                        bool prefix) {
  RecordComparison out;
  std::map<uint32_t, int> worker_of_slot;
  for (const format::ThreadEntry& entry : dump.threads) {
    for (size_t w = 0; w < tids.size(); ++w) {
      if (entry.os_tid == tids[w]) worker_of_slot[entry.slot] = static_cast<int>(w);
    }
  }
  // A kind-0 record (its producer stalled past the dump's wait) hides whose call it was: each
  // one lets one worker's expectation go unmatched.
  uint64_t skips_left = 0;
  for (const format::ProfilerRecord& rec : dump.records) skips_left += rec.kind == 0;
  out.incomplete = skips_left;

  std::vector<size_t> next(tids.size(), 0);
  std::map<uint64_t, uint64_t> event_id_of_key;
  std::set<uint64_t> start_ids;
  for (size_t i = 0; i < dump.records.size(); ++i) {
    const format::ProfilerRecord& rec = dump.records[i];
    if (rec.kind == format::kRecordNone) continue;
    const std::string at = dump.path + " record " + std::to_string(i) + ": ";
    auto worker = worker_of_slot.find(rec.thread);
    if (worker == worker_of_slot.end()) {
      problem(out, at + "thread slot " + std::to_string(rec.thread) + " is no worker's");
      continue;
    }
    const int w = worker->second;
    const ExpectedRecords& list = *expected[w];
    std::string what = "no call left";
    while (next[w] < list.size()) {
      what = mismatch(rec, list[next[w]], event_id_of_key, start_ids);
      ++next[w];
      if (what.empty() || skips_left == 0) break;
      --skips_left;
    }
    if (what.empty()) {
      ++out.matched;
    } else {
      problem(out, at + "worker " + std::to_string(w) + " call " + std::to_string(next[w] - 1) +
                       ": " + what);
    }
  }
  if (!prefix) {
    for (size_t w = 0; w < tids.size(); ++w) {
      if (next[w] != expected[w]->size()) {
        problem(out, dump.path + ": worker " + std::to_string(w) + " has " +
                         std::to_string(next[w]) + " records, expected " +
                         std::to_string(expected[w]->size()));
      }
    }
  }
  return out;
}

}  // namespace npkit::test
