// The built-in event-id tables, one per documented NPKit variant (docs/formats.md lists their
// sources). Each is written as data: (ENTRY id, base) pairs whose EXIT is ENTRY + 1, and
// single instants.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <utility>

#include "run/event_table.hpp"

namespace npkit {
namespace {

struct PairDef {
  std::uint8_t entry;
  const char* base;
};

void define_pairs(EventTable& t, std::initializer_list<PairDef> defs) {
  for (const auto& d : defs) t.define_pair(d.entry, d.base);
}

// NPKit NCCL 2.17 patch table (also RCCL, Azure MSCCL executor and most ports, ids 0x01-0x4E).
EventTable standard_table(std::string label) {
  EventTable t(std::move(label));
  define_pairs(t, {{0x01, "ALL_REDUCE_RING"},
                   {0x03, "ALL_REDUCE_TREE_UPDOWN"},
                   {0x05, "ALL_REDUCE_TREE_SPLIT"},
                   {0x07, "COPY_SEND"},
                   {0x09, "DIRECT_COPY_SEND"},
                   {0x0B, "DIRECT_RECV"},
                   {0x0D, "DIRECT_RECV_COPY_SEND"},
                   {0x0F, "DIRECT_RECV_REDUCE_COPY_SEND"},
                   {0x11, "DIRECT_SEND"},
                   {0x13, "DIRECT_SEND_FROM_OUTPUT"},
                   {0x15, "RECV"},
                   {0x17, "RECV_COPY_SEND"},
                   {0x19, "RECV_REDUCE_COPY"},
                   {0x1B, "RECV_REDUCE_COPY_SEND"},
                   {0x1D, "RECV_REDUCE_SEND"},
                   {0x1F, "SEND"},
                   {0x21, "SEND_FROM_OUTPUT"},
                   {0x23, "PRIM_SIMPLE_WAIT_PEER"},
                   {0x25, "PRIM_SIMPLE_REDUCE_OR_COPY_MULTI"},
                   {0x27, "PRIM_LL_WAIT_SEND"},
                   {0x29, "PRIM_LL_DATA_PROCESS"},
                   {0x2B, "PRIM_LL128_WAIT_SEND"},
                   {0x2D, "PRIM_LL128_DATA_PROCESS"},
                   {0x2F, "NET_SEND"},
                   {0x31, "NET_RECV"},
                   {0x35, "ALL_REDUCE_RING_SEND"},
                   {0x37, "ALL_REDUCE_RING_RECV_REDUCE_SEND"},
                   {0x39, "ALL_REDUCE_RING_DIRECT_RECV_REDUCE_COPY_SEND"},
                   {0x3B, "ALL_REDUCE_RING_DIRECT_RECV_COPY_SEND"},
                   {0x3D, "ALL_REDUCE_RING_DIRECT_RECV"},
                   {0x3F, "ALL_REDUCE_TREE_UPDOWN_REDUCE"},
                   {0x41, "ALL_REDUCE_TREE_UPDOWN_BROADCAST"},
                   {0x43, "ALL_REDUCE_TREE_SPLIT_REDUCE_BROADCAST"},
                   {0x45, "ALL_REDUCE_TREE_SPLIT_REDUCE"},
                   {0x47, "ALL_REDUCE_TREE_SPLIT_BROADCAST"},
                   {0x49, "SEND_RECV_LOCAL_COPY"},
                   {0x4B, "SEND_RECV_SEND"},
                   {0x4D, "SEND_RECV_RECV"}});
  t.define(0x33, "NPKIT_EVENT_TIME_SYNC_GPU");
  t.define(0x34, "NPKIT_EVENT_TIME_SYNC_CPU");
  return t;
}

EventTable rccl_table() {
  EventTable t = standard_table("rccl");
  define_pairs(t, {{0x50, "ALL_GATHER_RING"},
                   {0x52, "ALL_GATHER_RING_SEND"},
                   {0x54, "ALL_GATHER_RING_RECV_COPY_SEND"},
                   {0x56, "ALL_GATHER_RING_DIRECT_RECV"},
                   {0x58, "NET_TEST"},
                   {0x5A, "MSCCL_GENERIC_OP"},
                   {0x5C, "MSCCL_REDUCE"},
                   {0x5E, "MSCCL_SEND"},
                   {0x60, "MSCCL_RECV"},
                   {0x62, "MSCCL_RUN"},
                   {0x64, "MSCCL_RECV_REDUCE_COPY"},
                   {0x66, "MSCCL_INIT"},
                   {0x68, "BROADCAST_RING"},
                   {0x70, "REDUCE_SCATTER_RING"},
                   {0x72, "REDUCE_SCATTER_RING_SEND"},
                   {0x74, "REDUCE_SCATTER_RING_RECV_REDUCE_SEND"},
                   {0x76, "REDUCE_SCATTER_RING_RECV_REDUCE_COPY"}});
  return t;
}

EventTable msccl_executor_table() {
  EventTable t = standard_table("msccl");
  define_pairs(t, {{0x50, "MSCCL_GENERIC_OP"}, {0x52, "MSCCL_REDUCE"}});
  return t;
}

EventTable nccl_220_port_table() {
  EventTable t = standard_table("nccl-2.20-port");
  define_pairs(t, {{0x50, "NET_SEND_TEST"},
                   {0x52, "NET_RECV_TEST"},
                   {0x54, "NPKIT_INIT"},
                   {0x56, "PRIM_SIMPLE_DATA_PROCESS"}});
  return t;
}

EventTable msccl_01_table() {
  EventTable t("msccl-0.1");
  define_pairs(t, {{0x01, "SEND"},
                   {0x03, "SEND_FROM_OUTPUT"},
                   {0x05, "DIRECT_SEND"},
                   {0x07, "DIRECT_SEND_FROM_OUTPUT"},
                   {0x09, "RECV"},
                   {0x0B, "DIRECT_RECV"},
                   {0x0D, "REDUCE"},
                   {0x0F, "LOCAL_COPY"},
                   {0x11, "COPY_SEND"},
                   {0x13, "DIRECT_COPY_SEND"},
                   {0x15, "RECV_COPY_SEND"},
                   {0x17, "DIRECT_RECV_COPY_SEND"},
                   {0x19, "RECV_COPY_DIRECT_SEND"},
                   {0x1B, "RECV_REDUCE_COPY"},
                   {0x1D, "RECV_REDUCE_SEND"},
                   {0x1F, "DIRECT_RECV_REDUCE_SEND"},
                   {0x21, "RECV_REDUCE_COPY_SEND"},
                   {0x23, "DIRECT_RECV_REDUCE_COPY_SEND"},
                   {0x25, "NET_SEND"},
                   {0x27, "NET_RECV"},
                   {0x29, "DEP_CHECK"}});
  t.define(0x2B, "NPKIT_EVENT_TIME_SYNC_GPU");
  t.define(0x2C, "NPKIT_EVENT_TIME_SYNC_CPU");
  return t;
}

EventTable npkit_2021_table() {
  // Ids 0x01-0x22 as in the standard table, then a table of its own.
  const EventTable standard = standard_table("nccl");
  EventTable fresh("npkit-2021");
  for (int id = 0x01; id <= 0x22; ++id) {
    const EventName& e = standard[static_cast<std::uint8_t>(id)];
    if (e.defined) fresh.define(static_cast<std::uint8_t>(id), e.full);
  }
  define_pairs(fresh, {{0x23, "PRIM_SIMPLE_WAIT_RECV"},
                       {0x25, "PRIM_SIMPLE_WAIT_SEND"},
                       {0x27, "PRIM_SIMPLE_REDUCE_OR_COPY_MULTI"},
                       {0x29, "PRIM_LL_WAIT_SEND"},
                       {0x2B, "PRIM_LL_DATA_PROCESS"},
                       {0x2D, "PRIM_LL128_WAIT_SEND"},
                       {0x2F, "PRIM_LL128_DATA_PROCESS"},
                       {0x31, "NET_SEND"},
                       {0x33, "NET_RECV"}});
  fresh.define(0x35, "NPKIT_EVENT_TIME_SYNC_GPU");
  fresh.define(0x36, "NPKIT_EVENT_TIME_SYNC_CPU");
  return fresh;
}

}  // namespace

// MSCCL++ executor operations in `OperationType` order; event ENTRY = 0x1D + op, EXIT = 0x3B + op.
const std::vector<std::string>& mscclpp_executor_ops() {
  static const std::vector<std::string> ops = {"NOP",
                                               "BARRIER",
                                               "PUT",
                                               "PUT_PACKETS",
                                               "READ_PUT_PACKETS",
                                               "PUT_WITH_SIGNAL",
                                               "PUT_WITH_SIGNAL_AND_FLUSH",
                                               "GET",
                                               "COPY",
                                               "COPY_PACKETS",
                                               "UNPACK_PACKETS",
                                               "SIGNAL",
                                               "WAIT",
                                               "FLUSH",
                                               "REDUCE",
                                               "REDUCE_PACKETS",
                                               "REDUCE_COPY_PACKETS",
                                               "REDUCE_SEND",
                                               "REDUCE_SEND_PACKETS",
                                               "REDUCE_COPY_SEND_PACKETS",
                                               "READ_REDUCE",
                                               "READ_REDUCE_SEND",
                                               "MULTI_LOAD_REDUCE_STORE",
                                               "RELAXED_SIGNAL",
                                               "RELAXED_WAIT",
                                               "PIPELINE",
                                               "SEM_RELEASE",
                                               "SEM_ACQUIRE",
                                               "MULTI_STORE",
                                               "MULTI_STORE_PKT"};
  return ops;
}

void define_mscclpp_executor_ops(EventTable& t, std::uint8_t entry_base, std::uint8_t exit_base) {
  const auto& ops = mscclpp_executor_ops();
  for (std::size_t op = 0; op < ops.size(); ++op) {
    const std::string base = "NPKIT_EVENT_EXECUTOR_" + ops[op];
    if (entry_base + op < 256)
      t.define(static_cast<std::uint8_t>(entry_base + op), base + "_ENTRY");
    if (exit_base + op < 256) t.define(static_cast<std::uint8_t>(exit_base + op), base + "_EXIT");
  }
}

namespace {

EventTable mscclpp_table() {
  EventTable t("mscclpp");
  t.define(0x01, "NPKIT_EVENT_TIME_SYNC_GPU");
  t.define(0x02, "NPKIT_EVENT_TIME_SYNC_CPU");
  define_pairs(t, {{0x03, "CONN_CUDA_IPC_WRITE"},
                   {0x05, "CONN_CUDA_IPC_UPDATE_AND_SYNC"},
                   {0x07, "CONN_CUDA_IPC_FLUSH"},
                   {0x09, "CONN_IB_WRITE"},
                   {0x0B, "CONN_IB_UPDATE_AND_SYNC"},
                   {0x0D, "CONN_IB_FLUSH"},
                   {0x0F, "CONN_ETH_WRITE"},
                   {0x11, "CONN_ETH_UPDATE_AND_SYNC"},
                   {0x13, "CONN_ETH_FLUSH"},
                   {0x15, "CONN_ETH_RECV_META"},
                   {0x17, "CONN_ETH_RECV_DATA"},
                   {0x19, "EXECUTOR_INIT"},
                   {0x1B, "KERNEL_ALLREDUCE"}});
  define_mscclpp_executor_ops(t, 0x1D, 0x3B);
  return t;
}

}  // namespace

const std::vector<std::string>& builtin_event_table_names() {
  static const std::vector<std::string> names = {
      "nccl", "rccl", "msccl", "msccl-0.1", "mscclpp", "npkit-2021", "nccl-2.20-port"};
  return names;
}

Result<EventTable> builtin_event_table(std::string_view name) {
  if (name == "nccl") return standard_table("nccl");
  if (name == "rccl") return rccl_table();
  if (name == "msccl") return msccl_executor_table();
  if (name == "msccl-0.1") return msccl_01_table();
  if (name == "mscclpp") return mscclpp_table();
  if (name == "npkit-2021") return npkit_2021_table();
  if (name == "nccl-2.20-port") return nccl_220_port_table();
  return Error{
      fmt::format("unknown event table '{}': expected one of {}, or the path of an "
                  "npkit_event.h",
                  name, fmt::join(builtin_event_table_names(), ", "))};
}

}  // namespace npkit
