// collective_events.hpp — the events of the sample collectives: user-range ids, their selection
// groups (NPKIT_ENABLE_ALL_REDUCE, NPKIT_ENABLE_ALL_TO_ALL) and, on the host, their names and
// phase hints.
//
// Contract: every event has an ENTRY and an EXIT id (EXIT = ENTRY + 1); name_collective_events()
// names all of them in `table` and fails only if the table already holds other names for these
// ids. Per block and launch the all-reduce records ALLREDUCE around everything, one
// ALLREDUCE_SYNC_WAIT per wait for a peer's progress, one ALLREDUCE_RS per reduce-scatter step and
// one ALLREDUCE_AG per all-gather step; the all-to-all records ALLTOALL around everything, two
// ALLTOALL_SYNC_WAIT (peers entered, peers' data arrived) and one ALLTOALL_SEND per destination.
// The host threads record HOST_TIMED_LOOP around each timed loop of launches and HOST_VERIFY
// around each result check.
#pragma once

#include <string>

#include "npkit/host.hpp"

#define NPKIT_EVENT_ALLREDUCE_ENTRY 0x1000
#define NPKIT_EVENT_ALLREDUCE_EXIT 0x1001
#define NPKIT_EVENT_ALLREDUCE_GROUP ALL_REDUCE
#define NPKIT_EVENT_ALLREDUCE_RS_ENTRY 0x1002
#define NPKIT_EVENT_ALLREDUCE_RS_EXIT 0x1003
#define NPKIT_EVENT_ALLREDUCE_RS_GROUP ALL_REDUCE
#define NPKIT_EVENT_ALLREDUCE_AG_ENTRY 0x1004
#define NPKIT_EVENT_ALLREDUCE_AG_EXIT 0x1005
#define NPKIT_EVENT_ALLREDUCE_AG_GROUP ALL_REDUCE
#define NPKIT_EVENT_ALLREDUCE_SYNC_WAIT_ENTRY 0x1006
#define NPKIT_EVENT_ALLREDUCE_SYNC_WAIT_EXIT 0x1007
#define NPKIT_EVENT_ALLREDUCE_SYNC_WAIT_GROUP ALL_REDUCE

#define NPKIT_EVENT_ALLTOALL_ENTRY 0x1010
#define NPKIT_EVENT_ALLTOALL_EXIT 0x1011
#define NPKIT_EVENT_ALLTOALL_GROUP ALL_TO_ALL
#define NPKIT_EVENT_ALLTOALL_SEND_ENTRY 0x1012
#define NPKIT_EVENT_ALLTOALL_SEND_EXIT 0x1013
#define NPKIT_EVENT_ALLTOALL_SEND_GROUP ALL_TO_ALL
#define NPKIT_EVENT_ALLTOALL_SYNC_WAIT_ENTRY 0x1014
#define NPKIT_EVENT_ALLTOALL_SYNC_WAIT_EXIT 0x1015
#define NPKIT_EVENT_ALLTOALL_SYNC_WAIT_GROUP ALL_TO_ALL

#define NPKIT_EVENT_HOST_TIMED_LOOP_ENTRY 0x1100
#define NPKIT_EVENT_HOST_TIMED_LOOP_EXIT 0x1101
#define NPKIT_EVENT_HOST_VERIFY_ENTRY 0x1102
#define NPKIT_EVENT_HOST_VERIFY_EXIT 0x1103

namespace device_collectives {

inline bool name_collective_events(npkit::EventNameTable* table, std::string* error) {
  return NPKIT_NAME_EVENT_PAIR(*table, ALLREDUCE, "", error) &&
         NPKIT_NAME_EVENT_PAIR(*table, ALLREDUCE_RS, "reduce_scatter", error) &&
         NPKIT_NAME_EVENT_PAIR(*table, ALLREDUCE_AG, "all_gather", error) &&
         NPKIT_NAME_EVENT_PAIR(*table, ALLREDUCE_SYNC_WAIT, "sync", error) &&
         NPKIT_NAME_EVENT_PAIR(*table, ALLTOALL, "", error) &&
         NPKIT_NAME_EVENT_PAIR(*table, ALLTOALL_SEND, "p2p_send", error) &&
         NPKIT_NAME_EVENT_PAIR(*table, ALLTOALL_SYNC_WAIT, "sync", error) &&
         NPKIT_NAME_EVENT_PAIR(*table, HOST_TIMED_LOOP, "host_launch", error) &&
         NPKIT_NAME_EVENT_PAIR(*table, HOST_VERIFY, "host_verify", error);
}

}  // namespace device_collectives
