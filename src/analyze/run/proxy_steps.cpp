#include "run/proxy_steps.hpp"

#include "util/saturating.hpp"

namespace npkit {

double ProxyStepBreakdown::explained() const {
  if (step_ns <= 0) return 0.0;
  const std::int64_t mapped = sat_add(sat_add(net_send_ns, net_recv_ns), sync_ns);
  return static_cast<double>(mapped) / static_cast<double>(step_ns);
}

}  // namespace npkit
