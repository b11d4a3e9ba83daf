// dump_checks.hpp — compares a dump read back with the analyzer's reader against what a
// CommDriver fed the plugin. Expected values come from the calls and the format contract
// (include/npkit/format.hpp, docs/format.md), never from the plugin's own code.
//
// Contract: every function reports through Catch2 CHECKs; mismatching records are listed (the
// first few) in the failure message rather than one assertion per field.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "capture/plugin/comm_driver.hpp"
#include "import/npkt/npkt_dump.hpp"

namespace npkit::test {

inline constexpr uint64_t kDefaultRecordsCapacity = 64ull * 1024 * 1024 / 64;

// A record's 32 payload bytes read as one of the format's payload structs.
template <typename T>
T payload_as(const format::ProfilerRecord& record) {
  static_assert(sizeof(T) <= sizeof(record.payload));
  T value;
  std::memcpy(&value, record.payload, sizeof(value));
  return value;
}

struct DumpExpectations {
  uint32_t end_reason = format::kEndFinalize;
  uint64_t records_capacity = kDefaultRecordsCapacity;
  uint64_t records_attempted = 0;
  uint64_t records_dropped = 0;
  int64_t end_before = 0;  // host-clock bracket of the call that wrote the dump
  int64_t end_after = 0;
};

// CommunicatorInfo, file header features, and the Threads slots the records use.
void check_comm_info(const NpktDump& dump, const CommDriver& comm,
                     const DumpExpectations& expected);

// Expectations for a dump written by finalize() after the driver's calls.
DumpExpectations finalized_expectations(const CommDriver& comm);

// Record i of the dump against call i: kind, type, event ids and parent links, flags, payload
// fields, state values, the calling thread and host_ns inside the call's bracket; host_ns
// non-decreasing per thread. The dump must hold exactly `calls.size()` records.
void check_records_match_calls(const NpktDump& dump, const std::vector<LoggedCall>& calls);

// The start payload of `record` against the descriptor that was fed (format.hpp payload structs;
// string fields resolved through the dump's Strings). Returns "" or what differs.
std::string start_payload_mismatch(const NpktDump& dump, const format::ProfilerRecord& record,
                                   const abi::EventDescrV5& fed);

// Finalizes `comm`, REQUIREs that `dir` then holds its dump (among other files possibly), reads
// it, and runs check_comm_info (finalized_expectations) and check_records_match_calls.
NpktDump finalize_and_check(CommDriver& comm, const std::string& dir);

// The Names section: all fifteen v6 event types and the states NCCL 2.30.7 defines (8..30),
// named as in the NCCL profiler reference and NCCL 2.30.7's nccl_profiler.h.
void check_names_section(const NpktDump& dump);

}  // namespace npkit::test
