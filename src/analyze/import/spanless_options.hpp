// import/spanless_options.hpp — what the readers of inputs without NPKit spans (traces of
// profiler events, NCCL Inspector logs) say about options that do not apply to them.
// Contract: refuse_span_options is an Error when ImportOptions set --event-table, --phase-map or
// --cpu-record-size ("OPTION applies to NPKit event traces and dumps; PATH holds WHAT"), else Ok.
// no_such_ranks is the Error of a --ranks that selects none of the ranks `seen` (lowest..highest,
// -1..-1 when there are none).
#pragma once

#include <cstdint>
#include <set>
#include <string_view>

#include "import/run_input.hpp"

namespace npkit {

Status refuse_span_options(const ImportOptions& o, std::string_view holds);

Error no_such_ranks(const ImportOptions& o, const std::set<std::int32_t>& seen);

}  // namespace npkit
