// Settings from the environment's words. Expected masks are the NCCL event bits of the profiler
// reference (table 2.4) summed by hand: Group 1, Coll 2, P2p 4, ProxyOp 8, ProxyStep 16,
// ProxyCtrl 32, KernelCh 64, NetPlugin 128, GroupApi 256, CollApi 512, P2pApi 1024,
// KernelLaunch 2048, (API v6, NCCL 2.30.7 nccl_profiler.h) CeColl 4096, CeSync 8192, CeBatch
// 16384 and (API v7, NCCL 2.31.2) KernelPhase 32768: all = 65535.
#include <stdlib.h>

#include <catch2/catch.hpp>
#include <string>

#include "recorder/capture_settings.hpp"

using npkit::capture::parse_capture_settings;

TEST_CASE("settings: defaults when nothing is set", "[capture]") {
  const auto settings = parse_capture_settings(nullptr, nullptr, nullptr);
  CHECK(settings.event_mask == 65535);
  CHECK(settings.events == "api,coll,kernel,proxy,ctrl,net,ce,phase");
  CHECK(settings.buffer_size_mb == 64);
  CHECK(settings.buffer_records == 1048576);
  CHECK(settings.dump_dir == "npkit-dump");
  CHECK(settings.warnings.empty());
}

TEST_CASE("settings: event words select the documented masks", "[capture]") {
  struct Case {
    const char* words;
    uint64_t mask;
  };
  const Case cases[] = {
      {"kernel", 64},
      {"coll", 1 + 2 + 4},
      {"coll,kernel", 1 + 2 + 4 + 64},
      {"api", 256 + 512 + 1024 + 2048},
      {"proxy", 8 + 16},
      {"ctrl", 32},
      {"net", 128},
      {"all", 65535},
      {"ce", 4096 + 8192 + 16384},
      {"coll,ce", 1 + 2 + 4 + 4096 + 8192 + 16384},
      {"proxy,ctrl,net", 8 + 16 + 32 + 128},
      {" Coll , KERNEL ", 1 + 2 + 4 + 64},
      {"kernel,kernel", 64},
      {"phase", 32768},
      {"kernel,phase", 64 + 32768},
      {"", 65535},
      {"net,all", 65535},
  };
  for (const Case& c : cases) {
    INFO(c.words);
    const auto settings = parse_capture_settings(c.words, nullptr, nullptr);
    CHECK(settings.event_mask == c.mask);
    CHECK(settings.warnings.empty());
  }
  CHECK(parse_capture_settings("kernel,coll", nullptr, nullptr).events == "coll,kernel");
}

TEST_CASE("settings: unknown event words are named in one warning each and ignored", "[capture]") {
  const auto settings = parse_capture_settings("coll,bogus,,Kernal", nullptr, nullptr);
  CHECK(settings.event_mask == 7);
  REQUIRE(settings.warnings.size() == 2);
  CHECK_THAT(settings.warnings[0], Catch::Contains("'bogus'"));
  CHECK_THAT(settings.warnings[1], Catch::Contains("'kernal'"));
  // The "known:" list names every group of the header's table, phase included.
  CHECK_THAT(settings.warnings[0],
             Catch::EndsWith("(known: api, coll, kernel, proxy, ctrl, net, ce, phase, all)"));
}

TEST_CASE("settings: an event list naming no known group captures all, with a warning",
          "[capture]") {
  const auto only_unknown = parse_capture_settings("none", nullptr, nullptr);
  CHECK(only_unknown.event_mask == 65535);
  REQUIRE(only_unknown.warnings.size() == 2);
  CHECK_THAT(only_unknown.warnings[0], Catch::Contains("unknown event group 'none'"));
  CHECK(only_unknown.warnings[1] ==
        "NPKIT_EVENTS: 'none' names no known event group; capturing all");
  const auto only_commas = parse_capture_settings(" , ,", nullptr, nullptr);
  CHECK(only_commas.event_mask == 65535);
  REQUIRE(only_commas.warnings.size() == 1);
  CHECK_THAT(only_commas.warnings[0], Catch::Contains("names no known event group"));
}

