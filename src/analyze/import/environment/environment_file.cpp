#include "import/environment/environment_file.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <string_view>
#include <system_error>

#include "util/file_io.hpp"
#include "util/out_of_memory.hpp"

namespace npkit {
namespace {

constexpr std::size_t kMaxBytes = 1 << 20;

bool is_variable_name(std::string_view s) {
  if (s.empty() || (s[0] >= '0' && s[0] <= '9')) return false;
  for (const char c : s) {
    const bool ok =
        (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    if (!ok) return false;
  }
  return true;
}

bool is_recorded_kind(std::string_view name) {
  return name.starts_with("NCCL_") || name.starts_with("NPKIT_");
}

}  // namespace

Result<EnvironmentFile> read_environment_file(const std::string& path) {
  NPKIT_ASSIGN(auto text,
               reading_guarded(path, [&] { return io::read_text_file(path, kMaxBytes); }));
  EnvironmentFile file;
  file.path = path;
  std::string_view rest = text;
  std::size_t line_number = 0;
  while (!rest.empty()) {
    ++line_number;
    const std::size_t end = rest.find('\n');
    std::string_view line = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end + 1);
    if (line.find('\0') != std::string_view::npos) {
      return Error{path + ": line " + std::to_string(line_number) +
                   ": a NUL byte; expected KEY=VALUE lines as `env` prints them"};
    }
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const std::size_t eq = line.find('=');
    if (eq == std::string_view::npos) continue;
    const std::string_view name = line.substr(0, eq);
    if (!is_variable_name(name) || !is_recorded_kind(name)) continue;
    file.variables[std::string(name)] = std::string(line.substr(eq + 1));
  }
  return file;
}

namespace {

// Why a found ENV.txt is not trusted ("" when it is): a link, a file owned by neither the
// invoking user nor the input's owner (anyone may write one into a shared parent directory), or
// one too large to be an environment file.
std::string distrust(const std::filesystem::path& candidate, const std::string& input_path) {
  struct stat st {};
  if (::lstat(candidate.c_str(), &st) != 0) return "cannot stat it";
  if (S_ISLNK(st.st_mode)) return "a symbolic link";
  if (!S_ISREG(st.st_mode)) return "not a regular file";
  struct stat input {};
  const bool input_known = ::stat(input_path.c_str(), &input) == 0;
  if (st.st_uid != ::geteuid() && (!input_known || st.st_uid != input.st_uid)) {
    return "owned by uid " + std::to_string(st.st_uid) + ", neither the invoking user (uid " +
           std::to_string(::geteuid()) + ") nor the owner of " + input_path +
           (input_known ? " (uid " + std::to_string(input.st_uid) + ")" : "");
  }
  if (static_cast<std::uint64_t>(st.st_size) > kMaxBytes) {
    return std::to_string(st.st_size) + " bytes, more than an environment file's " +
           std::to_string(kMaxBytes);
  }
  return "";
}

}  // namespace

std::string find_environment_file(const std::string& input_path,
                                  std::vector<std::string>* ignored) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path dir = fs::path(input_path).lexically_normal();
  if (!dir.has_filename()) dir = dir.parent_path();  // "dump/" names the directory "dump"
  if (!fs::is_directory(dir, ec)) dir = dir.parent_path();
  if (dir.empty()) dir = ".";
  fs::path parent = dir.parent_path();
  if (parent.empty()) parent = fs::absolute(dir, ec).lexically_normal().parent_path();
  for (const fs::path& where : {dir, parent}) {
    if (where.empty()) continue;
    for (const char* name : {"ENV.txt", "env.txt"}) {
      const fs::path candidate = where / name;
      if (!fs::exists(fs::symlink_status(candidate, ec))) continue;
      const std::string why = distrust(candidate, input_path);
      if (why.empty()) return candidate.string();
      if (ignored != nullptr) {
        ignored->push_back(candidate.string() + ": not read: " + why +
                           " (--env FILE reads a file you trust)");
      }
    }
  }
  return "";
}

std::vector<std::string> apply_environment(const EnvironmentFile& file, RunConfig& config) {
  std::vector<std::string> conflicts;
  for (const auto& [name, value] : file.variables) {
    auto [it, fresh] = config.env.try_emplace(name);
    if (fresh) {
      it->second.insert(value);
    } else if (!it->second.contains(value)) {
      conflicts.push_back(file.path + ": " + name + "=" + value +
                          ", but the input recorded a different value; the input's is kept");
    }
  }
  config.env_files.insert(file.path);
  return conflicts;
}

}  // namespace npkit
