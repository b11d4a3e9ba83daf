#include "analysis/bandwidth/span_bandwidth.hpp"

#include <bit>

#include "run/nccl_tests_convention.hpp"

namespace npkit {

std::uint64_t size_bucket(std::uint64_t bytes) {
  return bytes == 0 ? 0 : std::bit_floor(bytes);
}

SpanBandwidthSink::SpanBandwidthSink(const PhaseAssignment& phases,
                                     const std::vector<std::string>& base_names, std::string coll)
    : phases_(phases), base_names_(base_names), coll_(std::move(coll)) {}

void SpanBandwidthSink::on_span(const Span& span) {
  if (coll_ != "all") {
    const std::int32_t c = span.root_base < phases_.collective_of_base.size()
                               ? phases_.collective_of_base[span.root_base]
                               : kNoCollective;
    if (c == kNoCollective) return;
    // A legacy NPKit dump shows an AlltoAll only as the send/recv primitives NCCL runs it with.
    const std::string& func = phases_.collectives[c].func;
    if (!coll_selects(coll_, func) && !(coll_ == "alltoall" && func == "sendrecv")) return;
  }
  const bool gpu = span.track.kind == TrackKind::kGpu;
  Samples& s = samples_[Key{span.track.rank, span.base, gpu, size_bucket(span.exit_size)}];
  const double ns = static_cast<double>(span.duration_ns());
  s.ns.add(ns);
  if (ns > 0) s.gbps.add(gb_per_s(span.exit_size, ns));
  s.bytes += span.exit_size;
}

void SpanBandwidthSink::merge(SpanBandwidthSink&& other) {
  for (auto& [key, theirs] : other.samples_) {
    Samples& mine = samples_[key];
    mine.ns.merge(theirs.ns);
    mine.gbps.merge(theirs.gbps);
    mine.bytes += theirs.bytes;
  }
  other.samples_.clear();
}

std::vector<SpanBandwidthRow> SpanBandwidthSink::summarise() const {
  std::vector<SpanBandwidthRow> rows;
  std::map<std::tuple<std::string, bool, std::uint64_t>, Samples> pooled;
  std::map<std::tuple<std::uint32_t, std::string, bool, std::uint64_t>, const Samples*> per_rank;
  for (const auto& [key, s] : samples_) {
    const auto& [rank, base, gpu, bucket] = key;
    const std::string& name = base_names_[base];
    per_rank[{rank, name, gpu, bucket}] = &s;
    Samples& p = pooled[{name, gpu, bucket}];
    p.ns.merge(s.ns);
    p.gbps.merge(s.gbps);
    p.bytes += s.bytes;
  }
  const auto make = [](std::uint32_t rank, const std::string& name, bool gpu, std::uint64_t bucket,
                       const Samples& s) {
    SpanBandwidthRow row;
    row.rank = rank;
    row.name = name;
    row.gpu = gpu;
    row.bucket = bucket;
    row.total_bytes = s.bytes;
    row.duration_ns = s.ns.summary();
    row.gbps = s.gbps.summary();
    return row;
  };
  for (const auto& [key, s] : per_rank) {
    const auto& [rank, name, gpu, bucket] = key;
    rows.push_back(make(rank, name, gpu, bucket, *s));
  }
  for (auto& [key, s] : pooled) {
    const auto& [name, gpu, bucket] = key;
    rows.push_back(make(kAllRanks, name, gpu, bucket, s));
  }
  return rows;
}

}  // namespace npkit
