// NPKIT_EVENTS -> the activation mask written through eActivationMask. Expected masks are sums of
// the event bits of the NCCL profiler reference table 2.4, per the groups of docs/capture.md:
//   api    = GroupApi 256 + CollApi 512 + P2pApi 1024 + KernelLaunch 2048 = 3840
//   coll   = Group 1 + Coll 2 + P2p 4                                      =    7
//   kernel = KernelCh 64;  proxy = ProxyOp 8 + ProxyStep 16 = 24;  ctrl = ProxyCtrl 32;
//   net    = NetPlugin 128;  ce = CeColl 4096 + CeSync 8192 + CeBatch 16384 = 28672 (API v6, v7)
//   phase  = KernelPhase 32768 (NCCL 2.31.2 nccl_profiler.h; API v7 only)
//   all    = 4095 under API v5 (and v4), 32767 under API v6, 65535 under API v7
#include <catch2/catch.hpp>

#include "capture/plugin/captured_log.hpp"
#include "capture/plugin/dump_files.hpp"
#include "capture/plugin/plugin_env.hpp"
#include "capture/plugin/plugin_library.hpp"

namespace npkit::test {
namespace {

// Inits and finalizes one communicator under `events` through API v5 (or v6, v7); returns the
// mask the plugin wrote and checks that the dump says the same.
int mask_for(const std::optional<std::string>& events, uint64_t comm_hash, int api = 5) {
  const PluginLibrary& lib = require_plugin();
  PluginEnv env(events);
  void* context = nullptr;
  int mask = -1;  // NCCL's process-wide mask; the plugin must overwrite it
  // v7's init and finalize have v6's (and v5's) signatures.
  const auto init = api == 7 ? lib.v7->init : api == 6 ? lib.v6->init : lib.v5->init;
  const auto finalize = api == 7   ? lib.v7->finalize
                        : api == 6 ? lib.v6->finalize
                                   : lib.v5->finalize;
  REQUIRE(init(&context, comm_hash, &mask, nullptr, 1, 1, 0, capture_log) == abi::kSuccess);
  REQUIRE(context != nullptr);
  REQUIRE(finalize(context) == abi::kSuccess);
  const NpktDump dump = read_dump(env.file(dump_file_name(comm_hash, 0)));
  CHECK(dump.comm.event_mask == static_cast<uint64_t>(mask));
  CHECK(dump.comm.profiler_api == static_cast<uint32_t>(api));
  return mask;
}

TEST_CASE("plugin: NPKIT_EVENTS groups select the reference's event bits", "[plugin]") {
  CHECK(mask_for(std::nullopt, 0x7e57000000000501ull) == static_cast<int>(abi::kAllV5Events));
  CHECK(mask_for("all", 0x7e57000000000502ull) == static_cast<int>(abi::kAllV5Events));
  CHECK(mask_for("kernel", 0x7e57000000000503ull) == 64);
  CHECK(mask_for("coll,kernel", 0x7e57000000000504ull) == (2 | 1 | 4 | 64));
  CHECK(mask_for("api", 0x7e57000000000505ull) == (256 | 512 | 1024 | 2048));
  CHECK(mask_for("coll", 0x7e57000000000506ull) == 7);
  CHECK(mask_for("proxy", 0x7e57000000000507ull) == (8 | 16));
  CHECK(mask_for("ctrl", 0x7e57000000000508ull) == 32);
  CHECK(mask_for("net", 0x7e57000000000509ull) == 128);
  CHECK(mask_for("proxy,ctrl,net", 0x7e5700000000050aull) == (8 | 16 | 32 | 128));
  CHECK(mask_for("api,coll,kernel,proxy,ctrl,net", 0x7e5700000000050bull) ==
        static_cast<int>(abi::kAllV5Events));
  CHECK(mask_for("kernel,all", 0x7e5700000000050cull) == static_cast<int>(abi::kAllV5Events));
}

TEST_CASE("plugin: CE events are asked for under API v6 only", "[plugin]") {
  CHECK(mask_for(std::nullopt, 0x7e5700000000050eull, 6) == static_cast<int>(abi::kAllV6Events));
  CHECK(mask_for("all", 0x7e5700000000050full, 6) == 32767);
  CHECK(mask_for("ce", 0x7e57000000000510ull, 6) == (4096 | 8192 | 16384));
  CHECK(mask_for("coll,ce", 0x7e57000000000511ull, 6) == (1 | 2 | 4 | 4096 | 8192 | 16384));
  CHECK(mask_for("ce", 0x7e57000000000512ull, 5) == 0);
  CHECK(mask_for("coll,ce", 0x7e57000000000513ull, 5) == 7);
}

TEST_CASE("plugin: KernelPhase is asked for under API v7 only", "[plugin]") {
  CHECK(mask_for(std::nullopt, 0x7e57000000000514ull, 7) == static_cast<int>(abi::kAllV7Events));
  CHECK(mask_for("all", 0x7e57000000000515ull, 7) == 65535);
  CHECK(mask_for("phase", 0x7e57000000000516ull, 7) == 32768);
  CHECK(mask_for("kernel,phase", 0x7e57000000000517ull, 7) == (64 | 32768));
  CHECK(mask_for("ce", 0x7e57000000000518ull, 7) == (4096 | 8192 | 16384));
  CHECK(mask_for("all", 0x7e57000000000519ull, 6) == 32767);
  CHECK(mask_for("phase", 0x7e5700000000051aull, 6) == 0);
  CHECK(mask_for("kernel,phase", 0x7e5700000000051bull, 5) == 64);
}

TEST_CASE("plugin: an unknown NPKIT_EVENTS word is ignored with one warning", "[plugin]") {
  LogCapture log;
  CHECK(mask_for("kernel,bogusgroup7,coll", 0x7e5700000000050dull) == (64 | 1 | 2 | 4));
  INFO(log.dump());
  CHECK(log.count(abi::kLogWarn, "bogusgroup7") == 1);
  CHECK(log.count(abi::kLogWarn) == 1);
}

}  // namespace
}  // namespace npkit::test
