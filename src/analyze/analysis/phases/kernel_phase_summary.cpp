#include "analysis/phases/kernel_phase_summary.hpp"

#include <map>
#include <utility>

#include "util/saturating.hpp"

namespace npkit {

std::vector<KernelPhaseRow> kernel_phase_rows(const RunCommunicator& comm, bool by_tag) {
  std::map<std::pair<std::uint64_t, std::int32_t>, KernelPhaseRow> rows;
  bool any = false;
  for (const auto& inst : comm.instances) {
    for (const auto& m : inst.members) {
      if (!m.timed) continue;
      const std::uint64_t tag = by_tag ? m.tag : 0;
      KernelPhaseRow& row = rows[{tag, m.rank}];
      row.rank = m.rank;
      row.tag = tag;
      if (!m.kernel_phases) {
        ++row.without;
        continue;
      }
      any = true;
      ++row.operations;
      for (std::size_t p = 0; p < kKernelPhaseCount; ++p) {
        row.ns[p] = sat_add(row.ns[p], m.kernel_phases->ns[p]);
      }
      row.gpu_ns = sat_add(row.gpu_ns, m.duration_ns());
    }
  }
  std::vector<KernelPhaseRow> out;
  if (!any) return out;
  for (auto& [key, row] : rows) {
    if (row.operations > 0) out.push_back(row);
  }
  return out;
}

}  // namespace npkit
