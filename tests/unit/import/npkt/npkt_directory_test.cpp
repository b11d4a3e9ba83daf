// find_npkt_files (captures as they are and gzip-compressed, live files superseded by their
// dumps, compressed copies beside their files), and read_npkt_file on paths that are not dump
// files.
#include "import/npkt/npkt_directory.hpp"

#include <sys/stat.h>

#include <catch2/catch.hpp>

#include "import/npkt/npkt_dump.hpp"
#include "support/gzip_bytes.hpp"
#include "support/npkt_writer.hpp"
#include "support/temp_dir.hpp"

using npkit::find_npkt_files;
using npkit::is_npkt_file_name;
using npkit::read_npkt_file;
using npkit::test::gzip_bytes;
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
  CHECK(files->paths == std::vector<std::string>{dir + "/npkit_00000000000000ab_rank0.npkt",
                                                 dir + "/npkit_00000000000000ab_rank1.npkt"});
  CHECK(files->skipped_copies.empty());
}

TEST_CASE("npkt directory: the names of captures, as they are and compressed", "[npkt]") {
  for (const char* name : {"a.npkt", "a.live.npkt", "a.npkt.gz", "a.live.npkt.gz", "x/.npkt"}) {
    INFO(name);
    CHECK(is_npkt_file_name(name));
  }
  for (const char* name : {".npkt", ".npkt.gz", "a.gz", "a.npkt.tmp.7", "a.npkt.gz.tmp", "a.npktgz",
                           "a.NPKT.GZ", "a.npkt.bz2", "a.tar.gz", ".gz", ""}) {
    INFO(name);
    CHECK_FALSE(is_npkt_file_name(name));
  }
}

TEST_CASE("npkt directory: compressed captures are listed in the order of their names unzipped",
          "[npkt]") {
  TempDir tmp;
  const std::string dir = tmp.make_dir("dump");
  tmp.write_file("dump/r1.npkt.gz", "x");
  tmp.write_file("dump/r0.npkt", "x");
  tmp.write_file("dump/r10.live.npkt.gz", "x");
  tmp.write_file("dump/r1-other.npkt", "x");  // "r1-" sorts before "r1." and "r1.npkt.gz"
  tmp.write_file("dump/.npkt.gz", "x");
  tmp.make_dir("dump/sub.npkt.gz");
  auto files = find_npkt_files(dir);
  REQUIRE(files.ok());
  CHECK(files->paths == std::vector<std::string>{dir + "/r0.npkt", dir + "/r1-other.npkt",
                                                 dir + "/r1.npkt.gz", dir + "/r10.live.npkt.gz"});
  CHECK(files->skipped_copies.empty());

  TempDir only;
  only.write_file("d/npkit_00000000000000ab_rank0.live.npkt.gz", "x");
  auto live = find_npkt_files(only.file("d"));
  REQUIRE(live.ok());
  CHECK(live->paths ==
        std::vector<std::string>{only.file("d/npkit_00000000000000ab_rank0.live.npkt.gz")});
}

TEST_CASE("npkt directory: a dump, compressed or not, supersedes its live file in either form",
          "[npkt]") {
  for (const char* dump : {"x.npkt", "x.npkt.gz"}) {
    for (const char* live : {"x.live.npkt", "x.live.npkt.gz"}) {
      INFO(dump << " beside " << live);
      TempDir tmp;
      const std::string dir = tmp.make_dir("dump");
      tmp.write_file(std::string("dump/") + dump, "x");
      tmp.write_file(std::string("dump/") + live, "x");
      tmp.write_file("dump/y.live.npkt.gz", "x");  // no dump of its own: read
      auto files = find_npkt_files(dir);
      REQUIRE(files.ok());
      CHECK(files->paths == std::vector<std::string>{dir + "/" + dump, dir + "/y.live.npkt.gz"});
      CHECK(files->skipped_copies.empty());
    }
  }
}

