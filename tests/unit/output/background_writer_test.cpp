// BackgroundWriter writes every chunk, in order, and says whether the writes succeeded: on its
// thread, and where the host refuses to start that thread, inside submit().
#include "output/background_writer.hpp"

#include <catch2/catch.hpp>

#include <sstream>
#include <string>

#include "support/without_threads.hpp"

namespace {

// Writes 50 numbered chunks through a writer and returns what reached the stream ("" = failed).
std::string write_chunks() {
  std::ostringstream out;
  npkit::io::BackgroundWriter writer(out, 2);
  for (int i = 0; i < 50; ++i) {
    std::string chunk = "chunk " + std::to_string(i) + "\n";
    writer.submit(chunk);
    if (!chunk.empty()) return "";  // submit takes the contents
  }
  if (!writer.finish()) return "";
  return out.str();
}

std::string expected() {
  std::string text;
  for (int i = 0; i < 50; ++i) text += "chunk " + std::to_string(i) + "\n";
  return text;
}

}  // namespace

TEST_CASE("background writer: chunks in order, on its thread", "[util]") {
  CHECK(write_chunks() == expected());
}

TEST_CASE("background writer: a host that refuses its thread gets the same bytes", "[util]") {
  const std::string failed = npkit::test::run_without_threads(
      []() -> std::string { return write_chunks() == expected() ? "" : "other bytes"; });
  CHECK(failed == "");
}

TEST_CASE("background writer: a failing stream is reported, with or without its thread", "[util]") {
  const auto fails = [] {
    std::ostringstream out;
    out.setstate(std::ios::badbit);
    npkit::io::BackgroundWriter writer(out);
    std::string chunk = "lost";
    writer.submit(chunk);
    return !writer.finish();
  };
  CHECK(fails());
  const std::string failed = npkit::test::run_without_threads(
      [&]() -> std::string { return fails() ? "" : "the failed write was not reported"; });
  CHECK(failed == "");
}
