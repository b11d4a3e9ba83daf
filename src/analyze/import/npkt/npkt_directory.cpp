#include "import/npkt/npkt_directory.hpp"

#include <set>
#include <string_view>

#include "npkit/format.hpp"
#include "util/file_io.hpp"

namespace npkit::ingest {

Result<std::vector<std::string>> find_npkt_files(const std::string& dir) {
  NPKIT_ASSIGN(auto entries, io::list_directory(dir, io::EntrySizes::kSkip));
  const std::string_view extension = format::kFileExtension;
  const std::string_view live = format::kLiveFileExtension;
  auto ends_with = [](std::string_view name, std::string_view tail) {
    return name.size() > tail.size() && name.substr(name.size() - tail.size()) == tail;
  };
  std::set<std::string> names;
  for (const auto& e : entries) {
    if (e.regular && ends_with(e.name, extension)) names.insert(e.name);
  }
  std::vector<std::string> paths;
  for (const std::string& name : names) {
    // A live file whose dump was written too (the process ended in between) is superseded.
    if (ends_with(name, live) &&
        names.count(name.substr(0, name.size() - live.size()) + std::string(extension)) > 0) {
      continue;
    }
    paths.push_back(io::join_path(dir, name));
  }
  if (paths.empty()) return Error{"no .npkt files in " + dir};
  return paths;
}

}  // namespace npkit::ingest