TEST_CASE("npkt directory: a capture present compressed and not is read once, uncompressed",
          "[npkt]") {
  TempDir tmp;
  const std::string dir = tmp.make_dir("dump");
  for (const char* name : {"a.npkt", "a.npkt.gz", "b.live.npkt", "b.live.npkt.gz", "c.npkt.gz",
                           "d.npkt", "d.npkt.gz", "d.live.npkt", "d.live.npkt.gz"}) {
    tmp.write_file(std::string("dump/") + name, "x");
  }
  auto files = find_npkt_files(dir);
  REQUIRE(files.ok());
  CHECK(files->paths == std::vector<std::string>{dir + "/a.npkt", dir + "/b.live.npkt",
                                                 dir + "/c.npkt.gz", dir + "/d.npkt"});
  // d's live files are superseded by its dump, not copies of it: no message for them.
  CHECK(files->skipped_copies ==
        std::vector<std::string>{
            dir + "/a.npkt.gz: skipped, the uncompressed a.npkt beside it is read",
            dir + "/b.live.npkt.gz: skipped, the uncompressed b.live.npkt "
                  "beside it is read",
            dir + "/d.npkt.gz: skipped, the uncompressed d.npkt beside it is read"});
}

TEST_CASE("npkt directory: read_npkt_file reads a compressed capture as the capture", "[npkt]") {
  TempDir tmp;
  NpktBuilder b;
  const std::string image = b.comm(0xab, 1, 2).bytes();
  const std::string plain = b.write(tmp, "r1.npkt");
  const std::string gz = tmp.write_file("r1.npkt.gz", gzip_bytes(image));
  // gzip data under another name is read too (by its magic).
  const std::string renamed = tmp.write_file("r1.capture", gzip_bytes(image));
  auto a = read_npkt_file(plain);
  REQUIRE(a.ok());
  for (const std::string& path : {gz, renamed}) {
    INFO(path);
    auto d = read_npkt_file(path);
    REQUIRE(d.ok());
    CHECK(d->path == path);
    CHECK(d->comm.rank == 1);
    CHECK(d->records.size() == a->records.size());
    CHECK(d->warnings == a->warnings);
  }

  const std::string fake = tmp.write_file("r0.npkt.gz", image);
  auto not_gzip = read_npkt_file(fake);
  REQUIRE_FALSE(not_gzip.ok());
  CHECK(not_gzip.error().message ==
        fake + ": not a gzip file (offset 0: expected the gzip magic 1f 8b, found 4e 50)");

  // Parse errors of the decompressed bytes give offsets in them.
  const std::string cut =
      tmp.write_file("short.npkt.gz", gzip_bytes(b.comm(1, 0, 1).truncate_at(100).bytes()));
  auto d = read_npkt_file(cut);
  REQUIRE_FALSE(d.ok());
  CHECK(d.error().message == cut + ": offset 100: truncated: header says 296 bytes, file has 100");
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

TEST_CASE("npkt directory: a capture's name that cannot be read is named, not skipped in silence",
          "[npkt]") {
  TempDir tmp;
  const std::string dir = tmp.make_dir("d");
  tmp.write_file("d/npkit_0000000000000001_rank0.npkt", "bytes");
  REQUIRE(::symlink(tmp.file("d/gone").c_str(),
                    tmp.file("d/npkit_0000000000000001_rank1.npkt").c_str()) == 0);
  REQUIRE(::symlink(tmp.file("d/npkit_0000000000000001_rank2.npkt").c_str(),
                    tmp.file("d/npkit_0000000000000001_rank2.npkt").c_str()) == 0);
  tmp.make_dir("d/npkit_0000000000000001_rank3.npkt");
  auto files = find_npkt_files(dir);
  REQUIRE(files.ok());
  CHECK(files->paths == std::vector<std::string>{dir + "/npkit_0000000000000001_rank0.npkt"});
  CHECK(files->unreadable ==
        std::vector<std::string>{
            dir + "/npkit_0000000000000001_rank1.npkt: a link to nothing (dangling): its rank's "
                  "data is missing",
            dir + "/npkit_0000000000000001_rank2.npkt: a link loop: its rank's data is missing",
            dir + "/npkit_0000000000000001_rank3.npkt: not a regular file: its rank's data is "
                  "missing"});
}
