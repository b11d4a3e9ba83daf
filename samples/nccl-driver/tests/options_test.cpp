#include <catch2/catch.hpp>

#include "options.hpp"

using npkit::driver::CollKind;
using npkit::driver::parse_byte_size;
using npkit::driver::parse_options;
using Action = npkit::driver::ParseOutcome::Action;

TEST_CASE("Byte sizes take K, M, G suffixes in powers of 1024", "[nccl-driver]") {
  CHECK(parse_byte_size("8") == std::size_t{8});
  CHECK(parse_byte_size("1K") == std::size_t{1024});
  CHECK(parse_byte_size("256M") == std::size_t{268435456});
  CHECK(parse_byte_size("1g") == std::size_t{1073741824});
  CHECK_FALSE(parse_byte_size("").has_value());
  CHECK_FALSE(parse_byte_size("M").has_value());
  CHECK_FALSE(parse_byte_size("12x").has_value());
  CHECK_FALSE(parse_byte_size("-4").has_value());
  CHECK_FALSE(parse_byte_size("99999999999999999999").has_value());
  CHECK_FALSE(parse_byte_size("17179869184G").has_value());  // 2^34 GiB = 2^64 B
}

TEST_CASE("Defaults are the nccl-tests ones", "[nccl-driver]") {
  const auto outcome = parse_options({});
  REQUIRE(outcome.action == Action::kRun);
  const auto& o = outcome.options;
  CHECK(o.nranks == 0);
  CHECK(o.colls.size() == 5);
  CHECK(o.min_bytes == 8);
  CHECK(o.max_bytes == 268435456);
  CHECK(o.step_factor == 2);
  CHECK(o.warmup == 5);
  CHECK(o.iters == 20);
  CHECK(o.check);
  CHECK(o.destroy);
  CHECK(o.timeout_s == 300);
  CHECK(o.csv_path.empty());
  CHECK_FALSE(o.one_gpu);
  CHECK(o.grace_s == 10);
  CHECK(o.calls_log_dir.empty());
  CHECK(o.loop_calls == 0);
  CHECK(o.launch_cost_calls == 0);
  CHECK(o.watchdog_s == 0);
  CHECK_FALSE(o.fault.has_value());
}

TEST_CASE("One-GPU, logging, loop, fault and watchdog options", "[nccl-driver]") {
  const auto outcome =
      parse_options({"--nranks", "4", "--one-gpu", "--colls", "sendrecv", "--calls-log", "logs",
                     "--loop=20", "--fault", "kill:3:10", "--watchdog-s", "5", "--grace-s=0"});
  REQUIRE(outcome.action == Action::kRun);
  const auto& o = outcome.options;
  CHECK(o.one_gpu);
  CHECK(o.colls == std::vector<CollKind>{CollKind::kSendRecv});
  CHECK(o.calls_log_dir == "logs");
  CHECK(o.loop_calls == 20);
  REQUIRE(o.fault.has_value());
  CHECK(o.fault->kind == npkit::driver::FaultKind::kKill);
  CHECK(o.fault->rank == 3);
  CHECK(o.fault->call == 10);
  CHECK(o.watchdog_s == 5);
  CHECK(o.grace_s == 0);
  const auto cost = parse_options({"--launch-cost", "1000", "--fault", "skip:7:0"});
  REQUIRE(cost.action == Action::kRun);
  CHECK(cost.options.launch_cost_calls == 1000);
  CHECK(cost.options.fault->rank == 7);  // checked against the device count at run time
}

TEST_CASE("Options take separate or '=' values", "[nccl-driver]") {
  const auto outcome =
      parse_options({"--nranks", "2", "--colls=allreduce,Broadcast", "--min-bytes", "1K",
                     "--max-bytes=64M", "--step-factor", "4", "--warmup=2", "--iters", "5",
                     "--no-check", "--no-destroy", "--csv", "out.csv", "--timeout-s=60"});
  REQUIRE(outcome.action == Action::kRun);
  const auto& o = outcome.options;
  CHECK(o.nranks == 2);
  CHECK(o.colls == std::vector<CollKind>{CollKind::kAllReduce, CollKind::kBroadcast});
  CHECK(o.min_bytes == 1024);
  CHECK(o.max_bytes == 67108864);
  CHECK(o.step_factor == 4);
  CHECK(o.warmup == 2);
  CHECK(o.iters == 5);
  CHECK_FALSE(o.check);
  CHECK_FALSE(o.destroy);
  CHECK(o.csv_path == "out.csv");
  CHECK(o.timeout_s == 60);
}

TEST_CASE("--help ends parsing where it stands", "[nccl-driver]") {
  CHECK(parse_options({"--iters", "0", "--help"}).action == Action::kError);
  CHECK(parse_options({"--help", "--iters", "0"}).action == Action::kHelp);
  CHECK(parse_options({"-h"}).action == Action::kHelp);
}

TEST_CASE("Bad arguments are errors that name the argument", "[nccl-driver]") {
  auto error_of = [](std::vector<std::string> args) {
    const auto outcome = parse_options(args);
    CHECK(outcome.action == Action::kError);
    return outcome.error;
  };
  CHECK_THAT(error_of({"--colls", "allreduce,foo"}), Catch::Contains("'foo'"));
  CHECK_THAT(error_of({"--min-bytes", "1M", "--max-bytes", "1K"}), Catch::Contains("--min-bytes"));
  CHECK_THAT(error_of({"--iters", "0"}), Catch::Contains("--iters"));
  CHECK_THAT(error_of({"--nranks", "65"}), Catch::Contains("--nranks"));
  CHECK_THAT(error_of({"--step-factor", "1"}), Catch::Contains("--step-factor"));
  CHECK_THAT(error_of({"--max-bytes", "0"}), Catch::Contains("--max-bytes"));
  CHECK_THAT(error_of({"--warmup"}), Catch::Contains("needs a value"));
  CHECK_THAT(error_of({"--bogus", "1"}), Catch::Contains("'--bogus'"));
  CHECK_THAT(error_of({"stray"}), Catch::Contains("'stray'"));
  CHECK_THAT(error_of({"--check=1"}), Catch::Contains("takes no value"));
  CHECK_THAT(error_of({"--one-gpu=yes", "--nranks", "2"}), Catch::Contains("takes no value"));
  CHECK_THAT(error_of({"--one-gpu"}), Catch::Contains("--one-gpu needs --nranks"));
  CHECK_THAT(error_of({"--loop", "5", "--launch-cost", "5"}), Catch::Contains("separate modes"));
  CHECK_THAT(error_of({"--nranks", "2", "--fault", "kill:2:1"}), Catch::Contains("rank 2"));
  CHECK_THAT(error_of({"--fault", "kill"}), Catch::Contains("KIND:RANK:CALL"));
  CHECK_THAT(error_of({"--launch-cost", "1001"}), Catch::Contains("--launch-cost"));
  CHECK_THAT(error_of({"--loop", "0"}), Catch::Contains("--loop"));
  CHECK_THAT(error_of({"--watchdog-s", "0"}), Catch::Contains("--watchdog-s"));
  CHECK_THAT(error_of({"--grace-s", "-1"}), Catch::Contains("--grace-s"));
  CHECK_THAT(error_of({"--calls-log="}), Catch::Contains("--calls-log"));
  CHECK_THAT(error_of({"--colls", "sendrecv,gather"}), Catch::Contains("sendrecv)"));
}
