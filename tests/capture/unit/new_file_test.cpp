// How the capture creates files (recorder/new_file.hpp, recorder/dump_directory.hpp): new files
// only, never through a link or over an existing entry, unpredictable temporary names, modes
// within 0755/0644 under any umask, and a warning for a directory every user can write.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "recorder/dump_directory.hpp"
#include "recorder/new_file.hpp"
#include "support/dump_bytes_reader.hpp"
#include "support/temp_dir.hpp"
#include "support/test_data.hpp"

namespace npkit::test {
namespace {

namespace fs = std::filesystem;
using capture::CreatedFile;
using capture::DumpDirectory;

std::shared_ptr<const DumpDirectory> open_directory(const std::string& path,
                                                    bool* newly_opened = nullptr) {
  std::string why_not;
  auto directory = capture::open_dump_directory(path, &why_not, newly_opened);
  INFO(why_not);
  REQUIRE(directory != nullptr);
  return directory;
}

mode_t mode_of(const std::string& path) {
  struct stat info;
  REQUIRE(::lstat(path.c_str(), &info) == 0);
  return info.st_mode & 07777;
}

void write_through(const CreatedFile& file, const std::string& bytes) {
  REQUIRE(::write(file.fd, bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size()));
  ::close(file.fd);
}

class ScopedUmask {
 public:
  explicit ScopedUmask(mode_t mask) : previous_(::umask(mask)) {}
  ~ScopedUmask() { ::umask(previous_); }

