#include "analysis/select/collective_window.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "util/lower_case.hpp"

namespace npkit {

Result<HostWindow> collective_window(const Run& run, const std::string& func,
                                     std::uint64_t first_seq, std::uint64_t last_seq) {
  const std::string wanted = lower_case(func);
  std::set<std::string> funcs;
  std::uint64_t min_seq = UINT64_MAX;
  std::uint64_t max_seq = 0;
  HostWindow w{INT64_MAX, INT64_MIN, 0};
  for (const auto& comm : run.comms) {
    for (const auto& inst : comm.instances) {
      funcs.insert(inst.func);
      if (lower_case(inst.func) != wanted) continue;
      min_seq = std::min(min_seq, inst.seq);
      max_seq = std::max(max_seq, inst.seq);
      if (inst.seq < first_seq || inst.seq > last_seq) continue;
      bool timed = false;
      for (const auto& m : inst.members) {
        if (!m.timed) continue;
        timed = true;
        w.from_ns = std::min(w.from_ns, m.start_ns);
        w.to_ns = std::max(w.to_ns, m.end_ns);
      }
      w.instances += timed ? 1 : 0;
    }
  }
  if (min_seq == UINT64_MAX) {
    std::string list;
    for (const auto& f : funcs) list += (list.empty() ? "" : ", ") + f;
    return Error{
        fmt::format("--coll {}: the run holds no {} instance ({})", func, func,
                    list.empty() ? "it holds no collective instances" : "it holds " + list)};
  }
  if (w.instances == 0) {
    return Error{
        fmt::format("--seq {}:{}: no timed {} instance in that range (the run's {} seq "
                    "run from {} to {})",
                    first_seq, last_seq, func, func, min_seq, max_seq)};
  }
  return w;
}

}  // namespace npkit
