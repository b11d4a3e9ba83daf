// temp_dir.hpp — a scratch directory for one test.
// Contract: the constructor creates a fresh directory with mkdtemp under $TMPDIR (or /tmp) and
// throws std::runtime_error if it cannot; the destructor removes it recursively and never
// throws. write_file/make_dir take paths relative to the directory, create missing parent
// directories, and return the absolute path they made.
#pragma once

#include <string>
#include <string_view>

namespace npkit::test {

class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  // `relative` joined to path(); nothing is created.
  std::string file(std::string_view relative) const;
  // Writes `bytes` verbatim (binary), replacing any existing file.
  std::string write_file(std::string_view relative, std::string_view bytes) const;
  std::string make_dir(std::string_view relative) const;

 private:
  std::string path_;
};

}  // namespace npkit::test
