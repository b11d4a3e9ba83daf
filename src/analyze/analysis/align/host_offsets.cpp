#include "analysis/align/host_offsets.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "analysis/align/host_agreement.hpp"
#include "util/saturating.hpp"

namespace npkit {
namespace {

constexpr double kUnbounded = std::numeric_limits<double>::infinity();

using Matrix = std::vector<std::vector<double>>;

// d[a][b]: the tightest bound on off_b - off_a; closes `d` under shortest paths.
void close_paths(Matrix& d) {
  const std::size_t n = d.size();
  for (std::size_t k = 0; k < n; ++k) {
    for (std::size_t i = 0; i < n; ++i) {
      if (d[i][k] == kUnbounded) continue;
      for (std::size_t j = 0; j < n; ++j) {
        d[i][j] = std::min(d[i][j], d[i][k] + d[k][j]);
      }
    }
  }
}

// Adds off_h - off_0 = x to a closed matrix and keeps it closed.
void fix_offset(Matrix& d, std::size_t h, double x) {
  const std::size_t n = d.size();
  Matrix next = d;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      next[i][j] = std::min({d[i][j], d[i][0] + x + d[h][j], d[i][h] - x + d[0][j]});
    }
  }
  d = std::move(next);
}

}  // namespace

double HostAlignment::offset_of(std::int32_t rank) const {
  for (const auto& h : hosts) {
    if (std::find(h.ranks.begin(), h.ranks.end(), rank) != h.ranks.end()) return h.offset_ns;
  }
  return 0;
}

std::int64_t HostAlignment::aligned(std::int32_t rank, std::int64_t t) const {
  return sat_add(t, static_cast<std::int64_t>(std::llround(offset_of(rank))));
}

std::string HostAlignment::status_name() const {
  switch (status) {
    case AlignmentStatus::kHostsUnknown:
      return "hosts unknown (one host assumed)";
    case AlignmentStatus::kOneHost:
      return "one host";
    case AlignmentStatus::kAligned:
      return "aligned";
    case AlignmentStatus::kInconsistent:
      return "inconsistent (not corrected)";
  }
  return "";
}

HostAlignment estimate_host_offsets(const CrossRankInput& input) {
  HostAlignment out;
  HostOfRank host_of_rank;
  for (const auto& r : input.ranks) {
    const std::string host = input.hosts_known ? r.host : std::string();
    auto it = std::find_if(out.hosts.begin(), out.hosts.end(),
                           [&](const HostOffset& h) { return h.host == host; });
    if (it == out.hosts.end()) {
      out.hosts.push_back({});
      out.hosts.back().host = host;
      it = out.hosts.end() - 1;
    }
    it->ranks.push_back(r.rank);
    host_of_rank[r.rank] = static_cast<std::size_t>(it - out.hosts.begin());
  }
  if (!out.hosts.empty()) {
    out.hosts.front().reference = true;
    out.hosts.front().linked = true;
  }
  const std::size_t n = out.hosts.size();
  Matrix d(n, std::vector<double>(n, kUnbounded));
  for (std::size_t i = 0; i < n; ++i) d[i][i] = 0;
  for (const auto& inst : input.instances) {
    const auto per_host = host_times(inst.ranks, host_of_rank);
    const std::int64_t disagreement = host_disagreement_ns(per_host);
    if (disagreement > 0) {
      ++out.same_host_violations;
      out.same_host_violation_max_ns = std::max(out.same_host_violation_max_ns, disagreement);
    }
    for (const auto& [a, ta] : per_host) {
      if (per_host.size() > 1) ++out.hosts[a].instances;
      for (const auto& [b, tb] : per_host) {
        if (a == b) continue;
        d[a][b] = std::min(d[a][b], static_cast<double>(ta.first_end_ns - tb.last_start_ns));
      }
    }
  }
  if (!input.hosts_known) {
    out.status = AlignmentStatus::kHostsUnknown;
    return out;
  }
  if (n <= 1) {
    out.status = AlignmentStatus::kOneHost;
    return out;
  }
  close_paths(d);
  for (std::size_t i = 0; i < n; ++i) {
    if (d[i][i] < 0) {
      out.status = AlignmentStatus::kInconsistent;
      return out;
    }
  }
  out.status = AlignmentStatus::kAligned;
  std::vector<std::pair<double, double>> bounds(n);
  for (std::size_t h = 1; h < n; ++h) bounds[h] = {-d[h][0], d[0][h]};
  for (std::size_t h = 1; h < n; ++h) {
    HostOffset& host = out.hosts[h];
    const double lower = -d[h][0];
    const double upper = d[0][h];
    if (!std::isfinite(lower) || !std::isfinite(upper)) continue;
    host.linked = true;
    host.offset_ns = (lower + upper) / 2;
    fix_offset(d, h, host.offset_ns);
    host.lower_ns = bounds[h].first;
    host.upper_ns = bounds[h].second;
    host.uncertainty_ns = std::max(host.offset_ns - host.lower_ns, host.upper_ns - host.offset_ns);
  }
  return out;
}

}  // namespace npkit
