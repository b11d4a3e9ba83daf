#include "import/spanless_options.hpp"

#include <fmt/format.h>

namespace npkit {

Status refuse_span_options(const ImportOptions& o, std::string_view holds) {
  const char* option = nullptr;
  if (o.event_table != "auto") option = "--event-table";
  if (!o.phase_map.empty()) option = "--phase-map";
  if (o.cpu_record_size != 0) option = "--cpu-record-size";
  if (option == nullptr) return Ok{};
  return Error{fmt::format("{} applies to NPKit event traces and dumps; {} holds {}", option,
                           o.path, holds)};
}

Error no_such_ranks(const ImportOptions& o, const std::set<std::int32_t>& seen) {
  return Error{fmt::format("--ranks {}: no such rank in {} (it has ranks {}..{})", o.ranks, o.path,
                           seen.empty() ? -1 : *seen.begin(), seen.empty() ? -1 : *seen.rbegin())};
}

}  // namespace npkit