 private:
  mode_t previous_;
};

}  // namespace

TEST_CASE("new file: fresh names keep the extension and differ", "[capture]") {
  const std::string live = capture::fresh_name("npkit_00000000000000aa_rank3.live.npkt");
  CHECK(std::regex_match(live,
                         std::regex(R"(npkit_00000000000000aa_rank3\.[0-9a-f]{8}\.live\.npkt)")));
  CHECK(std::regex_match(capture::fresh_name("npkit_detached_pid7.npkt"),
                         std::regex(R"(npkit_detached_pid7\.[0-9a-f]{8}\.npkt)")));
  CHECK(std::regex_match(capture::fresh_name("trace.json"),
                         std::regex(R"(trace\.[0-9a-f]{8}\.json)")));
  CHECK(std::regex_match(capture::fresh_name("plain"), std::regex(R"(plain\.[0-9a-f]{8})")));
  CHECK(capture::fresh_name("a.npkt") != capture::fresh_name("a.npkt"));
}

TEST_CASE("new file: a free name is created as asked, mode 0644 less the umask", "[capture]") {
  TempDir dir;
  const auto directory = open_directory(dir.path());
  for (const auto& [mask, expected] :
       {std::pair<mode_t, mode_t>{0, 0644}, {022, 0644}, {077, 0600}}) {
    ScopedUmask umask(mask);
    const std::string name = "f" + std::to_string(mask) + ".npkt";
    std::string why_not;
    const CreatedFile file = capture::create_new_file(*directory, name, &why_not);
    REQUIRE(file.fd >= 0);
    CHECK(file.name == name);
    CHECK(file.clash.empty());
    write_through(file, "x");
    CHECK(mode_of(dir.file(name)) == expected);
  }
}

TEST_CASE("new file: whatever is at the name stays, and the file takes a fresh name", "[capture]") {
  TempDir dir;
  TempDir owner;
  const std::string victim = owner.write_file("victim", "precious");
  const auto directory = open_directory(dir.path());
  std::string why_not;

  SECTION("a link to another user's file") {
    fs::create_symlink(victim, dir.file("d.live.npkt"));
    const CreatedFile file = capture::create_new_file(*directory, "d.live.npkt", &why_not);
    REQUIRE(file.fd >= 0);
    write_through(file, "records");
    CHECK(std::regex_match(file.name, std::regex(R"(d\.[0-9a-f]{8}\.live\.npkt)")));
    CHECK(file.clash == dir.file("d.live.npkt") + " is already there (a symbolic link to " +
                            victim + "); writing " + dir.file(file.name) + " instead");
    CHECK(read_whole_file(victim) == "precious");
    CHECK(fs::read_symlink(dir.file("d.live.npkt")) == victim);
    CHECK(read_whole_file(dir.file(file.name)) == "records");
  }
  SECTION("a regular file, a hard link of another file") {
    fs::create_hard_link(victim, dir.file("d.npkt"));
    const CreatedFile file = capture::create_new_file(*directory, "d.npkt", &why_not);
    REQUIRE(file.fd >= 0);
    write_through(file, "records");
    CHECK_THAT(file.clash, Catch::Contains("(a regular file of 8 bytes owned by uid " +
                                           std::to_string(::getuid()) + ", with 2 hard links)"));
    CHECK(read_whole_file(victim) == "precious");
  }
  SECTION("a directory") {
    dir.make_dir("d.npkt");
    const CreatedFile file = capture::create_new_file(*directory, "d.npkt", &why_not);
    REQUIRE(file.fd >= 0);
    ::close(file.fd);
    CHECK_THAT(file.clash, Catch::Contains("d.npkt is already there (a directory)"));
    CHECK(fs::is_directory(dir.file("d.npkt")));
  }
}

TEST_CASE("new file: temporary names are hidden, unpredictable and new", "[capture]") {
  TempDir dir;
  const auto directory = open_directory(dir.path());
  std::string why_not;
  const CreatedFile first = capture::create_temporary_file(*directory, "d.npkt", &why_not);
  const CreatedFile second = capture::create_temporary_file(*directory, "d.npkt", &why_not);
  REQUIRE(first.fd >= 0);
  REQUIRE(second.fd >= 0);
  ::close(first.fd);
  ::close(second.fd);
  const std::regex hidden(R"(\.d\.npkt\.[0-9a-f]{16}\.tmp)");
  CHECK(std::regex_match(first.name, hidden));
  CHECK(std::regex_match(second.name, hidden));
  CHECK(first.name != second.name);
}

TEST_CASE("new file: publishing never replaces what is at the final name", "[capture]") {
  TempDir dir;
  TempDir owner;
  const std::string victim = owner.write_file("victim", "precious");
  const auto directory = open_directory(dir.path());
  std::string why_not;
  std::string published;
  std::string clash;

  CreatedFile first = capture::create_temporary_file(*directory, "d.npkt", &why_not);
  write_through(first, "one");
  REQUIRE(capture::publish_file(*directory, first, "d.npkt", &published, &clash, &why_not));
  CHECK(published == "d.npkt");
  CHECK(clash.empty());
  CHECK(read_whole_file(dir.file("d.npkt")) == "one");

  fs::create_symlink(victim, dir.file("e.npkt"));
  CreatedFile second = capture::create_temporary_file(*directory, "e.npkt", &why_not);
  write_through(second, "two");
  REQUIRE(capture::publish_file(*directory, second, "e.npkt", &published, &clash, &why_not));
  CHECK(std::regex_match(published, std::regex(R"(e\.[0-9a-f]{8}\.npkt)")));
  CHECK(clash == dir.file("e.npkt") + " is already there (a symbolic link to " + victim +
                     "); writing " + dir.file(published) + " instead");
  CHECK(read_whole_file(dir.file(published)) == "two");
  CHECK(read_whole_file(victim) == "precious");
  // Only the two dumps and the link: no temporary file is left.
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir.path())) {
    names.push_back(entry.path().filename().string());
  }
  std::vector<std::string> expected = {"d.npkt", "e.npkt", published};
  std::sort(names.begin(), names.end());
  std::sort(expected.begin(), expected.end());
  CHECK(names == expected);
}

TEST_CASE("new file: only the file that was created is removed", "[capture]") {
  TempDir dir;
  const auto directory = open_directory(dir.path());
  std::string why_not;
  // The descriptor stays open until the removal (the contract): the inode cannot be reused.
  const CreatedFile file = capture::create_new_file(*directory, "d.live.npkt", &why_not);
  REQUIRE(file.fd >= 0);
  // Someone replaces it (the directory is writable by others): theirs stays.
  fs::remove(dir.file("d.live.npkt"));
  dir.write_file("d.live.npkt", "theirs");
  capture::remove_created_file(*directory, file);
  ::close(file.fd);
  CHECK(read_whole_file(dir.file("d.live.npkt")) == "theirs");

  const CreatedFile own = capture::create_new_file(*directory, "own.npkt", &why_not);
  REQUIRE(own.fd >= 0);
  capture::remove_created_file(*directory, own);
  ::close(own.fd);
  CHECK_FALSE(fs::exists(dir.file("own.npkt")));
}

