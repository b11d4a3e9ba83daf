#include "output/kernel_phase_output.hpp"

#include <fmt/format.h>

#include "output/render.hpp"

namespace npkit {

TextTable kernel_phase_table(const std::vector<KernelPhaseRow>& rows, const std::string& comm,
                             bool by_tag) {
  TextTable t;
  t.title = "Kernel phases per rank" + (comm.empty() ? std::string() : " of " + comm) +
            " (NCCL's KernelPhase events, profiler API v7: each phase summed over the rank's timed "
            "operations with phases; share of their GPU time)";
  if (by_tag) t.columns.push_back("tag");
  for (const char* c : {"rank", "operations"}) t.columns.push_back(c);
  for (const auto name : kKernelPhaseNames) t.columns.push_back(std::string(name) + " (us)");
  for (const char* c : {"GPU time (us)", "without phases"}) t.columns.push_back(c);
  for (const auto& r : rows) {
    std::vector<std::string> cells;
    if (by_tag) cells.push_back(std::to_string(r.tag));
    cells.push_back(std::to_string(r.rank));
    cells.push_back(std::to_string(r.operations));
    for (const std::int64_t ns : r.ns) {
      cells.push_back(
          fmt::format("{} ({})", us(static_cast<double>(ns)), percent(share(ns, r.gpu_ns))));
    }
    cells.push_back(us(static_cast<double>(r.gpu_ns)));
    cells.push_back(std::to_string(r.without));
    t.add_row(std::move(cells));
  }
  return t;
}

void write_kernel_phases_json(JsonWriter& w, const std::vector<KernelPhaseRow>& rows, bool by_tag) {
  w.objects("kernel_phases", rows, [&](const KernelPhaseRow& r) {
    w.field("rank", r.rank);
    if (by_tag) w.field("tag", r.tag);
    w.field("operations", r.operations);
    w.field("without_phases", r.without);
    for (std::size_t p = 0; p < kKernelPhaseCount; ++p) {
      w.field(std::string(kKernelPhaseNames[p]) + "_ns", r.ns[p]);
    }
    w.field("gpu_ns", r.gpu_ns);
  });
}

}  // namespace npkit
