// real_dump.hpp — the real NPKit data sets (tests/data/npkit-real, samples/npkit-h200), rebuilt
// as complete directories.
// Contract: a set directory holds dump/ (the non-empty files) and MANIFEST.tsv (every file of
// the original directory with its size). rebuild_from_manifest copies dump/ into `tmp` and
// creates the empty files the manifest lists, so the test sees the directory NPKit wrote. It
// throws std::runtime_error if the manifest and dump/ disagree.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "support/temp_dir.hpp"

namespace npkit::test {

struct ManifestEntry {
  std::string name;
  std::uint64_t size = 0;
};

std::vector<ManifestEntry> read_manifest(const std::string& set_dir);

// Returns the rebuilt directory (tmp/<subdir>).
std::string rebuild_from_manifest(const std::string& set_dir, const TempDir& tmp,
                                  const std::string& subdir = "dump");

}  // namespace npkit::test
