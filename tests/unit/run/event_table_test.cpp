// Built-in event tables, checked against the id tables of npkit-formats.md section 4.
#include "run/event_table.hpp"

#include <catch2/catch.hpp>

namespace {

npkit::EventTable table(std::string_view name) {
  auto t = npkit::builtin_event_table(name);
  REQUIRE(t.ok());
  return *t;
}

std::string base_of(const npkit::EventTable& t, std::uint8_t id) {
  return t.base_names()[t[id].base];
}

}  // namespace

using npkit::EventKind;
using npkit::SyncRole;

TEST_CASE("nccl table: standard ids of section 4.1", "[ingest][event_table]") {
  const auto t = table("nccl");
  CHECK(t[0x01].full == "NPKIT_EVENT_ALL_REDUCE_RING_ENTRY");
  CHECK(t[0x01].kind == EventKind::kEntry);
  CHECK(t[0x01].defined);
  CHECK(t[0x02].full == "NPKIT_EVENT_ALL_REDUCE_RING_EXIT");
  CHECK(t[0x02].kind == EventKind::kExit);
  CHECK(t[0x01].base == t[0x02].base);
  CHECK(base_of(t, 0x01) == "ALL_REDUCE_RING");
  CHECK(t[0x3E].full == "NPKIT_EVENT_ALL_REDUCE_RING_DIRECT_RECV_EXIT");
  CHECK(t[0x23].full == "NPKIT_EVENT_PRIM_SIMPLE_WAIT_PEER_ENTRY");
  CHECK(t[0x2F].full == "NPKIT_EVENT_NET_SEND_ENTRY");
  CHECK(t[0x4E].full == "NPKIT_EVENT_SEND_RECV_RECV_EXIT");
  // ALL_REDUCE_RING and ALL_REDUCE_RING_SEND are different names.
  CHECK(t[0x35].base != t[0x01].base);
  CHECK(t[0x33].full == "NPKIT_EVENT_TIME_SYNC_GPU");
  CHECK(t[0x33].kind == EventKind::kInstant);
  CHECK(t[0x33].sync == SyncRole::kGpuTimeSync);
  CHECK(t[0x34].sync == SyncRole::kCpuTimeSync);
  CHECK(t[0x01].sync == SyncRole::kNone);
  // 0x01..0x4E are all defined (0x4F is a switch, not an event): 78 ids.
  CHECK(t.defined_count() == 78);
}

TEST_CASE("undefined ids read as UNKNOWN_0xNN instants", "[ingest][event_table]") {
  const auto t = table("nccl");
  CHECK(t[0x4F].full == "UNKNOWN_0x4F");
  CHECK_FALSE(t[0x4F].defined);
  CHECK(t[0x4F].kind == EventKind::kInstant);
  CHECK(t[0x4F].sync == SyncRole::kNone);
  CHECK(t[0x00].full == "UNKNOWN_0x00");
  CHECK(t[0xFF].full == "UNKNOWN_0xFF");
  CHECK(t[0xAB].full == "UNKNOWN_0xAB");
  CHECK(t[0xAB].base != t[0xAC].base);

  const npkit::EventTable empty;
  CHECK(empty.defined_count() == 0);
  CHECK(empty[0x01].full == "UNKNOWN_0x01");
}

TEST_CASE("rccl table extends the standard one above 0x4F", "[ingest][event_table]") {
  const auto t = table("rccl");
  CHECK(t[0x01].full == "NPKIT_EVENT_ALL_REDUCE_RING_ENTRY");
  // ENTRY ids are even above 0x4F: pairing must not rely on parity.
  CHECK(t[0x50].full == "NPKIT_EVENT_ALL_GATHER_RING_ENTRY");
  CHECK(t[0x50].kind == EventKind::kEntry);
  CHECK(t[0x51].kind == EventKind::kExit);
  CHECK(t[0x58].full == "NPKIT_EVENT_NET_TEST_ENTRY");
  CHECK(t[0x66].full == "NPKIT_EVENT_MSCCL_INIT_ENTRY");
  CHECK(t[0x68].full == "NPKIT_EVENT_BROADCAST_RING_ENTRY");
  CHECK(t[0x70].full == "NPKIT_EVENT_REDUCE_SCATTER_RING_ENTRY");
  CHECK(t[0x77].full == "NPKIT_EVENT_REDUCE_SCATTER_RING_RECV_REDUCE_COPY_EXIT");
}

TEST_CASE("msccl executor and nccl-2.20-port extensions", "[ingest][event_table]") {
  const auto msccl = table("msccl");
  CHECK(msccl[0x50].full == "NPKIT_EVENT_MSCCL_GENERIC_OP_ENTRY");
  CHECK(msccl[0x52].full == "NPKIT_EVENT_MSCCL_REDUCE_ENTRY");
  const auto port = table("nccl-2.20-port");
  CHECK(port[0x50].full == "NPKIT_EVENT_NET_SEND_TEST_ENTRY");
  CHECK(port[0x52].full == "NPKIT_EVENT_NET_RECV_TEST_ENTRY");
  CHECK(port[0x54].full == "NPKIT_EVENT_NPKIT_INIT_ENTRY");
  CHECK(port[0x55].full == "NPKIT_EVENT_NPKIT_INIT_EXIT");
  CHECK(port[0x56].full == "NPKIT_EVENT_PRIM_SIMPLE_DATA_PROCESS_ENTRY");
  CHECK(port[0x2F].full == "NPKIT_EVENT_NET_SEND_ENTRY");
}