TEST_CASE("dump directory: created 0755 less the umask, shared, warned about when open to all",
          "[capture]") {
  TempDir dir;
  {
    ScopedUmask umask(0);
    open_directory(dir.file("wide/open"));
  }
  CHECK(mode_of(dir.file("wide")) == 0755);
  CHECK(mode_of(dir.file("wide/open")) == 0755);
  {
    ScopedUmask umask(077);
    open_directory(dir.file("private"));
  }
  CHECK(mode_of(dir.file("private")) == 0700);

  bool newly_opened = false;
  const auto first = open_directory(dir.file("private"), &newly_opened);
  CHECK_FALSE(newly_opened);  // opened above: the process shares it
  CHECK(open_directory(dir.file("private"), &newly_opened) == first);
  fs::remove(dir.file("private"));
  dir.make_dir("private");  // another directory at the same path is opened anew
  CHECK(open_directory(dir.file("private"), &newly_opened) != first);
  CHECK(newly_opened);

  for (const auto& [mode, warned] :
       {std::pair<mode_t, bool>{0777, true}, {01777, false}, {0755, false}, {0700, false}}) {
    const std::string path = dir.make_dir("mode" + std::to_string(mode));
    REQUIRE(::chmod(path.c_str(), mode) == 0);
    const auto directory = open_directory(path);
    if (warned) {
      char octal[8];
      std::snprintf(octal, sizeof(octal), "%04o", static_cast<unsigned>(mode));
      CHECK_THAT(directory->warning(),
                 Catch::StartsWith(path + " (mode " + octal +
                                   ") can be written by every user and has no sticky bit"));
    } else {
      CHECK(directory->warning().empty());
    }
  }
}

}  // namespace npkit::test

namespace npkit::test {

// The capture creates, renames and removes files only through safe_file/safe_file.cpp (shared with
// the analyzer's outputs); there every open that creates is O_EXCL | O_NOFOLLOW, and nothing is
// ever truncated.
TEST_CASE("new file: no other capture source creates, truncates, renames or removes a file",
          "[capture]") {
  const std::vector<std::string> forbidden = {"O_CREAT", "O_TRUNC",  "O_TMPFILE", "fopen(",
                                              "creat(",  "ofstream", "rename(",   "renameat",
                                              "linkat(", "unlink(",  "mkstemp",   "symlink("};
  {
    const std::string text =
        read_whole_file(require_path(source_path("src/common/safe_file/safe_file.cpp")));
    CHECK(text.find("O_TRUNC") == std::string::npos);
    size_t creates = 0;
    for (size_t at = text.find("O_CREAT"); at != std::string::npos;
         at = text.find("O_CREAT", at + 1)) {
      ++creates;
      const std::string flags = text.substr(at, text.find(')', at) - at);
      CHECK_THAT(flags, Catch::Contains("O_EXCL") && Catch::Contains("O_NOFOLLOW"));
    }
    CHECK(creates == 1);
  }
  const fs::path root = require_path(source_path("src/capture"));
  int sources = 0;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    const std::string extension = entry.path().extension().string();
    if (extension != ".cpp" && extension != ".hpp" && extension != ".cu" && extension != ".cuh") {
      continue;
    }
    ++sources;
    const std::string relative = fs::relative(entry.path(), root).string();
    std::string text = read_whole_file(entry.path().string());
    // Comments may speak of these; code may not.
    std::string code;
    for (size_t line_start = 0; line_start < text.size();) {
      const size_t end = std::min(text.find('\n', line_start), text.size());
      const std::string line = text.substr(line_start, end - line_start);
      const size_t comment = line.find("//");
      code += line.substr(0, comment) + "\n";
      line_start = end + 1;
    }
    for (const std::string& word : forbidden) {
      INFO(relative << " uses " << word);
      CHECK(code.find(word) == std::string::npos);
    }
  }
  CHECK(sources > 50);
}

}  // namespace npkit::test
