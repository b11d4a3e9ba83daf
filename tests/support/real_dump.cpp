#include "support/real_dump.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace npkit::test {

namespace fs = std::filesystem;

std::vector<ManifestEntry> read_manifest(const std::string& set_dir) {
  std::ifstream in(fs::path(set_dir) / "MANIFEST.tsv");
  if (!in) throw std::runtime_error(set_dir + ": no MANIFEST.tsv");
  std::vector<ManifestEntry> entries;
  std::string line;
  while (std::getline(in, line)) {
    const auto tab = line.find('\t');
    if (tab == std::string::npos) continue;
    entries.push_back({line.substr(0, tab), std::stoull(line.substr(tab + 1))});
  }
  return entries;
}

std::string rebuild_from_manifest(const std::string& set_dir, const TempDir& tmp,
                                  const std::string& subdir) {
  const fs::path out = fs::path(tmp.make_dir(subdir));
  for (const auto& e : read_manifest(set_dir)) {
    const fs::path source = fs::path(set_dir) / "dump" / e.name;
    if (e.size == 0) {
      std::ofstream(out / e.name, std::ios::binary);
      continue;
    }
    if (!fs::exists(source) || fs::file_size(source) != e.size) {
      throw std::runtime_error(source.string() + ": missing or not " + std::to_string(e.size) +
                               " bytes as MANIFEST.tsv says");
    }
    fs::copy_file(source, out / e.name, fs::copy_options::overwrite_existing);
    fs::permissions(out / e.name, fs::perms::owner_write, fs::perm_options::add);
  }
  return out.string();
}

}  // namespace npkit::test
