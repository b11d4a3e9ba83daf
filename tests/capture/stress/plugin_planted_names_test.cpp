// A dump directory that other users can write into: before the job starts, something is planted
// under a name the capture will use — a symbolic link to a file the job's user owns, a regular
// file, a directory — at the live file's name, at the dump's name, and at the temporary name the
// dump writer once used ("<dump>.tmp.<pid>", planted by the rank itself before finalize). Each
// rank runs in its own process, as in a real job. Whatever was planted, the planted entry and the
// file a link points to stay byte for byte as they were, the job ends normally, its records land
// in a file the plugin created, and a warning names what was found where. A directory that every
// user can write, without the sticky bit, draws one warning at init.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "capture/plugin/captured_log.hpp"
#include "capture/plugin/comm_driver.hpp"
#include "capture/plugin/dump_files.hpp"
#include "capture/plugin/plugin_env.hpp"
#include "capture/plugin/plugin_library.hpp"
#include "capture/plugin/scoped_env.hpp"
#include "capture/stress/child_process.hpp"
#include "support/dump_bytes_reader.hpp"

namespace npkit::test {
namespace {

namespace fs = std::filesystem;

constexpr int kCollectives = 3;
const std::string kVictimBytes = "the job owner's file: must never change\n";

enum class Planted { kLink, kDanglingLink, kFile, kDirectory };
enum class Where { kLiveName, kDumpName, kOldTemporaryName };

const char* planted_name(Planted planted) {
  switch (planted) {
    case Planted::kLink:
      return "a link to the owner's file";
    case Planted::kDanglingLink:
      return "a dangling link";
    case Planted::kFile:
      return "a regular file";
    case Planted::kDirectory:
      return "a directory";
  }
  return "";
}

const char* where_name(Where where) {
  switch (where) {
    case Where::kLiveName:
      return "the live file's name";
    case Where::kDumpName:
      return "the dump's name";
    case Where::kOldTemporaryName:
      return "the old temporary name";
  }
  return "";
}

// What the message of create_new_file/publish_file says was found (recorder/new_file.cpp).
std::string found_text(Planted planted, const std::string& victim, const std::string& target) {
  switch (planted) {
    case Planted::kLink:
      return "a symbolic link to " + victim;
    case Planted::kDanglingLink:
      return "a symbolic link to " + target;
    case Planted::kFile:
      return "a regular file of " + std::to_string(kVictimBytes.size()) + " bytes";
    case Planted::kDirectory:
      return "a directory";
  }
  return "";
}

void plant(Planted planted, const std::string& path, const std::string& victim,
           const std::string& dangling_target) {
  switch (planted) {
    case Planted::kLink:
      fs::create_symlink(victim, path);
      return;
    case Planted::kDanglingLink:
      fs::create_symlink(dangling_target, path);
      return;
    case Planted::kFile: {
      std::FILE* file = std::fopen(path.c_str(), "wb");
      std::fwrite(kVictimBytes.data(), 1, kVictimBytes.size(), file);
      std::fclose(file);
      return;
    }
    case Planted::kDirectory:
      fs::create_directory(path);
      return;
  }
}

// The planted entry, as it must still be after the job.
void check_planted_unchanged(Planted planted, const std::string& path, const std::string& victim,
                             const std::string& dangling_target) {
  const fs::file_status status = fs::symlink_status(path);
  switch (planted) {
    case Planted::kLink:
      CHECK(fs::is_symlink(status));
      CHECK(fs::read_symlink(path) == victim);
      break;
    case Planted::kDanglingLink:
      CHECK(fs::is_symlink(status));
      CHECK(fs::read_symlink(path) == dangling_target);
      CHECK_FALSE(fs::exists(dangling_target));  // nothing was created through it
      break;
    case Planted::kFile:
      CHECK(fs::is_regular_file(status));
      CHECK(read_whole_file(path) == kVictimBytes);
      break;
    case Planted::kDirectory:
      CHECK(fs::is_directory(status));
      CHECK(entries_in(path).empty());
      break;
  }
}

// One rank in a child process: init, kCollectives AllReduce Coll events, finalize. The plugin's
// warnings come back as "WARN <text>" notes. With kOldTemporaryName, the rank plants at
// "<dump>.tmp.<its pid>" just before finalize.
ChildOutcome run_rank(const PluginLibrary& lib, uint64_t hash, const std::string& dump_path,
                      Planted planted, Where where, const std::string& victim,
                      const std::string& dangling_target) {
  return run_in_child([&](ChildReport& report) {
    LogCapture log;
    void* context = nullptr;
    int mask = 0;
    if (lib.v5->init(&context, hash, &mask, "planted", 1, 1, 0, capture_log) != abi::kSuccess ||
        context == nullptr) {
      report.fail("init gave no context");
      return;
    }
    for (int seq = 0; seq < kCollectives; ++seq) {
      abi::EventDescrV5 descr = coll_descr(nullptr, 0, static_cast<uint64_t>(seq), "AllReduce",
                                           1024, 0, "ncclFloat32", 1, 8, "RING", "SIMPLE", nullptr);
      void* handle = nullptr;
      lib.v5->startEvent(context, &handle, &descr);
      lib.v5->stopEvent(handle);
    }
    if (where == Where::kOldTemporaryName) {
      plant(planted, dump_path + ".tmp." + std::to_string(::getpid()), victim, dangling_target);
    }
    if (lib.v5->finalize(context) != abi::kSuccess) report.fail("finalize failed");
    for (const LoggedLine& line : log.lines()) {
      if (line.level == abi::kLogWarn) report.note("WARN " + line.text);
    }
  });
}

std::vector<std::string> warnings_of(const ChildOutcome& child) {
  std::vector<std::string> warnings;
  for (const std::string& line : child.lines) {
    if (line.find("WARN ") != std::string::npos) warnings.push_back(line);
  }
  return warnings;
}

// The .npkt files in `dir` that are regular files (not links) other than `except`.
std::vector<std::string> dumps_in(const std::string& dir, const std::string& except) {
  std::vector<std::string> dumps;
  for (const std::string& name : entries_in(dir)) {
    const std::string path = dir + "/" + name;
    if (name == except || !fs::is_regular_file(fs::symlink_status(path))) continue;
    if (name.size() > 5 && name.compare(name.size() - 5, 5, ".npkt") == 0) dumps.push_back(path);
  }
  return dumps;
}

}  // namespace

TEST_CASE("plugin stress: names planted in the dump directory are never followed or replaced",
          "[plugin][stress]") {
  const PluginLibrary& lib = require_plugin();
  uint64_t hash = 0x91a47ed000000000ull;
  for (const Where where : {Where::kLiveName, Where::kDumpName, Where::kOldTemporaryName}) {
    for (const Planted planted :
         {Planted::kLink, Planted::kDanglingLink, Planted::kFile, Planted::kDirectory}) {
      DYNAMIC_SECTION(planted_name(planted) << " at " << where_name(where)) {
        PluginEnv env("coll");
        TempDir owner;  // the job owner's files, outside the dump directory
        const std::string victim = owner.write_file("precious.bin", kVictimBytes);
        const std::string dangling_target = owner.file("created-through-a-link");
        ++hash;
        const std::string dump_path = env.file(dump_file_name(hash, 0));
        const std::string live_path = env.file(live_file_name(hash, 0));
        const std::string planted_path = where == Where::kLiveName ? live_path : dump_path;
        if (where != Where::kOldTemporaryName) {
          plant(planted, planted_path, victim, dangling_target);
        }

        const ChildOutcome child =
            run_rank(lib, hash, dump_path, planted, where, victim, dangling_target);
        INFO(child.text());
        CHECK(child.failures().empty());
        CHECK(child.exited);
        CHECK(child.exit_code == 0);

        // The owner's file and whatever was planted are as they were.
        CHECK(read_whole_file(victim) == kVictimBytes);
        CHECK(entries_in(owner.path()) == std::vector<std::string>{"precious.bin"});
        const std::string tmp_prefix = dump_file_name(hash, 0) + ".tmp.";
        std::string old_temporary;
        for (const std::string& name : entries_in(env.dir.path())) {
          if (name.rfind(tmp_prefix, 0) == 0) old_temporary = env.file(name);
        }
        const std::string planted_at =
            where == Where::kOldTemporaryName ? old_temporary : planted_path;
        REQUIRE_FALSE(planted_at.empty());
        check_planted_unchanged(planted, planted_at, victim, dangling_target);

        // The records are in one file the plugin created; no live or temporary file is left.
        const std::vector<std::string> dumps =
            dumps_in(env.dir.path(), fs::path(planted_at).filename());
        REQUIRE(dumps.size() == 1);
        const NpktDump dump = read_dump(dumps[0]);
        CHECK_FALSE(dump.is_live());
        CHECK(dump.comm.comm_hash == hash);
        CHECK(dump.records.size() == 2 * kCollectives);  // a Coll start and stop each
        CHECK(entries_in(env.dir.path()).size() == 2);   // the dump and what was planted

        // One warning names the path and what was there, and where the records went instead.
        const std::vector<std::string> warnings = warnings_of(child);
        if (where == Where::kOldTemporaryName) {
          CHECK(dumps[0] == dump_path);  // the old temporary name is not used any more
          CHECK(warnings.empty());
        } else {
          REQUIRE(warnings.size() == 1);
          CHECK_THAT(warnings[0], Catch::Contains(planted_path + " is already there (" +
                                                  found_text(planted, victim, dangling_target)));
          CHECK_THAT(warnings[0], Catch::Contains("writing " + env.dir.path() + "/npkit_"));
          if (where == Where::kDumpName) {
            CHECK_THAT(warnings[0], Catch::Contains("writing " + dumps[0] + " instead"));
          }
        }
      }
    }
  }
}

TEST_CASE("plugin stress: a dump directory every user can write draws a warning at init",
          "[plugin][stress]") {
  const PluginLibrary& lib = require_plugin();
  for (const mode_t mode : {mode_t{0777}, mode_t{01777}, mode_t{0755}}) {
    DYNAMIC_SECTION("mode " << std::oct << mode) {
      TempDir dir;
      const std::string dumps = dir.make_dir("shared");
      REQUIRE(::chmod(dumps.c_str(), mode) == 0);
      ScopedEnv dump_dir("NPKIT_DUMP_DIR", dumps);
      const uint64_t hash = 0x5ca7ed0000000000ull + mode;
      const ChildOutcome child = run_rank(lib, hash, dumps + "/" + dump_file_name(hash, 0),
                                          Planted::kFile, Where::kLiveName, "", "");
      INFO(child.text());
      CHECK(child.exit_code == 0);
      const std::vector<std::string> warnings = warnings_of(child);
      if (mode == 0777) {
        REQUIRE(warnings.size() == 1);
        CHECK_THAT(warnings[0], Catch::Contains(dumps + " (mode 0777) can be written by every user "
                                                        "and has no sticky bit"));
      } else {
        CHECK(warnings.empty());
      }
      CHECK(dumps_in(dumps, "").size() == 1);
    }
  }
}

}  // namespace npkit::test
