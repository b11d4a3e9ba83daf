#include "support/temp_dir.hpp"

#include <stdlib.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <vector>

namespace npkit::test {

TempDir::TempDir() {
  const char* base = std::getenv("TMPDIR");
  std::string templ = (base != nullptr && *base != '\0') ? base : "/tmp";
  templ += "/npkit-test-XXXXXX";
  std::vector<char> buf(templ.begin(), templ.end());
  buf.push_back('\0');
  if (::mkdtemp(buf.data()) == nullptr) {
    throw std::runtime_error("mkdtemp " + templ + ": " + std::strerror(errno));
  }
  path_ = buf.data();
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::string TempDir::file(std::string_view relative) const {
  return (std::filesystem::path(path_) / relative).string();
}

std::string TempDir::write_file(std::string_view relative, std::string_view bytes) const {
  const std::filesystem::path p = file(relative);
  std::filesystem::create_directories(p.parent_path());
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + p.string());
  return p.string();
}

std::string TempDir::make_dir(std::string_view relative) const {
  const std::string p = file(relative);
  std::filesystem::create_directories(p);
  return p;
}

}  // namespace npkit::test
