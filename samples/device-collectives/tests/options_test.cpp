// Command line of npkit-device-collectives: sizes, ranges, collectives, bad values.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "options.hpp"

using device_collectives::Options;
using device_collectives::parse_options;
using device_collectives::parse_sizes;

namespace {

bool parse(std::vector<const char*> args, Options* out, std::string* error) {
  args.insert(args.begin(), "npkit-device-collectives");
  return parse_options(static_cast<int>(args.size()), args.data(), out, error);
}

}  // namespace

TEST_CASE("sizes: lists, K/M/G suffixes and doubling ranges", "[device-collectives]") {
  std::vector<uint64_t> sizes;
  std::string error;
  REQUIRE(parse_sizes("64K,1M", &sizes, &error));
  CHECK(sizes == std::vector<uint64_t>{65536, 1048576});
  REQUIRE(parse_sizes("1M..8M,2G,16", &sizes, &error));
  CHECK(sizes == std::vector<uint64_t>{16, 1048576, 2097152, 4194304, 8388608, 2147483648ull});
  REQUIRE(parse_sizes("1M..3M,1M", &sizes, &error));  // stops below 3M; duplicates once
  CHECK(sizes == std::vector<uint64_t>{1048576, 2097152});
}

TEST_CASE("sizes: what is refused", "[device-collectives]") {
  std::vector<uint64_t> sizes;
  std::string error;
  CHECK_FALSE(parse_sizes("100", &sizes, &error));
  CHECK_THAT(error, Catch::Contains("not a multiple of 16"));
  for (const char* bad : {"", "0", "1X", "8M..1M", "..4M", "1M,", "-16"}) {
    INFO(bad);
    CHECK_FALSE(parse_sizes(bad, &sizes, &error));
  }
}

TEST_CASE("options: every flag, defaults, errors", "[device-collectives]") {
  Options options;
  std::string error;
  REQUIRE(
      parse({"--sizes",     "1M",     "--colls",    "alltoall", "--iters", "7",         "--warmup",
             "0",           "--gpus", "4",          "--blocks", "16",      "--threads", "256",
             "--timeout-s", "2.5",    "--dump-dir", "d",        "--csv",   "c.csv"},
            &options, &error));
  CHECK(options.sizes == std::vector<uint64_t>{1048576});
  CHECK_FALSE(options.allreduce);
  CHECK(options.alltoall);
  CHECK(options.iters == 7);
  CHECK(options.warmup == 0);
  CHECK(options.gpus == 4);
  CHECK(options.blocks == 16);
  CHECK(options.threads == 256);
  CHECK(options.timeout_s == 2.5);
  CHECK(options.dump_dir == "d");
  CHECK(options.csv == "c.csv");

  Options defaults;
  REQUIRE(parse({}, &defaults, &error));
  CHECK(defaults.allreduce);
  CHECK(defaults.alltoall);
  CHECK(defaults.sizes == std::vector<uint64_t>{65536, 1048576, 16777216, 268435456});

  for (std::vector<const char*> bad : {std::vector<const char*>{"--colls", "reduce"},
                                       {"--colls", "allreduce,"},
                                       {"--threads", "100"},
                                       {"--gpus", "1"},
                                       {"--iters", "0"},
                                       {"--timeout-s", "0"},
                                       {"--iters"},
                                       {"--bogus", "1"}}) {
    Options o;
    INFO(bad[0]);
    CHECK_FALSE(parse(bad, &o, &error));
  }
  Options help;
  REQUIRE(parse({"--help"}, &help, &error));
  CHECK(help.help);
}
