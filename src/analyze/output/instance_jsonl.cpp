#include "output/instance_jsonl.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "output/json_writer.hpp"
#include "run/time_quality.hpp"

namespace npkit {
namespace {

template <typename T>
void optional_field(JsonWriter& w, std::string_view key, const std::optional<T>& v) {
  w.key(key);
  if (v) {
    w.value(*v);
  } else {
    w.null_value();
  }
}

}  // namespace

void append_instance_jsonl(const std::vector<InstanceRecord>& records, const std::string& run_name,
                           std::string& out) {
  for (const InstanceRecord& r : records) {
    const RunInstance& inst = *r.instance;
    JsonWriter w(out, JsonLayout::kOneLine);
    w.begin_object();
    w.field("schema", "npkit-analyze.instance");
    w.field("schema_version", 1);
    w.field("run", run_name);
    w.field("comm", fmt::format("{:016x}", r.comm_hash));
    w.field("scope", r.scope);
    w.field("nranks", r.nranks);
    w.field("clock", r.clock);
    w.field("func", inst.func);
    w.field("seq", inst.seq);
    w.field("label", inst.label);
    w.field("bytes", inst.bytes);
    w.field("count", inst.count);
    w.field("type", inst.type);
    w.field("algo", inst.algo);
    w.field("proto", inst.proto);
    w.field("tag", inst.tag);
    std::uint32_t channels = 0;
    for (const auto& m : r.members) channels = std::max(channels, m.channels);
    w.field("channels", channels);
    w.field("ranks_timed", static_cast<std::uint64_t>(r.timed));
    w.values("missing_ranks", inst.missing_ranks);
    w.values("flags", instance_flags(inst));
    optional_field(w, "time_ns", r.time_ns);
    optional_field(w, "algbw_gbps", r.algbw_gbps);
    optional_field(w, "busbw_gbps", r.busbw_gbps);
    optional_field(w, "true_time_ns", r.true_time_ns);
    optional_field(w, "true_algbw_gbps", r.true_algbw_gbps);
    optional_field(w, "true_busbw_gbps", r.true_busbw_gbps);
    w.key("members");
    w.begin_array();
    for (const auto& m : r.members) {
      w.begin_object();
      w.field("rank", m.rank);
      w.field("host", m.host);
      w.field("timed", m.timed);
      w.field("stale", m.stale);
      if (m.not_sampled) w.field("not_sampled", true);
      w.field("implausibly_short", m.implausibly_short);
      const auto timed = [&](std::int64_t v) {
        return m.timed ? std::optional<std::int64_t>(v) : std::nullopt;
      };
      const auto on_clock = [&](std::int64_t v) { return r.starts ? timed(v) : std::nullopt; };
      optional_field(w, "start_ns", on_clock(m.start_ns));
      optional_field(w, "end_ns", on_clock(m.end_ns));
      optional_field(w, "time_ns", timed(m.end_ns - m.start_ns));
      w.field("channels", m.channels);
      if (m.kernel_phases) {
        w.object("kernel_phases", [&] {
          for (std::size_t p = 0; p < kKernelPhaseCount; ++p) {
            w.field(std::string(kKernelPhaseNames[p]) + "_ns", m.kernel_phases->ns[p]);
          }
        });
      }
      w.end_object();
    }
    w.end_array();
    w.end_object();
  }
}

}  // namespace npkit
