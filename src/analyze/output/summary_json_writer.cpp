#include "output/summary_json_writer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "output/json_writer.hpp"
#include "run/nccl_names.hpp"
#include "run/nccl_tests_convention.hpp"

namespace npkit {
namespace {

using Out = std::back_insert_iterator<std::string>;

void key(std::string& out, std::string_view k) {
  append_json_string(out, k);
  out += ": ";
}

void number(std::string& out, double v) {
  if (!std::isfinite(v)) {
    out += "null";
    return;
  }
  fmt::format_to(Out(out), "{}", v);
}

template <typename Set>
void string_array(std::string& out, const Set& values) {
  out += '[';
  bool first = true;
  for (const auto& v : values) {
    if (!first) out += ", ";
    first = false;
    append_json_string(out, v);
  }
  out += ']';
}

void sample(std::string& out, const DurationSample& s) {
  fmt::format_to(Out(out), "{{\"count\": {}, \"min\": {}, \"max\": {}, \"sum\": {}, ", s.count(),
                 s.min(), s.max(), s.sum());
  if (s.exact()) {
    out += "\"values\": [";
    for (std::size_t i = 0; i < s.values().size(); ++i) {
      fmt::format_to(Out(out), "{}{}", i == 0 ? "" : ", ", s.values()[i]);
    }
  } else {
    out += "\"buckets\": [";
    bool first = true;
    for (const auto& [b, n] : s.buckets()) {
      fmt::format_to(Out(out), "{}[{}, {}]", first ? "" : ", ", DurationSample::bucket_low(b), n);
      first = false;
    }
  }
  out += "]}";
}

template <typename Map>
void set_map(std::string& out, const Map& map, const char* indent) {
  out += '{';
  bool first = true;
  for (const auto& [k, values] : map) {
    out += first ? "\n" : ",\n";
    first = false;
    out += indent;
    key(out, k);
    string_array(out, values);
  }
  if (!first) out += fmt::format("\n{}", std::string_view(indent).substr(2));
  out += '}';
}

void config(std::string& out, const RunConfig& c) {
  out += "  \"config\": {\n    \"formats\": ";
  string_array(out, c.formats);
  out += ",\n    \"nccl_versions\": ";
  string_array(out, c.nccl_versions);
  out += ",\n    \"gpus\": ";
  string_array(out, c.gpus);
  out += ",\n    \"hosts\": ";
  string_array(out, c.hosts);
  out += ",\n    \"env\": ";
  set_map(out, c.env, "      ");
  out += ",\n    \"env_files\": ";
  string_array(out, c.env_files);
  out += ",\n    \"capture\": ";
  set_map(out, c.capture, "      ");
  out += ",\n    \"communicators\": [";
  bool first = true;
  for (const auto& [hash, comm] : c.communicators) {
    out += first ? "\n      {" : ",\n      {";
    first = false;
    key(out, "hash");
    append_json_string(out, hash);
    fmt::format_to(Out(out), ", \"nranks\": {}, \"ranks\": [{}]}}", comm.nranks,
                   fmt::join(comm.ranks, ", "));
  }
  out += first ? "]" : "\n    ]";
  fmt::format_to(Out(out), ",\n    \"files\": {}\n  }}", c.files);
}

void collective(std::string& out, const CollectiveRow& r) {
  out += "    {";
  key(out, "collective");
  append_json_string(out, r.key.collective);
  fmt::format_to(Out(out), ", \"nranks\": {}, \"size_bytes\": {}, \"size_kind\": \"{}\", ",
                 r.key.nranks, r.key.size_bytes, size_kind_name(r.key.size_kind));
  key(out, "algo");
  append_json_string(out, r.key.algo);
  out += ", ";
  key(out, "proto");
  append_json_string(out, r.key.proto);
  if (r.key.tag != 0) fmt::format_to(Out(out), ", \"tag\": {}", r.key.tag);
  fmt::format_to(Out(out),
                 ", \"instances\": {}, \"untimed_instances\": {}, \"stale_instances\": {}, "
                 "\"incomplete_instances\": {}, \"bytes_sum\": {}",
                 r.instances, r.untimed_instances, r.stale_instances, r.incomplete_instances,
                 r.bytes_sum);
  if (r.not_sampled_instances > 0) {
    fmt::format_to(Out(out), ", \"not_sampled_instances\": {}", r.not_sampled_instances);
  }
  if (r.flagged_instances > 0) {
    fmt::format_to(Out(out),
                   ", \"flagged_instances\": {}, \"host_disagree_instances\": {}, "
                   "\"short_instances\": {}",
                   r.flagged_instances, r.host_disagree_instances, r.short_instances);
  }
  const double time = r.time_ns();
  if (time > 0) {
    out += ", \"time_ns\": ";
    number(out, time);
    out += ", \"algbw_gbps\": ";
    number(out, row_algbw_gbps(r.key, r.mean_bytes(), time));
    out += ", \"busbw_gbps\": ";
    number(out, row_busbw_gbps(r.key, r.mean_bytes(), time));
  }
  out += ",\n     \"ranks\": [";
  for (std::size_t i = 0; i < r.ranks.size(); ++i) {
    fmt::format_to(Out(out), "{}\n      {{\"rank\": {}, \"time_ns\": ", i == 0 ? "" : ",",
                   r.ranks[i].rank);
    sample(out, r.ranks[i].time_ns);
    out += '}';
  }
  out += r.ranks.empty() ? "]}" : "\n     ]}";
}

void phase(std::string& out, const PhaseRow& r) {
  out += "    {";
  key(out, "source");
  append_json_string(out, r.key.source);
  out += ", ";
  key(out, "domain");
  append_json_string(out, r.key.domain);
  out += ", ";
  key(out, "phase");
  append_json_string(out, r.key.phase);
  out += ",\n     \"ranks\": [";
  for (std::size_t i = 0; i < r.ranks.size(); ++i) {
    const RankPhase& p = r.ranks[i];
    fmt::format_to(Out(out),
                   "{}\n      {{\"rank\": {}, \"ns\": {}, \"reference_ns\": {}, \"count\": {}, "
                   "\"share\": ",
                   i == 0 ? "" : ",", p.rank, p.ns, p.reference_ns, p.count);
    number(out, p.share());
    out += ", \"span_ns\": ";
    sample(out, p.span_ns);
    out += '}';
  }
  out += r.ranks.empty() ? "]}" : "\n     ]}";
}

void sync_rank(std::string& out, const SyncRank& s) {
  fmt::format_to(Out(out),
                 "    {{\"nranks\": {}, \"rank\": {}, \"instances\": {}, \"arrived_last\": {}, "
                 "\"skew_ns\": ",
                 s.nranks, s.rank, s.instances, s.arrived_last);
  sample(out, s.skew_ns);
  out += '}';
}

template <typename T, typename Write>
void rows(std::string& out, const char* name, const std::vector<T>& items, Write write) {
  fmt::format_to(Out(out), ",\n  \"{}\": [", name);
  for (std::size_t i = 0; i < items.size(); ++i) {
    out += i == 0 ? "\n" : ",\n";
    write(out, items[i]);
  }
  out += items.empty() ? "]" : "\n  ]";
}

}  // namespace

void write_summary_json(const RunSummary& s, std::string& out) {
  fmt::format_to(Out(out), "{{\n  \"schema\": \"{}\",\n  \"schema_version\": {},\n", kSummarySchema,
                 kSummaryVersion);
  fmt::format_to(Out(out), "  \"sample_cap\": {},\n  \"inputs\": ", DurationSample::kExactCap);
  string_array(out, s.inputs);
  fmt::format_to(Out(out), ",\n  \"warnings\": {},\n", s.warnings);
  config(out, s.config);
  rows(out, "collectives", s.collectives, collective);
  rows(out, "phases", s.phases, phase);
  rows(out, "sync", s.sync, sync_rank);
  out += "\n}\n";
}

}  // namespace npkit
