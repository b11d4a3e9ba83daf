// list_directory: names sorted, types and sizes of every entry (stated on several threads in
// directories of thousands of files); links are not followed but marked untrusted, as are files
// of another owner; on a host that refuses to start threads the calling thread stats them all,
// with the same result.
#include "util/file_io.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <string>
#include <vector>

#include "support/temp_dir.hpp"
#include "support/without_threads.hpp"

using npkit::io::DirEntry;
using npkit::io::list_directory;
using npkit::test::TempDir;

namespace {

constexpr int kFiles = 1500;  // enough for several stat threads (256 entries each)

std::string file_name(int i) {
  char name[32];
  std::snprintf(name, sizeof name, "f%05d", i);
  return name;
}

// kFiles files of i % 7 bytes, a directory, a link to f00003 and a dangling link.
void fill(const TempDir& tmp) {
  for (int i = 0; i < kFiles; ++i) tmp.write_file(file_name(i), std::string(i % 7, 'x'));
  tmp.make_dir("sub");
  REQUIRE(::symlink(tmp.file(file_name(3)).c_str(), tmp.file("link").c_str()) == 0);
  REQUIRE(::symlink(tmp.file("nowhere").c_str(), tmp.file("dangling").c_str()) == 0);
}

void check_sized(const std::vector<DirEntry>& entries) {
  REQUIRE(entries.size() == kFiles + 3);
  CHECK(entries[0].name == "dangling");
  CHECK_FALSE(entries[0].regular);
  CHECK(entries[0].untrusted == "a symbolic link");
  for (int i = 0; i < kFiles; ++i) {
    const DirEntry& e = entries[1 + i];
    REQUIRE(e.name == file_name(i));
    CHECK(e.regular);
    CHECK(e.size == static_cast<std::uint64_t>(i % 7));
  }
  CHECK(entries[kFiles + 1].name == "link");
  CHECK_FALSE(entries[kFiles + 1].regular);  // never followed: a reader opens no link
  CHECK(entries[kFiles + 1].untrusted == "a symbolic link");
  CHECK(entries[kFiles + 2].name == "sub");
  CHECK_FALSE(entries[kFiles + 2].regular);
}

}  // namespace

TEST_CASE("list_directory: every entry's type and size, sorted by name", "[util]") {
  TempDir tmp;
  fill(tmp);
  auto entries = list_directory(tmp.path());
  REQUIRE(entries.ok());
  check_sized(*entries);
}

TEST_CASE("list_directory: a file of another owner than the directory's and yours is untrusted",
          "[util]") {
  if (::geteuid() != 0) {
    WARN("not run: needs root to give a file to another user (chown); CI runs as root");
    return;
  }
  TempDir tmp;
  tmp.write_file("mine", "x");
  tmp.write_file("theirs", "xy");
  REQUIRE(::chown(tmp.file("theirs").c_str(), 4242, 4242) == 0);
  auto entries = list_directory(tmp.path());
  REQUIRE(entries.ok());
  REQUIRE(entries->size() == 2);
  CHECK((*entries)[0].regular);
  CHECK((*entries)[0].untrusted.empty());
  CHECK_FALSE((*entries)[1].regular);
  CHECK((*entries)[1].size == 2);
  CHECK((*entries)[1].untrusted ==
        "owned by uid 4242, not by the directory's owner (uid 0) or you (uid 0)");
}

TEST_CASE("list_directory names a directory it cannot open", "[util]") {
  TempDir tmp;
  auto listed = list_directory(tmp.file("absent"));
  REQUIRE_FALSE(listed.ok());
  CHECK(listed.error().message.find(tmp.file("absent")) != std::string::npos);
}

TEST_CASE("list_directory: a host that refuses threads gets the same listing", "[util]") {
  TempDir tmp;
  fill(tmp);
  REQUIRE(::chmod(tmp.path().c_str(), 0755) == 0);  // the child runs as nobody
  auto threaded = list_directory(tmp.path());
  REQUIRE(threaded.ok());
  check_sized(*threaded);
  const std::string failed = npkit::test::run_without_threads([&]() -> std::string {
    auto alone = list_directory(tmp.path());
    if (!alone.ok()) return alone.error().message;
    if (alone->size() != threaded->size()) return "another number of entries";
    for (std::size_t i = 0; i < alone->size(); ++i) {
      const DirEntry& a = (*alone)[i];
      const DirEntry& b = (*threaded)[i];
      if (a.name != b.name || a.regular != b.regular || a.size != b.size) return "entry " + a.name;
    }
    return "";
  });
  CHECK(failed == "");
}

TEST_CASE("has_extension: the name ends with it and has something before it", "[util]") {
  CHECK(npkit::io::has_extension("rank0.npkt", ".npkt"));
  CHECK(npkit::io::has_extension("dir/trace.json", ".json"));
  CHECK_FALSE(npkit::io::has_extension(".json", ".json"));
  CHECK_FALSE(npkit::io::has_extension("trace.json.gz", ".json"));
  CHECK_FALSE(npkit::io::has_extension("json", ".json"));
  CHECK_FALSE(npkit::io::has_extension("", ".log"));
}
