// The nccl-tests results reader on the hand-specified files of tests/data/nccl-tests (their
// numbers are make_fixtures.py's spec: times in us, algbw = S / time, busbw = algbw × factor),
// and the detector's sniff of the file's first bytes.
#include <catch2/catch.hpp>

#include "import/nccl_tests/nccl_tests_file.hpp"
#include "run/nccl_names.hpp"
#include "support/test_data.hpp"

namespace npkit {
namespace {

using test::data_path;
using test::require_path;

NcclTestsFile read(const std::string& name) {
  auto f = read_nccl_tests_file(require_path(data_path("nccl-tests/" + name)));
  INFO((f.ok() ? std::string() : f.error().message));
  REQUIRE(f.ok());
  return std::move(*f);
}

TEST_CASE("nccl-tests file: 8 ranks on 2 hosts, two passes, per-iteration times (version 3)",
          "[nccl_tests]") {
  const NcclTestsFile f = read("allreduce-8r-2hosts.json");
  CHECK(f.version == 3);
  CHECK(nccl_version_text(f.nccl_version) == "2.28.9");
  CHECK(f.results.program == "all_reduce_perf_mpi");
  // 2 processes (devices) × 1 thread × 4 GPUs.
  CHECK(f.results.nranks == 8);
  REQUIRE(f.devices.size() == 2);
  CHECK(f.devices[1].rank == 4);
  CHECK(f.devices[1].hostname == "node-b");
  CHECK(f.results.time_kind == "time");
  CHECK(f.step_factor == 4u);
  CHECK(f.per_iter_timing);
  REQUIRE(f.results.rows.size() == 6);
  const DriverResult& r = f.results.rows[0];
  CHECK(r.func == "AllReduce");
  CHECK(r.bytes == 1048576);
  CHECK(r.count == 262144);
  CHECK(r.type == "ncclFloat32");
  CHECK(r.redop == "sum");
  CHECK(r.root == -1);
  CHECK(r.iterations == 6);
  CHECK(r.cycle == 0);
  CHECK(f.results.rows[3].cycle == 1);  // the second pass over 1 MiB
  REQUIRE(r.out_of_place);
  CHECK(r.out_of_place->time_ns == Approx(20000.0));
  CHECK(r.out_of_place->algbw_gbps == Approx(52.4288));  // 1048576 B / 20000 ns
  CHECK(r.out_of_place->busbw_gbps == Approx(91.7504));  // × 2·7/8
  CHECK(r.out_of_place->wrong == 0u);
  CHECK(r.out_of_place->skipped_iterations == 1);
  CHECK(r.out_of_place->iteration_ns ==
        std::vector<double>{30000, 20000, 21000, 19000, 20500, 19500});
  REQUIRE(r.in_place);
  CHECK(r.in_place->time_ns == Approx(19000.0));
  CHECK(r.in_place->iteration_ns.empty());
  CHECK(f.results.rows[3].out_of_place->time_ns == Approx(21000.0));  // pass 2: 20 + 1 us
  CHECK(f.errors.empty());
  CHECK(f.notes.empty());
}

TEST_CASE("nccl-tests file: version 1 with CPU time, linear steps and a wrong count",
          "[nccl_tests]") {
  const NcclTestsFile f = read("reducescatter-v1.json");
  CHECK(f.version == 1);
  CHECK(nccl_version_text(f.nccl_version) == "2.27.3");
  CHECK(f.results.time_kind == "cpu_time");
  CHECK(f.results.nranks == 4);  // 1 process × 4 threads × 1 GPU
  CHECK(f.step_bytes == 4096u);
  CHECK_FALSE(f.step_factor);
  REQUIRE(f.results.rows.size() == 3);
  CHECK(f.results.rows[1].func == "ReduceScatter");
  CHECK(f.results.rows[1].type == "ncclFloat16");
  CHECK(f.results.rows[1].count == 1024);  // per-rank elements: 8192 B / 2 B / 4
  CHECK(f.results.rows[1].out_of_place->time_ns == Approx(8192.0));
  CHECK(f.results.rows[1].out_of_place->busbw_gbps == Approx(0.75));  // 8192/8192 × 3/4
  CHECK(f.results.rows[1].in_place->wrong == 7u);
}

TEST_CASE("nccl-tests file: validation off, errors and out-of-bounds values", "[nccl_tests]") {
  const NcclTestsFile f = read("allgather-8r-errors.json");
  CHECK(f.results.nranks == 8);  // 1 process × 1 thread × 8 GPUs
  REQUIRE(f.results.rows.size() == 3);
  CHECK(f.results.rows[0].func == "AllGather");
  CHECK(f.results.rows[0].type == "ncclBfloat16");
  CHECK(f.results.rows[0].redop == "none");
  CHECK_FALSE(f.results.rows[0].out_of_place->wrong);  // null: not checked
  CHECK(f.out_of_bounds == 1);
  CHECK(f.errors == std::vector<std::string>{"NCCL WARN Cuda failure 'out of memory'"});
  CHECK(f.validation == 0);
}

TEST_CASE("nccl-tests file: \"nan\", an unknown type and an unknown program are kept as notes",
          "[nccl_tests]") {
  const std::string text =
      R"({"version":3,"start_time":"t","args":["my_bench"],"nccl_version":22809,)"
      R"("config":{"nthreads":1,"ngpus":1,"minimum_bytes":8,"maximum_bytes":8,"warmup_iters":1,)"
      R"("iterations":1,"aggregated_iterations":1,"validation":1,"graph":0,"devices":[]},)"
      R"("results":[{"size":8,"count":1,"type":"float128","redop":"sum","root":"     0",)"
      R"("out_of_place":{"time":"nan","alg_bw":1.0,"bus_bw":1.0,"nwrong":null},)"
      R"("in_place":{"time":2.0,"alg_bw":4.0,"bus_bw":4.0,"nwrong":0},"actual_iterations":1}]})";
  auto f = parse_nccl_tests("x.json", text);
  REQUIRE(f.ok());
  REQUIRE(f->results.rows.size() == 1);
  const DriverResult& r = f->results.rows[0];
  CHECK(r.func == "my_bench");
  CHECK(r.type == "float128");
  CHECK(r.root == 0);
  CHECK_FALSE(r.out_of_place);
  REQUIRE(r.in_place);
  CHECK(r.in_place->time_ns == Approx(2000.0));
  CHECK(f->notes == std::vector<std::string>{
                        "results[0].type \"float128\" is not a type nccl-tests prints: kept as "
                        "written",
                        "results[0].out_of_place holds \"nan\": the placement was left out"});
  CHECK(f->results.nranks == 1);
}

TEST_CASE("nccl-tests file: recognised by its first members, not by its name", "[nccl_tests]") {
  CHECK(looks_like_nccl_tests(R"({"version":3,"start_time":"2026-12-02 09:31:15","args":[)"));
  CHECK(looks_like_nccl_tests("{ \"version\" : 1 ,\n  \"start_time\" : \"x\""));
  CHECK_FALSE(looks_like_nccl_tests(R"({"traceEvents":[)"));
  CHECK_FALSE(looks_like_nccl_tests(R"({"schema":"npkit-summary","schema_version":2)"));
  CHECK_FALSE(looks_like_nccl_tests(R"({"version":"3","start_time":"x")"));
  CHECK_FALSE(looks_like_nccl_tests(R"({"version":3,"results":[])"));
  CHECK_FALSE(looks_like_nccl_tests(R"([{"version":3,"start_time":"x"}])"));
}

TEST_CASE("nccl-tests names: programs, types and NCCL version codes", "[nccl_tests]") {
  CHECK(nccl_func_of_tests_program("/opt/nccl-tests/build/all_reduce_perf") ==
        NcclFunc::kAllReduce);
  CHECK(nccl_func_of_tests_program("all_gather_perf_mpi") == NcclFunc::kAllGather);
  CHECK(nccl_func_of_tests_program("reduce_perf") == NcclFunc::kReduce);
  CHECK(nccl_func_of_tests_program("reduce_scatter_perf") == NcclFunc::kReduceScatter);
  CHECK(nccl_func_of_tests_program("alltoall_perf") == NcclFunc::kAllToAll);
  CHECK(nccl_func_of_tests_program("sendrecv_perf") == NcclFunc::kSendRecv);
  CHECK(nccl_func_of_tests_program("hypercube_perf") == NcclFunc::kOther);
  CHECK(nccl_func_of_tests_program("") == NcclFunc::kOther);
  CHECK(nccl_type_of_tests_name("bfloat16") == "ncclBfloat16");
  CHECK(nccl_type_of_tests_name("f8e5m2") == "ncclFloat8e5m2");
  CHECK(nccl_type_of_tests_name("ncclFloat32").empty());
  CHECK(nccl_version_text(22809) == "2.28.9");
  CHECK(nccl_version_text(21903) == "2.19.3");
  CHECK(nccl_version_text(2708) == "2.7.8");
}

}  // namespace
}  // namespace npkit
