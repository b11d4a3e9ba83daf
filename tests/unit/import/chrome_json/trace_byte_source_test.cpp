// The Chrome-trace reader's byte sources: every byte once, in order, then 0; a path that is no
// readable regular file is an Error naming it.
#include "import/chrome_json/trace_byte_source.hpp"

#include <catch2/catch.hpp>

#include <string>

#include "support/temp_dir.hpp"

namespace {

// Reads `source` to its end in chunks of `chunk` bytes.
std::string drain(npkit::ByteSource& source, std::size_t chunk) {
  std::string out;
  std::string buffer(chunk, '\0');
  for (;;) {
    auto got = source.read(buffer.data(), chunk);
    REQUIRE(got.ok());
    if (*got == 0) return out;
    out.append(buffer.data(), *got);
  }
}

}  // namespace

TEST_CASE("trace byte source: memory and file give the same bytes in any chunk size", "[json]") {
  const std::string text = "[{\"ph\":\"X\",\"ts\":1.5}]\n";
  for (std::size_t chunk : {1, 3, 64}) {
    npkit::MemorySource memory(text);
    CHECK(memory.size() == text.size());
    CHECK(drain(memory, chunk) == text);
  }
  const npkit::test::TempDir tmp;
  auto file = npkit::open_file_source(tmp.write_file("t.json", text));
  REQUIRE(file.ok());
  CHECK((*file)->size() == text.size());
  CHECK(drain(**file, 5) == text);
}

TEST_CASE("trace byte source: a missing path or a directory is an error naming it", "[json]") {
  const npkit::test::TempDir tmp;
  const std::string missing = tmp.file("missing.json");
  auto none = npkit::open_file_source(missing);
  REQUIRE_FALSE(none.ok());
  CHECK(none.error().message.rfind("cannot open " + missing + ": ", 0) == 0);
  const std::string dir = tmp.make_dir("dir.json");
  auto directory = npkit::open_file_source(dir);
  REQUIRE_FALSE(directory.ok());
  CHECK(directory.error().message == "cannot read " + dir + ": not a regular file");
}
