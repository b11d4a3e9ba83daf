// Environment files beside a dump (ENV.txt as `env > ENV.txt` writes it): what is kept, where it
// is found, and how it completes a run's configuration without overriding what the input
// recorded.
#include <catch2/catch.hpp>

#include <string>

#include "import/environment/environment_file.hpp"
#include "support/temp_dir.hpp"

using npkit::EnvironmentFile;
using npkit::RunConfig;

TEST_CASE("environment file: NCCL_* and NPKIT_* KEY=VALUE lines, the last one of a key wins",
          "[environment]") {
  const npkit::test::TempDir dir;
  const std::string path = dir.write_file(
      "ENV.txt",
      "HOME=/root\r\n"
      "NCCL_PROTO=LL\n"
      "NCCL_ALGO=Ring\n"
      "BASH_FUNC_x%%=() {  echo\n"  // a multi-line value: its continuation is not KEY=VALUE
      "}\n"
      "\n"
      "NCCL_DEBUG_SUBSYS=INIT,ENV=x\n"  // the value is everything after the first '='
      "NCCL_PROTO=Simple\r\n"           // later wins; CR of a CRLF line dropped
      "NPKIT_EVENTS=coll\n"
      "nccl_lower=1\n"
      "9NCCL_BAD=1");
  auto file = npkit::read_environment_file(path);
  REQUIRE(file.ok());
  CHECK(file->path == path);
  CHECK(file->variables == std::map<std::string, std::string>{{"NCCL_ALGO", "Ring"},
                                                              {"NCCL_DEBUG_SUBSYS", "INIT,ENV=x"},
                                                              {"NCCL_PROTO", "Simple"},
                                                              {"NPKIT_EVENTS", "coll"}});
}

TEST_CASE("environment file: unreadable and binary files are errors naming them", "[environment]") {
  const npkit::test::TempDir dir;
  auto missing = npkit::read_environment_file(dir.file("nope.txt"));
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().message.find("nope.txt") != std::string::npos);
  const std::string binary = dir.write_file("ENV.txt", std::string("NCCL_A=1\nNCCL_B=\0x\n", 19));
  auto bad = npkit::read_environment_file(binary);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message == binary +
                                   ": line 2: a NUL byte; expected KEY=VALUE lines as `env` "
                                   "prints them");
}

TEST_CASE("environment file: found beside the dump or in its parent, ENV.txt first",
          "[environment]") {
  const npkit::test::TempDir dir;
  const std::string run = dir.make_dir("run");
  const std::string dump = dir.make_dir("run/dump");
  const std::string trace = dir.write_file("run/dump/trace.json", "{}");
  CHECK(npkit::find_environment_file(dump).empty());

  const std::string parent_env = dir.write_file("run/env.txt", "NCCL_PROTO=LL\n");
  CHECK(npkit::find_environment_file(dump) == parent_env);
  CHECK(npkit::find_environment_file(dump + "/") == parent_env);
  CHECK(npkit::find_environment_file(trace) == parent_env);  // a file: its directory, then up

  const std::string parent_upper = dir.write_file("run/ENV.txt", "NCCL_PROTO=LL\n");
  CHECK(npkit::find_environment_file(dump) == parent_upper);
  const std::string beside = dir.write_file("run/dump/env.txt", "NCCL_PROTO=LL\n");
  CHECK(npkit::find_environment_file(dump) == beside);
  CHECK(npkit::find_environment_file(trace) == beside);
  CHECK(npkit::find_environment_file(run) == parent_upper);
}

TEST_CASE("environment file: completes the configuration, the input's own record wins",
          "[environment]") {
  RunConfig config;
  config.env["NCCL_PROTO"] = {"LL"};   // recorded by the capture
  config.env["NCCL_ALGO"] = {"Ring"};  // recorded, and the file agrees
  EnvironmentFile file;
  file.path = "run/ENV.txt";
  file.variables = {{"NCCL_PROTO", "Simple"}, {"NCCL_ALGO", "Ring"}, {"NCCL_NTHREADS", "256"}};
  const auto conflicts = npkit::apply_environment(file, config);
  CHECK(conflicts == std::vector<std::string>{
                         "run/ENV.txt: NCCL_PROTO=Simple, but the input recorded a different "
                         "value; the input's is kept"});
  CHECK(config.env.at("NCCL_PROTO") == std::set<std::string>{"LL"});
  CHECK(config.env.at("NCCL_ALGO") == std::set<std::string>{"Ring"});
  CHECK(config.env.at("NCCL_NTHREADS") == std::set<std::string>{"256"});
  CHECK(config.env_files == std::set<std::string>{"run/ENV.txt"});
}
