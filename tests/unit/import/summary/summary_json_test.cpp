// npkit-summary JSON: what is written reads back equal; malformed summaries give errors naming
// the file and the byte offset of the offending token (offsets found in the text itself).
#include <sys/stat.h>
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "import/summary/summary_json_reader.hpp"
#include "output/summary_json_writer.hpp"
#include "support/temp_dir.hpp"
#include "support/test_data.hpp"
#include "unit/run/summary/summary_test_support.hpp"

using npkit::RunSummary;
using npkit::test::source_path;
using npkit::test::synthetic_row;

namespace {

std::string written(const RunSummary& s) {
  std::string out;
  npkit::write_summary_json(s, out);
  return out;
}

RunSummary small_summary() {
  RunSummary s;
  s.inputs = {"base"};
  s.config.formats = {"npkt"};
  s.config.nccl_versions = {"2.28.9"};
  s.config.env["NCCL_PROTO"] = {"LL"};
  s.config.communicators["00000000000000ab"] = {2, {0, 1}};
  s.config.files = 2;
  s.collectives.push_back(
      synthetic_row("AllReduce", 1048576, "RING", "LL", {{100, 110, 120}, {101, 111, 121}}));
  return s;
}

// The error for `text`; its message must start "NAME: offset N: ".
std::string error_of(const std::string& text) {
  auto r = npkit::parse_summary("s.json", text);
  REQUIRE_FALSE(r.ok());
  return r.error().message;
}

std::string at(std::size_t offset) {
  return fmt::format("s.json: offset {}: ", offset);
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const std::size_t p = text.find(from);
  REQUIRE(p != std::string::npos);
  return text.replace(p, from.size(), to);
}

}  // namespace

TEST_CASE("summary json: real summaries and spilled samples read back equal",
          "[summary][json][real]") {
  for (const char* run : {"agree", "nvlink", "socket", "torch"}) {
    INFO(run);
    const RunSummary s = npkit::test::summarize_path(
        source_path(std::string("samples/nccl-h200/") + run + "/dump"), run);
    auto back = npkit::parse_summary("x", written(s));
    REQUIRE(back.ok());
    CHECK(*back == s);
  }
  RunSummary big = small_summary();
  std::vector<std::int64_t> many;
  for (int i = 0; i < 3000; ++i) many.push_back(50000 + 37 * i);
  big.collectives[0] = synthetic_row("AllReduce", 1048576, "RING", "LL", {many, {5}});
  big.collectives[0].stale_instances = 1;
  big.collectives[0].incomplete_instances = 2;
  REQUIRE_FALSE(big.collectives[0].ranks[0].time_ns.exact());
  const std::string text = written(big);
  CHECK(text.find("\"buckets\": [[") != std::string::npos);
  CHECK(text.find("\"stale_instances\": 1, \"incomplete_instances\": 2,") != std::string::npos);
  auto back = npkit::parse_summary("x", text);
  REQUIRE(back.ok());
  CHECK(*back == big);
}

TEST_CASE("summary json: unknown fields are skipped", "[summary][json]") {
  const std::string text =
      replaced(written(small_summary()), "\"inputs\":", "\"later\": {\"x\": [1, 2]}, \"inputs\":");
  auto back = npkit::parse_summary("x", text);
  REQUIRE(back.ok());
  CHECK(*back == small_summary());
}

TEST_CASE("summary json: rows written before stale and incomplete instances read as 0",
          "[summary][json]") {
  const std::string text = replaced(written(small_summary()),
                                    "\"stale_instances\": 0, \"incomplete_instances\": 0, ", "");
  auto back = npkit::parse_summary("x", text);
  REQUIRE(back.ok());
  CHECK(*back == small_summary());
}

