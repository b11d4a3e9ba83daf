// Hostile neighbours: files the user did not name, planted where the analyzer looks. An ENV.txt of
// another user in the input's parent directory is not merged (a note names it and why); in a dump
// directory, symbolic links and files of another owner are not read (a warning each); two files
// claiming one rank are an error naming both; `hang` on a killed job answers for the readable
// files when one is corrupt; an input that is a link loop or a dangling link is named so; and a
// rank whose file is gone is warned about in every command and named by `diff`. Cases that give a
// file to another user (chown to uid 4242) need root, as CI runs; elsewhere they say so and stop.
//
// The dump: the golden two-rank capture tests/golden/cases/npkt_ring/ (ranks 0 and 1 of
// communicator 00000000c0ffee01, "train"), copied into tmp/run/dump.
#include <unistd.h>

#include <filesystem>
#include <string>

#include <catch2/catch.hpp>

#include "hostile/hostile_run.hpp"
#include "support/temp_dir.hpp"

namespace npkit::test {
namespace {

namespace fs = std::filesystem;

const std::string kRank0 = "npkit_00000000c0ffee01_rank0.npkt";
const std::string kRank1 = "npkit_00000000c0ffee01_rank1.npkt";
constexpr uid_t kOtherUser = 4242;

std::string copy_golden(const TempDir& tmp) {
  const fs::path source = fs::path(NPKIT_SOURCE_DIR) / "tests/golden/cases/npkt_ring/dump";
  tmp.make_dir("run");
  const std::string dir = tmp.make_dir("run/dump");
  for (const std::string& name : {kRank0, kRank1})
    fs::copy_file(source / name, fs::path(dir) / name);
  return dir;
}

bool can_give_away() {
  if (::geteuid() == 0) return true;
  WARN("not run: needs root to give a file to another user (chown); CI runs as root");
  return false;
}

TEST_CASE("hostile trust: an ENV.txt of another user in the parent directory is not merged",
          "[hostile]") {
  if (!can_give_away()) return;
  TempDir tmp;
  copy_golden(tmp);
  tmp.write_file("run/ENV.txt", "NCCL_ALGO=Tree\n");
  // Owned by the invoking user: read, and info names it.
  const CliRun mine = run_hostile(tmp, {"info", "$DIR/run/dump"});
  CHECK(mine.exit_code == 0);
  CHECK_THAT(mine.out,
             Catch::Contains("environment   $DIR/run/ENV.txt (1 NCCL_*/NPKIT_* variable(s))"));
  REQUIRE(::chown(tmp.file("run/ENV.txt").c_str(), kOtherUser, kOtherUser) == 0);
  const CliRun theirs = run_hostile(tmp, {"info", "$DIR/run/dump"});
  CHECK(theirs.exit_code == 0);
  CHECK(theirs.out.find("ENV.txt") == std::string::npos);
  CHECK_THAT(theirs.err, Catch::Contains("1 × environment file ignored: $DIR/run/ENV.txt: not "
                                         "read: owned by uid 4242, neither the invoking user "
                                         "(uid 0) nor the owner of $DIR/run/dump (uid 0) (--env "
                                         "FILE reads a file you trust)"));
  // Named with --env, the user trusts it: read.
  const CliRun named = run_hostile(tmp, {"info", "$DIR/run/dump", "--env", "$DIR/run/ENV.txt"});
  CHECK(named.exit_code == 0);
  CHECK_THAT(named.out,
             Catch::Contains("environment   $DIR/run/ENV.txt (1 NCCL_*/NPKIT_* variable(s))"));
}

TEST_CASE("hostile trust: a planted link in the dump directory is not followed", "[hostile]") {
  TempDir tmp;
  const std::string dir = copy_golden(tmp);
  // Sorts before the real rank 0 and points at a copy of it elsewhere.
  fs::copy_file(dir + "/" + kRank0, tmp.file("elsewhere.npkt"));
  fs::create_symlink(tmp.file("elsewhere.npkt"), dir + "/npkit_00000000c0ffee01_rank0.a.npkt");
  const CliRun run = run_hostile(tmp, {"report", "$DIR/run/dump"});
  CHECK(run.exit_code == 0);
  CHECK(run.err ==
        "npkit-analyze: 1 warning(s) in 1 categories:\n  1 × untrusted file skipped: "
        "$DIR/run/dump/npkit_00000000c0ffee01_rank0.a.npkt: a symbolic link; not read\n");
  CHECK_THAT(run.out, Catch::Contains("comm 00000000c0ffee01 (train), 2 of 2 rank(s)\n"));
}

TEST_CASE("hostile trust: a file of another owner in the dump directory is not read", "[hostile]") {
  if (!can_give_away()) return;
  TempDir tmp;
  const std::string dir = copy_golden(tmp);
  const std::string planted = dir + "/npkit_00000000c0ffee01_rank0.a.npkt";  // sorts first
  fs::copy_file(dir + "/" + kRank0, planted);
  REQUIRE(::chown(planted.c_str(), kOtherUser, kOtherUser) == 0);
  const CliRun run = run_hostile(tmp, {"report", "$DIR/run/dump"});
  CHECK(run.exit_code == 0);
  CHECK(run.err ==
        "npkit-analyze: 1 warning(s) in 1 categories:\n  1 × untrusted file skipped: "
        "$DIR/run/dump/npkit_00000000c0ffee01_rank0.a.npkt: owned by uid 4242, not "
        "by the directory's owner (uid 0) or you (uid 0); not read\n");
  CHECK_THAT(run.out, Catch::Contains("comm 00000000c0ffee01 (train), 2 of 2 rank(s)\n"));
}

TEST_CASE("hostile trust: two files of one rank are an error naming both", "[hostile]") {
  TempDir tmp;
  const std::string dir = copy_golden(tmp);
  // A crafted file whose name sorts before the real one, claiming the same rank.
  fs::copy_file(dir + "/" + kRank1, dir + "/npkit_00000000c0ffee01_rank0_.npkt");
  const CliRun run = run_hostile(tmp, {"report", "$DIR/run/dump"});
  CHECK(run.exit_code == 2);
  CHECK(run.err ==
        "npkit-analyze: error: $DIR/run/dump/npkit_00000000c0ffee01_rank0_.npkt and "
        "$DIR/run/dump/" +
            kRank1 +
            " both hold rank 1 of communicator "
            "00000000c0ffee01: expected one file per rank (a copy, or a file planted in a "
            "shared directory?); move one away, or give one file as the input\n");
}

TEST_CASE("hostile trust: hang answers for the readable files when one is corrupt", "[hostile]") {
  TempDir tmp;
  const std::string dir = copy_golden(tmp);
  fs::resize_file(dir + "/" + kRank1, 100);  // a killed job's cut file
  const CliRun hang = run_hostile(tmp, {"hang", "$DIR/run/dump"});
  CHECK(hang.exit_code != 2);
  CHECK_THAT(hang.err, Catch::Contains("unreadable file skipped (--skip-bad): $DIR/run/dump/" +
                                       kRank1 + ": offset 100: truncated"));
  // Other commands keep the error: their numbers would leave the rank out.
  const CliRun report = run_hostile(tmp, {"report", "$DIR/run/dump"});
  CHECK(report.exit_code == 2);
}

}  // namespace
TEST_CASE("hostile trust: an input that is a link loop or a dangling link is named as such",
          "[hostile]") {
  TempDir tmp;
  fs::create_symlink(tmp.file("loop-b"), tmp.file("loop-a"));
  fs::create_symlink(tmp.file("loop-a"), tmp.file("loop-b"));
  fs::create_symlink(tmp.file("gone.npkt"), tmp.file("dangling.npkt"));
  const CliRun loop = run_hostile(tmp, {"info", "$DIR/loop-a"});
  CHECK(loop.exit_code == 2);
  CHECK(loop.err ==
        "npkit-analyze: error: $DIR/loop-a: a symbolic link loop (too many levels of links)\n");
  const CliRun dangling = run_hostile(tmp, {"report", "$DIR/dangling.npkt"});
  CHECK(dangling.exit_code == 2);
  CHECK(dangling.err ==
        "npkit-analyze: error: $DIR/dangling.npkt: a dangling symbolic link (to $DIR/gone.npkt)\n");
}

TEST_CASE(
    "hostile trust: a rank whose file is gone is warned about, and diff names it on each side",
    "[hostile]") {
  TempDir tmp;
  const std::string dir = copy_golden(tmp);
  const std::string full = tmp.make_dir("full");
  for (const std::string& name : {kRank0, kRank1})
    fs::copy_file(dir + "/" + name, full + "/" + name);
  fs::remove(dir + "/" + kRank1);  // a node lost its files
  const std::string warning =
      "ranks without data: $DIR/run/dump: comm 00000000c0ffee01: 1 of 2 ranks have data; none "
      "from rank(s) 1 (no readable file): what those ranks did is unknown\n";
  const CliRun summary = run_hostile(tmp, {"summarize", "$DIR/run/dump", "-o", "$DIR/s.json"});
  CHECK(summary.exit_code == 0);
  CHECK_THAT(summary.err, Catch::Contains(warning));
  // --ranks leaves rank 1 out on purpose: nothing to warn about.
  const CliRun selected = run_hostile(tmp, {"summarize", "$DIR/full", "--ranks", "0"});
  CHECK_THAT(selected.err, !Catch::Contains("ranks without data"));
  // Both sides: the candidate lacks rank 1; the baseline has every rank.
  const CliRun diff = run_hostile(tmp, {"diff", "$DIR/full", "$DIR/run/dump", "-q"});
  CHECK_THAT(diff.out, Catch::Contains("Ranks with data:\n  candidate: comm 00000000c0ffee01: 1 "
                                       "of 2 ranks have data (none from rank(s) 1)\n"));
  CHECK_THAT(diff.out, !Catch::Contains("baseline: comm"));
}

}  // namespace npkit::test
