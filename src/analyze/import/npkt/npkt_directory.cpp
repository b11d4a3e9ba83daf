#include "import/npkt/npkt_directory.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
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

// Why an entry named like a capture is not read ("" when it is a readable regular file).
std::string unreadable_reason(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ELOOP) return "a link loop";
    struct stat link {};
    if (errno == ENOENT && ::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) {
      return "a link to nothing (dangling)";
    }
    return "cannot be read";
  }
  if (!S_ISREG(st.st_mode)) return "not a regular file";
  if (::access(path.c_str(), R_OK) != 0) return "not readable (permission)";
  return "";
}

}  // namespace

bool is_npkt_file_name(std::string_view name) {
  return io::has_extension(uncompressed_name(name), format::kFileExtension);
}

Result<NpktFiles> find_npkt_files(const std::string& dir) {
  NPKIT_ASSIGN(auto entries, io::list_directory(dir));
  const std::string_view extension = format::kFileExtension;
  const std::string_view live = format::kLiveFileExtension;
  std::map<std::string, Forms, std::less<>> captures;  // by the name without ".gz"
  std::vector<std::string> unreadable;
  for (const auto& e : entries) {
    if (!is_npkt_file_name(e.name)) continue;
    if (!e.regular) {
      const std::string path = io::join_path(dir, e.name);
      if (std::string why = unreadable_reason(path); !why.empty()) {
        unreadable.push_back(path + ": " + why + ": its rank's data is missing");
      }
      continue;
    }
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
  if (files.paths.empty()) {
    return Error{"no .npkt files in " + dir +
                 (unreadable.empty() ? "" : " (unreadable: " + unreadable.front() + ")")};
  }
  files.unreadable = std::move(unreadable);
  return files;
}

}  // namespace npkit
