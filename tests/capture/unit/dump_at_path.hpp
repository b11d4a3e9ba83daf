// dump_at_path.hpp — the capture creates files by directory and name (recorder/new_file.hpp);
// tests that name a dump by its full path go through these.
// Contract: parent_directory() opens the directory of `path` as the capture does (REQUIRE: it
// opens); write_dump_at() writes `content` there under the path's file name and fails when the
// writer had to take another name.
#pragma once

#include <catch2/catch.hpp>
#include <filesystem>
#include <memory>
#include <string>

#include "recorder/dump_directory.hpp"
#include "recorder/dump_writer.hpp"

namespace npkit::test {

inline std::shared_ptr<const capture::DumpDirectory> parent_directory(const std::string& path) {
  std::string why_not;
  auto directory =
      capture::open_dump_directory(std::filesystem::path(path).parent_path().string(), &why_not);
  INFO(why_not);
  REQUIRE(directory != nullptr);
  return directory;
}

inline bool write_dump_at(const capture::DumpContent& content, const std::string& path,
                          std::string* error) {
  capture::WrittenDump written;
  const bool ok =
      capture::write_dump_file(content, *parent_directory(path),
                               std::filesystem::path(path).filename().string(), &written, error);
  return ok && written.path == path && written.clash.empty();
}

}  // namespace npkit::test