TEST_CASE("settings: buffer size in MiB, bad values fall back to 64 with a warning", "[capture]") {
  const auto one = parse_capture_settings(nullptr, "1", nullptr);
  CHECK(one.buffer_size_mb == 1);
  CHECK(one.buffer_records == 16384);  // 1 MiB / 64-byte records
  CHECK(one.warnings.empty());
  CHECK(parse_capture_settings(nullptr, " 256 ", nullptr).buffer_records == 256 * 16384);
  CHECK(parse_capture_settings(nullptr, "1048576", nullptr).buffer_size_mb == 1048576);
  for (const char* bad : {"0", "-5", "abc", "12x", "1.5", "1048577", "99999999999999999999"}) {
    INFO(bad);
    const auto settings = parse_capture_settings(nullptr, bad, nullptr);
    CHECK(settings.buffer_size_mb == 64);
    CHECK(settings.buffer_records == 1048576);
    REQUIRE(settings.warnings.size() == 1);
    CHECK_THAT(settings.warnings[0], Catch::Contains("NPKIT_BUFFER_SIZE_MB"));
    CHECK_THAT(settings.warnings[0], Catch::Contains(bad));
  }
  CHECK(parse_capture_settings(nullptr, "", nullptr).warnings.empty());
}

TEST_CASE("settings: dump directory as given, default when empty", "[capture]") {
  CHECK(parse_capture_settings(nullptr, nullptr, "/tmp/x/y").dump_dir == "/tmp/x/y");
  CHECK(parse_capture_settings(nullptr, nullptr, "").dump_dir == "npkit-dump");
}

namespace {

// Sets an environment variable for one scope and restores what was there before.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = getenv(name)) {
      had_ = true;
      old_ = old;
    }
    setenv(name, value, 1);
  }
  ~ScopedEnv() {
    if (had_)
      setenv(name_, old_.c_str(), 1);
    else
      unsetenv(name_);
  }

 private:
  const char* name_;
  bool had_ = false;
  std::string old_;
};

}  // namespace

TEST_CASE("settings: read from the NPKIT_* environment variables", "[capture]") {
  const ScopedEnv events("NPKIT_EVENTS", "ctrl");
  const ScopedEnv size("NPKIT_BUFFER_SIZE_MB", "2");
  const ScopedEnv dir("NPKIT_DUMP_DIR", "/tmp/npkit-settings-test");
  const auto settings = npkit::capture::read_capture_settings_from_environment();
  CHECK(settings.event_mask == 32);
  CHECK(settings.buffer_records == 2 * 16384);
  CHECK(settings.dump_dir == "/tmp/npkit-settings-test");
}

TEST_CASE("settings: NPKIT_CHAIN_PLUGIN names the chained plugin, blanks and none aside",
          "[capture]") {
  auto chain = [](const char* value) {
    return parse_capture_settings(nullptr, nullptr, nullptr, nullptr, value);
  };
  CHECK(chain(nullptr).chain_plugin.empty());
  CHECK(chain("").chain_plugin.empty());
  CHECK(chain("  ").chain_plugin.empty());
  CHECK(chain("None").chain_plugin.empty());
  CHECK(chain(" /opt/x/libnccl-profiler-x.so\t").chain_plugin == "/opt/x/libnccl-profiler-x.so");
  CHECK(chain("libnccl-profiler-inspector.so").chain_plugin == "libnccl-profiler-inspector.so");
  for (const char* ok : {"", "none", "/a b/lib.so"}) CHECK(chain(ok).warnings.empty());

  const auto control = chain("/tmp/lib\n.so");
  CHECK(control.chain_plugin.empty());
  REQUIRE(control.warnings.size() == 1);
  CHECK_THAT(control.warnings[0], Catch::Contains("NPKIT_CHAIN_PLUGIN"));
  CHECK_THAT(control.warnings[0], Catch::Contains("control character"));
  const std::string longest(4095, 'x');
  CHECK(chain(longest.c_str()).chain_plugin == longest);
  const std::string too_long(4096, 'x');
  const auto long_value = chain(too_long.c_str());
  CHECK(long_value.chain_plugin.empty());
  REQUIRE(long_value.warnings.size() == 1);
  CHECK_THAT(long_value.warnings[0], Catch::Contains("longer than 4095"));
}