TEST_CASE("summary json: malformed input names the byte offset", "[summary][json]") {
  const std::string good = written(small_summary());

  SECTION("not JSON at all") {
    CHECK(error_of("hello").rfind(at(0), 0) == 0);
  }
  SECTION("invalid UTF-8") {
    const std::string text = replaced(good, "RING", "R\xC3\x28NG");
    CHECK(error_of(text) == at(good.find("RING") + 1) + "invalid UTF-8");
  }
  SECTION("a raw control character in a string") {
    const std::string text = replaced(good, "RING", "RI\tNG");
    CHECK(error_of(text) ==
          at(good.find("RING") + 2) + "control character in a string (escape it)");
  }
  SECTION("a string never closed") {
    const std::string text = good.substr(0, good.find("RING")) + "RI";
    CHECK(error_of(text) == at(good.find("RING") - 1) + "string never closed");
  }
  SECTION("the file cut short") {
    const std::string text = good.substr(0, good.find("\"phases\""));
    CHECK(error_of(text).rfind(at(text.size()), 0) == 0);
  }
  SECTION("a wrong type") {
    const std::string text = replaced(good, "\"schema_version\": 2", "\"schema_version\": \"2\"");
    CHECK(error_of(text) == at(good.find("\"schema_version\": 2") + 18) +
                                "schema_version: expected an integer in [1, 2147483647]");
  }
  SECTION("a newer schema version") {
    const std::string text = replaced(good, "\"schema_version\": 2", "\"schema_version\": 3");
    CHECK(error_of(text) == at(good.find("\"schema_version\": 2") + 18) +
                                "schema_version 3 is newer than this npkit-analyze reads (2); use "
                                "a newer npkit-analyze");
  }
  SECTION("another schema") {
    const std::string text = replaced(good, "npkit-summary", "npkit-analyze.info");
    CHECK(error_of(text) == at(good.find("\"npkit-summary\"")) +
                                "schema \"npkit-analyze.info\" is not \"npkit-summary\"");
  }
  SECTION("a missing field") {
    const std::string text = replaced(good, "\"sync\": []", "\"sync_rows\": []");
    CHECK(error_of(text) == at(0) + "summary: missing field \"sync\"");
  }
  SECTION("a duplicate field") {
    const std::string text = replaced(good, "\"inputs\":", "\"warnings\": 3, \"inputs\":");
    CHECK(error_of(text) ==
          at(good.find("\"warnings\"") + 15) + "summary: duplicate field \"warnings\"");
  }
  SECTION("a sample whose count does not match its values") {
    const std::string sample = "{\"count\": 3, \"min\": 100";
    const std::string text = replaced(good, sample, "{\"count\": 4, \"min\": 100");
    CHECK(error_of(text) == at(good.find(sample)) +
                                "time_ns: count/min/max/sum (4/100/120/330) do not match the "
                                "values (3/100/120/330)");
  }
  SECTION("a bucket that is not a bucket's lowest value") {
    const std::string sample = "\"values\": [100, 110, 120]";
    const std::string text = replaced(good, sample, "\"buckets\": [[100, 1], [257, 2]]");
    CHECK(error_of(text) ==
          at(good.find(sample) + 22) + "bucket: 257 is not the lowest value of a bucket");
  }
  SECTION("a duplicate row") {
    const std::size_t row = good.find("    {\"collective\"") + 4;
    const std::size_t end = good.find("\n  ]", row);
    const std::string line = good.substr(row, end - row);
    const std::string text = good.substr(0, end) + ",\n    " + line + good.substr(end);
    CHECK(error_of(text) == at(end + 6) + "duplicate collective row");
  }
  SECTION("content after the summary") {
    const std::string text = good + "x";
    CHECK(error_of(text).rfind(at(good.size()), 0) == 0);
  }
}

TEST_CASE("summary sniffing: only an object whose first key names the summary schema",
          "[summary]") {
  CHECK(npkit::looks_like_summary("{\n  \"schema\": \"npkit-summary\",\n  \"schema_version\": 1"));
  CHECK(npkit::looks_like_summary("{\"schema\":\"npkit-summary\",\"schema_version\":1}"));
  CHECK_FALSE(npkit::looks_like_summary("{\"displayTimeUnit\": \"ns\", \"otherData\": {"));
  CHECK_FALSE(npkit::looks_like_summary("[{\"ph\":\"B\"}]"));
  CHECK_FALSE(npkit::looks_like_summary("{\"schema\": \"npkit-analyze.diff\"}"));
  CHECK_FALSE(npkit::looks_like_summary("{\"schema\": \"npkit-summ"));
  CHECK_FALSE(npkit::looks_like_summary(""));
}

TEST_CASE("summary sniffing: a regular file that starts like a summary, never a FIFO",
          "[summary]") {
  const npkit::test::TempDir tmp;
  CHECK(npkit::is_summary_file(
      tmp.write_file("run.json", "{\"schema\": \"npkit-summary\", \"schema_version\": 1}")));
  CHECK_FALSE(npkit::is_summary_file(tmp.write_file("trace.json", "[{\"ph\":\"B\"}]")));
  CHECK_FALSE(npkit::is_summary_file(tmp.write_file("empty.json", "")));
  CHECK_FALSE(npkit::is_summary_file(tmp.file("missing.json")));
  CHECK_FALSE(npkit::is_summary_file(tmp.make_dir("run.json.d")));
  // A FIFO is never opened: reading it would wait for a writer.
  const std::string fifo = tmp.file("pipe.json");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK_FALSE(npkit::is_summary_file(fifo));
}
