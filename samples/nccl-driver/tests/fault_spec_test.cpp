#include <catch2/catch.hpp>

#include "fault_spec.hpp"

using npkit::driver::FaultKind;
using npkit::driver::parse_fault;

TEST_CASE("Faults parse as KIND:RANK:CALL", "[nccl-driver]") {
  std::string error;
  const auto kill = parse_fault("kill:1:10", &error);
  REQUIRE(kill.has_value());
  CHECK(kill->kind == FaultKind::kKill);
  CHECK(kill->rank == 1);
  CHECK(kill->call == 10);
  CHECK(parse_fault("EXIT:0:0", &error)->kind == FaultKind::kExit);
  CHECK(parse_fault("mismatch:3:7", &error)->kind == FaultKind::kMismatch);
  CHECK(parse_fault("skip:2:123456789012", &error)->call == 123456789012LL);
}

TEST_CASE("Malformed faults name the part at fault", "[nccl-driver]") {
  auto error_of = [](const char* text) {
    std::string error;
    CHECK_FALSE(parse_fault(text, &error).has_value());
    return error;
  };
  CHECK_THAT(error_of("kill:1"), Catch::Contains("KIND:RANK:CALL"));
  CHECK_THAT(error_of("kill:1:2:3"), Catch::Contains("KIND:RANK:CALL"));
  CHECK_THAT(error_of("hang:1:2"), Catch::Contains("'hang'"));
  CHECK_THAT(error_of("kill:-1:2"), Catch::Contains("RANK"));
  CHECK_THAT(error_of("kill:x:2"), Catch::Contains("RANK"));
  CHECK_THAT(error_of("kill:99999999999:2"), Catch::Contains("RANK"));
  CHECK_THAT(error_of("kill:1:"), Catch::Contains("CALL"));
  CHECK_THAT(error_of("kill:1:1.5"), Catch::Contains("CALL"));
}

TEST_CASE("Faults describe themselves in one line", "[nccl-driver]") {
  std::string error;
  CHECK(npkit::driver::describe_fault(*parse_fault("kill:1:10", &error)) ==
        "kill: rank 1 SIGKILLs itself right after call 10 returned");
  CHECK(npkit::driver::describe_fault(*parse_fault("exit:0:3", &error)) ==
        "exit: rank 0 exits with status 0 just before call 3, without ncclCommDestroy");
  CHECK_THAT(npkit::driver::describe_fault(*parse_fault("skip:2:4", &error)),
             Catch::StartsWith("skip: rank 2 skips call 4"));
  CHECK(npkit::driver::fault_name(FaultKind::kMismatch) == "mismatch");
}
