// util/parallel_parts.hpp — the parts of one job run at once: part 0 on the calling thread, each
// other part on a thread of its own.
// Contract: run_parts(n, part) calls part(i) once for every i in [0, n) and returns when every
// call has returned. Parts whose thread the host refuses to start (at its process limit) run on
// the calling thread after part 0, so the work is always done. Parts must not share what they
// write.
#pragma once

#include <cstddef>
#include <functional>

namespace npkit {

void run_parts(std::size_t n, const std::function<void(std::size_t)>& part);

}  // namespace npkit
