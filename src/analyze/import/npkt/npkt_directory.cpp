#include "import/npkt/npkt_directory.hpp"

#include <map>

#include "npkit/format.hpp"
#include "util/file_io.hpp"

namespace npkit {
namespace {

constexpr std::string_view kGz = ".gz";

// The name without its ".gz" (the name itself when it has none).
std::string_view uncompressed_name(std::string_view name) {
  return io::has_extension(name, kGz) ? name.substr(0, name.size() - kGz.size()) : name;
}

// Which forms of one capture the directory holds.
struct Forms {
  bool plain = false;
  bool compressed = false;
};

}  // namespace

bool is_npkt_file_name(std::string_view name) {
  return io::has_extension(uncompressed_name(name), format::kFileExtension);
}

Result<NpktFiles> find_npkt_files(const std::string& dir) {
  NPKIT_ASSIGN(auto entries, io::list_directory(dir));
  const std::string_view extension = format::kFileExtension;
  const std::string_view live = format::kLiveFileExtension;
  std::map<std::string, Forms, std::less<>> captures;  // by the name without ".gz"
  for (const auto& e : entries) {
    if (!e.regular || !is_npkt_file_name(e.name)) continue;
    Forms& forms = captures[std::string(uncompressed_name(e.name))];
    (io::has_extension(e.name, kGz) ? forms.compressed : forms.plain) = true;
  }
  NpktFiles files;
  for (const auto& [name, forms] : captures) {
    // A live file whose dump was written too (the process ended in between) is superseded.
    if (io::has_extension(name, live) &&
        captures.count(name.substr(0, name.size() - live.size()) + std::string(extension)) > 0) {
      continue;
    }
    files.paths.push_back(io::join_path(dir, forms.plain ? name : name + std::string(kGz)));
    if (forms.plain && forms.compressed) {
      files.skipped_copies.push_back(io::join_path(dir, name + std::string(kGz)) +
                                     ": skipped, the uncompressed " + name + " beside it is read");
    }
  }
  if (files.paths.empty()) return Error{"no .npkt files in " + dir};
  return files;
}

}  // namespace npkit
