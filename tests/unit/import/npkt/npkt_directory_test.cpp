// find_npkt_files, and read_npkt_file on paths that are not dump files.
#include "import/npkt/npkt_directory.hpp"

#include <sys/stat.h>

#include <catch2/catch.hpp>

#include "import/npkt/npkt_dump.hpp"
#include "support/npkt_writer.hpp"
#include "support/temp_dir.hpp"

using npkit::ingest::find_npkt_files;
using npkit::ingest::read_npkt_file;
using npkit::test::NpktBuilder;
using npkit::test::TempDir;

TEST_CASE("npkt directory: regular *.npkt files only, sorted by name", "[npkt]") {
  TempDir tmp;
  const std::string dir = tmp.make_dir("dump");
  NpktBuilder b;
  b.comm(0xab, 1, 2).write(tmp, "dump/npkit_00000000000000ab_rank1.npkt");
  b.comm(0xab, 0, 2).write(tmp, "dump/npkit_00000000000000ab_rank0.npkt");
  tmp.write_file("dump/npkit_00000000000000ab_rank2.npkt.tmp.777", "partial");
  tmp.write_file("dump/notes.txt", "x");
  tmp.write_file("dump/UPPER.NPKT", "x");
  tmp.write_file("dump/.npkt", "x");
  tmp.make_dir("dump/sub.npkt");
  tmp.write_file("dump/sub.npkt/inner.npkt", "x");
  auto files = find_npkt_files(dir);
  REQUIRE(files.ok());
  CHECK(*files == std::vector<std::string>{dir + "/npkit_00000000000000ab_rank0.npkt",
                                           dir + "/npkit_00000000000000ab_rank1.npkt"});
}

TEST_CASE("npkt directory: no dump files, or no directory, is an error", "[npkt]") {
  TempDir tmp;
  const std::string dir = tmp.make_dir("empty");
  tmp.write_file("empty/gpu_events_rank_0_buf_0", "");
  auto none = find_npkt_files(dir);
  REQUIRE_FALSE(none.ok());
  CHECK(none.error().message == "no .npkt files in " + dir);

  auto missing = find_npkt_files(tmp.file("missing"));
  REQUIRE_FALSE(missing.ok());
  CHECK_THAT(missing.error().message,
             Catch::StartsWith("cannot open directory " + tmp.file("missing")));
}

TEST_CASE("npkt directory: read_npkt_file on a directory, a FIFO, a missing file", "[npkt]") {
  TempDir tmp;
  const std::string dir = tmp.make_dir("d.npkt");
  auto on_dir = read_npkt_file(dir);
  REQUIRE_FALSE(on_dir.ok());
  CHECK(on_dir.error().message == dir + ": is a directory, expected an npkit dump file (.npkt)");

  const std::string fifo = tmp.file("pipe.npkt");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  auto on_fifo = read_npkt_file(fifo);  // must not block waiting for a writer
  REQUIRE_FALSE(on_fifo.ok());
  CHECK(on_fifo.error().message == fifo +
                                       ": not a regular file (a device, FIFO or socket), expected "
                                       "an npkit dump file (.npkt)");

  auto on_device = read_npkt_file("/dev/null");
  REQUIRE_FALSE(on_device.ok());
  CHECK_THAT(on_device.error().message, Catch::StartsWith("/dev/null: not a regular file"));

  const std::string missing = tmp.file("missing.npkt");
  auto on_missing = read_npkt_file(missing);
  REQUIRE_FALSE(on_missing.ok());
  CHECK(on_missing.error().message == "cannot open " + missing + ": No such file or directory");
}

TEST_CASE("npkt directory: read_npkt_file names the path in parse errors", "[npkt]") {
  TempDir tmp;
  NpktBuilder b;
  const std::string path = b.comm(1, 0, 1).truncate_at(100).write(tmp, "short.npkt");
  auto d = read_npkt_file(path);
  REQUIRE_FALSE(d.ok());
  // The base file is 296 bytes (see npkt_errors_test.cpp).
  CHECK(d.error().message == path + ": offset 100: truncated: header says 296 bytes, file has 100");
}
