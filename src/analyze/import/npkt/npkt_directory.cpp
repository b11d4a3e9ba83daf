#include "import/npkt/npkt_directory.hpp"

#include <string_view>

#include "npkit/format.hpp"
#include "util/file_io.hpp"

namespace npkit::ingest {

Result<std::vector<std::string>> find_npkt_files(const std::string& dir) {
  auto entries = io::list_directory(dir);
  if (!entries) return entries.error();
  const std::string_view extension = format::kFileExtension;
  std::vector<std::string> paths;
  for (const auto& e : *entries) {
    if (!e.regular || e.name.size() <= extension.size()) continue;
    if (std::string_view(e.name).substr(e.name.size() - extension.size()) != extension) continue;
    paths.push_back(io::join_path(dir, e.name));
  }
  if (paths.empty()) return Error{"no .npkt files in " + dir};
  return paths;
}

}  // namespace npkit::ingest
