// NPKIT_SAMPLE values: what each chooses (hand-counted indices and window phases) and that every
// unreadable value gives exactly one warning and no sampling.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "recorder/capture_settings.hpp"
#include "recorder/sample_setting.hpp"

using npkit::capture::every_chooses;
using npkit::capture::parse_sample_setting;
using npkit::capture::SampleSetting;
using npkit::capture::window_open;

TEST_CASE("sample setting: unset, empty, off and none sample nothing", "[capture]") {
  for (const char* text : {static_cast<const char*>(nullptr), "", "  ", "off", "NONE"}) {
    std::vector<std::string> warnings;
    const SampleSetting setting = parse_sample_setting(text, &warnings);
    CHECK(setting.mode == SampleSetting::Mode::kOff);
    CHECK(setting.text == "off");
    CHECK(warnings.empty());
  }
}

TEST_CASE("sample setting: 1/N chooses the N-th, 2N-th, ... collective", "[capture]") {
  std::vector<std::string> warnings;
  const SampleSetting setting = parse_sample_setting(" 1/100 ", &warnings);
  CHECK(warnings.empty());
  REQUIRE(setting.mode == SampleSetting::Mode::kEvery);
  CHECK(setting.every == 100);
  CHECK(setting.text == "1/100");
  // 0-based indices 99, 199, 299 among the first 300.
  std::vector<uint64_t> chosen;
  for (uint64_t index = 0; index < 300; ++index) {
    if (every_chooses(setting.every, index)) chosen.push_back(index);
  }
  CHECK(chosen == std::vector<uint64_t>{99, 199, 299});
  CHECK(every_chooses(1, 0));
  CHECK(every_chooses(1, 7));
}

TEST_CASE("sample setting: T/P windows in every unit", "[capture]") {
  struct Case {
    const char* text;
    int64_t window_ns;
    int64_t period_ns;
  };
  const Case cases[] = {
      {"10ms/10s", 10000000, 10000000000},
      {"500us/1ms", 500000, 1000000},
      {"7ns/7ns", 7, 7},
      {"1S/2M", 1000000000, 120000000000},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    std::vector<std::string> warnings;
    const SampleSetting setting = parse_sample_setting(c.text, &warnings);
    CHECK(warnings.empty());
    REQUIRE(setting.mode == SampleSetting::Mode::kWindow);
    CHECK(setting.window_ns == c.window_ns);
    CHECK(setting.period_ns == c.period_ns);
  }
  // 10 ms every 10 s: open for [0, 10 ms) of each period, closed from 10 ms on.
  const int64_t period = 10000000000;
  CHECK(window_open(10000000, period, 0));
  CHECK(window_open(10000000, period, 9999999));
  CHECK(!window_open(10000000, period, 10000000));
  CHECK(!window_open(10000000, period, 9999999999));
  CHECK(window_open(10000000, period, 3 * period + 5));
  CHECK(window_open(10000000, period, 1765000000000000000));  // 1765000000 s: a multiple of 10 s
  CHECK(!window_open(10000000, period, 1765000000000000000 + 5000000000));
}

TEST_CASE("sample setting: an unreadable value warns once and samples nothing", "[capture]") {
  for (const char* text : {"1/0", "2/5", "1/", "/10", "10", "abc", "1/1000000001", "10ms/5ms",
                           "0ms/1s", "10xs/1s", "10ms/2d", "1/10/100", "-1/10", "1.5/10"}) {
    INFO(text);
    std::vector<std::string> warnings;
    const SampleSetting setting = parse_sample_setting(text, &warnings);
    CHECK(setting.mode == SampleSetting::Mode::kOff);
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0].find("NPKIT_SAMPLE: '" + std::string(text) + "'") == 0);
    CHECK(warnings[0].find("sampling off") != std::string::npos);
  }
}

TEST_CASE("sample setting: the sampled groups are kernel, proxy, net and phase", "[capture]") {
  // KernelCh 64, ProxyOp 8, ProxyStep 16, NetPlugin 128, KernelPhase 32768.
  CHECK(npkit::capture::kSampledEvents == 64 + 8 + 16 + 128 + 32768);
}
