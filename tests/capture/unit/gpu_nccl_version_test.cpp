#include "gpu/nccl_version.hpp"

#include <dlfcn.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "gpu/gpu_clock.hpp"

using npkit::capture::nccl_version_containing;
using npkit::capture::nccl_version_text;

namespace {

constexpr const char* kNcclLibrary = "/usr/local/cuda/lib64/libnccl.so.2";
constexpr const char* kNcclHeader = "/usr/local/cuda/include/nccl.h";

// "major.minor.patch" from the NCCL_MAJOR/MINOR/PATCH macros of the installed nccl.h, the
// version the library next to it was built as; "" if the header is missing.
std::string header_version() {
  std::ifstream in(kNcclHeader);
  std::stringstream text;
  text << in.rdbuf();
  const std::string header = text.str();
  std::string parts[3];
  const char* names[3] = {"NCCL_MAJOR", "NCCL_MINOR", "NCCL_PATCH"};
  for (int i = 0; i < 3; ++i) {
    std::smatch match;
    const std::regex define(std::string("#define ") + names[i] + " ([0-9]+)");
    if (!std::regex_search(header, match, define)) return {};
    parts[i] = match[1];
  }
  return parts[0] + "." + parts[1] + "." + parts[2];
}

int function_outside_nccl() {
  return 7;
}

}  // namespace

// Expected values follow nccl.h's NCCL_VERSION(X, Y, Z): ((X) <= 2 && (Y) <= 8) ?
// X*1000 + Y*100 + Z : X*10000 + Y*100 + Z.
TEST_CASE("nccl version text: both encodings of NCCL_VERSION", "[gpu]") {
  CHECK(nccl_version_text(22809) == "2.28.9");
  CHECK(nccl_version_text(20900) == "2.9.0");
  CHECK(nccl_version_text(21003) == "2.10.3");
  CHECK(nccl_version_text(2804) == "2.8.4");
  CHECK(nccl_version_text(2408) == "2.4.8");
  CHECK(nccl_version_text(0) == "");
  CHECK(nccl_version_text(-22809) == "");
}

TEST_CASE("nccl version containing: the installed libnccl reports its header's version", "[gpu]") {
  void* nccl = dlopen(kNcclLibrary, RTLD_NOW | RTLD_LOCAL);
  if (nccl == nullptr) {
    WARN("skipped: " << kNcclLibrary << " not loadable: " << dlerror());
    return;
  }
  const std::string expected = header_version();
  REQUIRE(expected != "");
  void* get_version = dlsym(nccl, "ncclGetVersion");
  void* get_error_string = dlsym(nccl, "ncclGetErrorString");
  REQUIRE(get_version != nullptr);
  REQUIRE(get_error_string != nullptr);
  CHECK(nccl_version_containing(get_version) == expected);
  CHECK(nccl_version_containing(get_error_string) == expected);
  // A data address: the static text NCCL returns for ncclSuccess lives in the library itself.
  using ErrorString = const char* (*)(int result);
  const char* no_error = reinterpret_cast<ErrorString>(get_error_string)(0);
  REQUIRE(no_error != nullptr);
  CHECK(nccl_version_containing(no_error) == expected);
  // The lookup's own reference is dropped: closing ours unmaps the library again.
  REQUIRE(dlclose(nccl) == 0);
  void* still_loaded = dlopen(kNcclLibrary, RTLD_NOW | RTLD_NOLOAD);
  CHECK(still_loaded == nullptr);
  if (still_loaded != nullptr) dlclose(still_loaded);
}

TEST_CASE("nccl version containing: an address outside NCCL gives nothing", "[gpu]") {
  // With NCCL loaded too, so that a lookup that strayed into other libraries would find it.
  void* nccl = dlopen(kNcclLibrary, RTLD_NOW | RTLD_GLOBAL);
  if (nccl == nullptr) WARN("libnccl not loadable; checking without it");
  CHECK(nccl_version_containing(reinterpret_cast<const void*>(&function_outside_nccl)) == "");
  CHECK(nccl_version_containing(reinterpret_cast<const void*>(&std::strlen)) == "");
  CHECK(nccl_version_containing(nullptr) == "");
  int on_stack = 0;
  CHECK(nccl_version_containing(&on_stack) == "");
  if (nccl != nullptr) dlclose(nccl);
}
