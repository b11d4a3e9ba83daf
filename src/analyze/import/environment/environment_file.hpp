// import/environment/environment_file.hpp — a run's NCCL_* / NPKIT_* settings from a file beside
// its dump: ENV.txt as `env > ENV.txt` writes it, or a file given with --env.
// Contract:
// - read_environment_file() keeps the NCCL_* and NPKIT_* variables of KEY=VALUE lines (the value
//   is everything after the first '='; a later line of a key replaces an earlier one). Other
//   variables, blank lines and lines that are not KEY=VALUE (a multi-line value's continuation)
//   are skipped. A file that cannot be read, is over 1 MiB or holds a NUL byte is an Error
//   naming it (and the line, for a NUL).
// - find_environment_file() looks for ENV.txt, then env.txt, in the input's directory (the path
//   itself when it is a directory, else the directory holding it) and then in that directory's
//   parent; "" when there is none. A file found there is read only when it is a regular file
//   (not a link) owned by the invoking user or by the input's owner and at most 1 MiB: anyone
//   may leave an ENV.txt in a shared parent directory. Each one passed over is named in
//   `ignored`, with why ("<path>: not read: owned by uid 1001, ..."), and the search goes on.
// - apply_environment() adds the file's variables to a run's configuration where the input did
//   not record the variable itself (a capture's own record wins); each variable whose recorded
//   value differs is returned as a conflict line. The file's path joins config.env_files.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "run/run_config.hpp"
#include "util/result.hpp"

namespace npkit {

struct EnvironmentFile {
  std::string path;
  std::map<std::string, std::string> variables;  // NCCL_* and NPKIT_* only
};

Result<EnvironmentFile> read_environment_file(const std::string& path);

std::string find_environment_file(const std::string& input_path,
                                  std::vector<std::string>* ignored = nullptr);

std::vector<std::string> apply_environment(const EnvironmentFile& file, RunConfig& config);

}  // namespace npkit
