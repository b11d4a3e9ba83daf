#include "recorder/new_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "safe_file/safe_file.hpp"

namespace npkit::capture {
namespace {

// Names tried after the one asked for, before giving up (each is 32 fresh random bits).
constexpr int kFreshNameTries = 16;

// The capture's files: mode 0644, less the umask.
constexpr mode_t kFileMode = 0644;

bool ends_with(const std::string& text, const char* suffix) {
  const size_t size = std::strlen(suffix);
  return text.size() > size && text.compare(text.size() - size, size, suffix) == 0;
}

std::string clash_text(const DumpDirectory& directory, const std::string& wanted,
                       const std::string& found, const std::string& taken) {
  return directory.file_path(wanted) + " is already there (" + found + "); writing " +
         directory.file_path(taken) + " instead";
}

}  // namespace

std::string fresh_name(const std::string& name) {
  size_t cut = name.size();
  if (ends_with(name, ".live.npkt")) {
    cut -= std::strlen(".live.npkt");
  } else if (ends_with(name, ".npkt")) {
    cut -= std::strlen(".npkt");
  } else if (const size_t dot = name.rfind('.'); dot != std::string::npos && dot > 0) {
    cut = dot;
  }
  return name.substr(0, cut) + "." + safe_file::random_hex(8) + name.substr(cut);
}

std::string describe_entry(const DumpDirectory& directory, const std::string& name) {
  return safe_file::describe_entry(directory.fd(), name);
}

CreatedFile create_new_file(const DumpDirectory& directory, const std::string& name,
                            std::string* why_not) {
  CreatedFile file;
  std::string attempt = name;
  for (int tries = 0; tries <= kFreshNameTries; ++tries) {
    file.fd = safe_file::open_new(directory.fd(), attempt, kFileMode);
    if (file.fd >= 0) break;
    if (errno != EEXIST) {
      *why_not = directory.file_path(attempt) + ": " + std::strerror(errno);
      return file;
    }
    if (file.clash.empty()) file.clash = describe_entry(directory, name);
    attempt = fresh_name(name);
  }
  if (file.fd < 0) {
    *why_not = directory.file_path(name) + ": no free name after " +
               std::to_string(kFreshNameTries) + " tries";
    return file;
  }
  file.name = attempt;
  if (!file.clash.empty()) file.clash = clash_text(directory, name, file.clash, attempt);
  if (!safe_file::identify(file.fd, &file)) {
    *why_not = directory.file_path(attempt) + ": " + std::strerror(errno);
    close(file.fd);
    file.fd = -1;
  }
  return file;
}

CreatedFile create_temporary_file(const DumpDirectory& directory, const std::string& for_name,
                                  std::string* why_not) {
  CreatedFile file;
  if (!safe_file::create_temporary(directory.fd(), for_name, kFileMode, &file)) {
    *why_not = directory.file_path(file.name) + ": " + std::strerror(errno);
  }
  return file;
}

bool publish_file(const DumpDirectory& directory, const CreatedFile& temporary,
                  const std::string& wanted_name, std::string* published_name, std::string* clash,
                  std::string* why_not) {
  clash->clear();
  std::string found;
  std::string target = wanted_name;
  bool can_rename = true;
  for (int tries = 0; tries <= kFreshNameTries; ++tries) {
    int result = -1;
    if (can_rename) {
      result = safe_file::rename_within(directory.fd(), temporary.name, target, false);
      if (result != 0 && (errno == EINVAL || errno == ENOSYS || errno == ENOTSUP)) {
        can_rename = false;  // the file system (or kernel) has no RENAME_NOREPLACE
      }
    }
    if (!can_rename) {
      result = safe_file::link_within(directory.fd(), temporary.name, target);
      if (result == 0) remove_created_file(directory, temporary);
    }
    if (result == 0) {
      *published_name = target;
      if (!found.empty()) *clash = clash_text(directory, wanted_name, found, target);
      return true;
    }
    if (errno != EEXIST) {
      *why_not = "publishing " + directory.file_path(temporary.name) + " as " +
                 directory.file_path(target) + ": " + std::strerror(errno);
      return false;
    }
    if (found.empty()) found = describe_entry(directory, wanted_name);
    target = fresh_name(wanted_name);
  }
  *why_not = directory.file_path(wanted_name) + ": no free name after " +
             std::to_string(kFreshNameTries) + " tries";
  return false;
}

void remove_created_file(const DumpDirectory& directory, const CreatedFile& file) {
  safe_file::remove_created(directory.fd(), file);
}

}  // namespace npkit::capture
