// Trust in the dump directory (recorder/dump_directory.hpp): a warning when another user owns it
// or may write into it without the sticky bit; one opening per process, which a path swapped
// for a link does not redirect; over-long paths refused before anything is created.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <climits>
#include <cstdio>
#include <filesystem>
#include <string>

#include "recorder/dump_directory.hpp"
#include "recorder/new_file.hpp"
#include "support/temp_dir.hpp"

namespace npkit::test {
namespace {

namespace fs = std::filesystem;

std::shared_ptr<const capture::DumpDirectory> open_directory(const std::string& path) {
  std::string why_not;
  auto directory = capture::open_dump_directory(path, &why_not);
  INFO(why_not);
  REQUIRE(directory != nullptr);
  return directory;
}

TEST_CASE("dump directory: a warning when its group may write into it without the sticky bit",
          "[capture]") {
  TempDir dir;
  for (const auto& [mode, warned] :
       {std::pair<mode_t, bool>{0775, true}, {0770, true}, {01775, false}, {0755, false}}) {
    const std::string path = dir.make_dir("mode" + std::to_string(mode));
    REQUIRE(::chmod(path.c_str(), mode) == 0);
    const std::string warning = open_directory(path)->warning();
    INFO(warning);
    if (warned) {
      char octal[8];
      std::snprintf(octal, sizeof(octal), "%04o", static_cast<unsigned>(mode));
      CHECK_THAT(warning, Catch::StartsWith(path + " (mode " + octal +
                                            ") can be written by its group (gid ") &&
                              Catch::Contains("and has no sticky bit: another user can rename or "
                                              "remove the dumps there"));
    } else {
      CHECK(warning.empty());
    }
  }
}

TEST_CASE("dump directory: a warning when another user owns it", "[capture]") {
  TempDir dir;
  const std::string path = dir.make_dir("theirs");
  const uid_t other = ::geteuid() + 4242;
  if (::chown(path.c_str(), other, static_cast<gid_t>(-1)) != 0) {
    WARN("cannot chown (needs root): not tested here");
    return;
  }
  REQUIRE(::chmod(path.c_str(), 0777 | S_ISVTX) == 0);  // writable by this process, sticky
  const std::string warning = open_directory(path)->warning();
  CHECK_THAT(warning,
             Catch::StartsWith(path + " (mode 1777) is owned by uid " + std::to_string(other) +
                               ", not by this process's user (uid " + std::to_string(::geteuid()) +
                               "): its owner can rename or "
                               "remove the dumps there"));
}

TEST_CASE(
    "dump directory: opened once per process, so a path swapped for a link does not redirect it",
    "[capture]") {
  TempDir dir;
  const std::string path = dir.make_dir("dumps");
  const auto first = open_directory(path);
  // Someone renames the directory away and plants a link to theirs at its path.
  const std::string target = dir.make_dir("target");
  fs::rename(path, dir.file("moved"));
  fs::create_directory_symlink(target, path);
  const auto again = open_directory(path);
  CHECK(again == first);
  std::string why_not;
  const capture::CreatedFile file = capture::create_new_file(*again, "a.npkt", &why_not);
  INFO(why_not);
  REQUIRE(file.fd >= 0);
  ::close(file.fd);
  CHECK(fs::exists(dir.file("moved/a.npkt")));
  CHECK(fs::is_empty(target));
}

TEST_CASE("dump directory: an over-long path is refused before anything is created", "[capture]") {
  TempDir dir;
  std::string deep = dir.path();
  while (deep.size() < 10'000) deep += "/level";
  std::string why_not;
  CHECK(capture::open_dump_directory(deep, &why_not) == nullptr);
  CHECK_THAT(why_not, Catch::Contains("bytes long; the limit is " + std::to_string(PATH_MAX - 1) +
                                      " (PATH_MAX)"));
  CHECK(fs::is_empty(dir.path()));

  const std::string wide = dir.path() + "/a/" + std::string(NAME_MAX + 1, 'x') + "/b";
  CHECK(capture::open_dump_directory(wide, &why_not) == nullptr);
  CHECK_THAT(why_not, Catch::Contains("a component is " + std::to_string(NAME_MAX + 1) +
                                      " bytes long; the limit is " + std::to_string(NAME_MAX) +
                                      " (NAME_MAX)"));
  CHECK(fs::is_empty(dir.path()));
}

}  // namespace
}  // namespace npkit::test
