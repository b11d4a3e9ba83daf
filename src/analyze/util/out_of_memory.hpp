// out_of_memory.hpp — running out of memory while reading a file becomes an error naming the file.
// Contract: reading_guarded(path, read) returns read()'s Result or Status; a std::bad_alloc thrown
// inside read() becomes the Error "out of memory reading <path>". The readers bound what a file
// may ask for (docs/formats.md, "Limits"); a file within the bounds may still need more memory
// than the process may use (ulimit -v, a container's limit), and that is the user's to know.
#pragma once

#include <new>
#include <string>

#include "util/result.hpp"

namespace npkit {

template <typename Read>
auto reading_guarded(const std::string& path, Read read) -> decltype(read()) {
  try {
    return read();
  } catch (const std::bad_alloc&) {
    return Error{"out of memory reading " + path};
  }
}

}  // namespace npkit