TEST_CASE("mscclpp table: op ENTRY = 0x1D + op, EXIT = 0x3B + op", "[ingest][event_table]") {
  const auto t = table("mscclpp");
  CHECK(t[0x01].sync == SyncRole::kGpuTimeSync);
  CHECK(t[0x02].sync == SyncRole::kCpuTimeSync);
  CHECK(t[0x03].full == "NPKIT_EVENT_CONN_CUDA_IPC_WRITE_ENTRY");
  CHECK(t[0x19].full == "NPKIT_EVENT_EXECUTOR_INIT_ENTRY");
  CHECK(t[0x1B].full == "NPKIT_EVENT_KERNEL_ALLREDUCE_ENTRY");
  // op 0 NOP: 0x1D / 0x3B.
  CHECK(t[0x1D].full == "NPKIT_EVENT_EXECUTOR_NOP_ENTRY");
  CHECK(t[0x3B].full == "NPKIT_EVENT_EXECUTOR_NOP_EXIT");
  // op 11 SIGNAL: 0x1D + 11 = 0x28, 0x3B + 11 = 0x46.
  CHECK(t[0x28].full == "NPKIT_EVENT_EXECUTOR_SIGNAL_ENTRY");
  CHECK(t[0x46].full == "NPKIT_EVENT_EXECUTOR_SIGNAL_EXIT");
  CHECK(t[0x28].base == t[0x46].base);
  CHECK(base_of(t, 0x28) == "EXECUTOR_SIGNAL");
  // op 29 MULTI_STORE_PKT: 0x1D + 29 = 0x3A, 0x3B + 29 = 0x58.
  CHECK(t[0x3A].full == "NPKIT_EVENT_EXECUTOR_MULTI_STORE_PKT_ENTRY");
  CHECK(t[0x58].full == "NPKIT_EVENT_EXECUTOR_MULTI_STORE_PKT_EXIT");
  CHECK_FALSE(t[0x59].defined);
}

TEST_CASE("msccl-0.1 and npkit-2021 tables", "[ingest][event_table]") {
  const auto old = table("msccl-0.1");
  CHECK(old[0x01].full == "NPKIT_EVENT_SEND_ENTRY");
  CHECK(old[0x29].full == "NPKIT_EVENT_DEP_CHECK_ENTRY");
  CHECK(old[0x2B].sync == SyncRole::kGpuTimeSync);
  CHECK(old[0x2C].sync == SyncRole::kCpuTimeSync);
  CHECK(old[0x33].sync == SyncRole::kNone);

  const auto first = table("npkit-2021");
  CHECK(first[0x01].full == "NPKIT_EVENT_ALL_REDUCE_RING_ENTRY");
  CHECK(first[0x22].full == "NPKIT_EVENT_SEND_FROM_OUTPUT_EXIT");
  CHECK(first[0x23].full == "NPKIT_EVENT_PRIM_SIMPLE_WAIT_RECV_ENTRY");
  CHECK(first[0x31].full == "NPKIT_EVENT_NET_SEND_ENTRY");
  CHECK(first[0x33].full == "NPKIT_EVENT_NET_RECV_ENTRY");
  CHECK(first[0x33].sync == SyncRole::kNone);
  CHECK(first[0x35].sync == SyncRole::kGpuTimeSync);
  CHECK(first[0x36].sync == SyncRole::kCpuTimeSync);
  CHECK_FALSE(first[0x37].defined);
}

TEST_CASE("every documented built-in table name resolves", "[ingest][event_table]") {
  const auto& names = npkit::builtin_event_table_names();
  CHECK(names == std::vector<std::string>{"nccl", "rccl", "msccl", "msccl-0.1", "mscclpp",
                                          "npkit-2021", "nccl-2.20-port"});
  for (const auto& n : names) {
    auto t = npkit::builtin_event_table(n);
    REQUIRE(t.ok());
    CHECK(t->label() == n);
    CHECK(t->defined_count() > 0);
  }
}

TEST_CASE("an unknown table name is an error listing the known ones", "[ingest][event_table]") {
  auto t = npkit::builtin_event_table("nccl-9.9");
  REQUIRE_FALSE(t.ok());
  CHECK_THAT(t.error().message, Catch::Contains("'nccl-9.9'"));
  CHECK_THAT(t.error().message, Catch::Contains("mscclpp"));
}

TEST_CASE("define derives kind, base and sync role from the name", "[ingest][event_table]") {
  npkit::EventTable t("mine");
  t.define(0x10, "NPKIT_EVENT_FOO_ENTRY");
  t.define(0x20, "NPKIT_EVENT_FOO_EXIT");
  t.define(0x30, "NPKIT_EVENT_MARK");
  t.define(0x40, "NPKIT_EVENT_TIME_SYNC_CPU");
  t.define_pair(0x50, "BAR");
  CHECK(t[0x10].base == t[0x20].base);
  CHECK(t[0x20].kind == EventKind::kExit);
  CHECK(t[0x30].kind == EventKind::kInstant);
  CHECK(t.base_names()[t[0x30].base] == "MARK");
  CHECK(t[0x40].sync == SyncRole::kCpuTimeSync);
  CHECK(t[0x50].full == "NPKIT_EVENT_BAR_ENTRY");
  CHECK(t[0x51].full == "NPKIT_EVENT_BAR_EXIT");
  CHECK(t.defined_count() == 6);
  CHECK(t.label() == "mine");

  CHECK(npkit::event_base_name("NPKIT_EVENT_ALL_REDUCE_RING_SEND_ENTRY") == "ALL_REDUCE_RING_SEND");
  CHECK(npkit::event_base_name("NPKIT_EVENT_NET_RECV_EXIT") == "NET_RECV");
  CHECK(npkit::event_base_name("NPKIT_EVENT_TIME_SYNC_GPU") == "TIME_SYNC_GPU");
  CHECK(npkit::event_base_name("FOO_ENTRY") == "FOO");
}
