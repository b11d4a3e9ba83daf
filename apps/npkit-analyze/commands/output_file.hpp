// commands/output_file.hpp — how -o FILE is written: never through a link, never half.
// Contract: write_output_file(path, write) creates a temporary with an unpredictable name in
// FILE's directory (safe_file/safe_file.hpp: O_CREAT | O_EXCL | O_NOFOLLOW, mode 0666 less the
// umask), lets `write` fill it, and renames it over FILE only when every byte was written; on
// any failure the temporary is removed and FILE is left as it was. What FILE may be: nothing yet,
// a regular file (replaced), or a symbolic link (the link itself is replaced by the new file;
// what it pointed to is never opened). A directory, FIFO, socket or device, a link to one, or a
// link into /proc (/dev/stderr: an open descriptor) is refused before anything is opened (a FIFO
// never blocks the run), except /dev/null, which takes the bytes unread. Errors: "cannot write
// FILE: <what was wrong, with the system's reason>".
#pragma once

#include <functional>
#include <ostream>
#include <string>

#include "util/result.hpp"

namespace npkit::cli {

Status write_output_file(const std::string& path,
                         const std::function<Status(std::ostream& out)>& write);

}  // namespace npkit::cli
