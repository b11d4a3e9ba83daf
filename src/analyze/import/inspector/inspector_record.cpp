#include "import/inspector/inspector_record.hpp"

#include <fmt/format.h>
#include <simdjson.h>

#include <charconv>
#include <limits>

#include "import/inspector/inspector_json_fields.hpp"

namespace npkit {
namespace {

using namespace json_fields;

// "0x7f8c496ae9f661" → the hash.
Result<std::uint64_t> comm_hash_of(std::string_view text) {
  const auto bad = [&] {
    return Error{
        fmt::format("header.id '{}': expected the communicator hash as 0x and 1 to 16 "
                    "hex digits",
                    text)};
  };
  if (text.size() < 3 || text.size() > 18 || text[0] != '0' || (text[1] != 'x' && text[1] != 'X')) {
    return bad();
  }
  std::uint64_t h = 0;
  const auto [end, ec] = std::from_chars(text.data() + 2, text.data() + text.size(), h, 16);
  if (ec != std::errc() || end != text.data() + text.size()) return bad();
  return h;
}

// "v4.0" → minor 0; another major is an Error.
Result<std::uint32_t> minor_of(std::string_view version) {
  std::string_view rest = version;
  if (!rest.empty() && rest.front() == 'v') rest.remove_prefix(1);
  std::uint32_t major = 0;
  std::uint32_t minor = 0;
  const char* end = rest.data() + rest.size();
  auto [p, ec] = std::from_chars(rest.data(), end, major);
  bool ok = ec == std::errc() && p != end && *p == '.';
  if (ok) {
    auto [q, ec2] = std::from_chars(p + 1, end, minor);
    ok = ec2 == std::errc() && q == end;
  }
  if (!ok) {
    return Error{fmt::format(
        "metadata.inspector_output_format_version '{}': expected a version such as v4.0", version)};
  }
  if (major != kInspectorMajor) {
    return Error{fmt::format(
        "metadata.inspector_output_format_version '{}': format major {} is not known; this "
        "reader reads v{}.x (the NCCL Inspector of NCCL 2.28 to 2.31)",
        version, major, kInspectorMajor)};
  }
  return minor;
}

// "unknown" is what the writer puts where NCCL named nothing.
std::string named(std::string_view s) {
  return s == "unknown" ? std::string() : std::string(s);
}

Status read_header(dom::object root, InspectorRecord& r) {
  NPKIT_ASSIGN(auto header, object_member(root, "record", "header"));
  NPKIT_ASSIGN(auto id, string_member(header, "header", "id"));
  NPKIT_ASSIGN(r.comm_hash, comm_hash_of(id));
  NPKIT_ASSIGN(auto name, optional_string(header, "header", "comm_name"));
  r.comm_name = named(name);
  NPKIT_ASSIGN(auto rank, int_member(header, "header", "rank"));
  NPKIT_ASSIGN(auto nranks, int_member(header, "header", "n_ranks"));
  if (nranks > kInspectorMaxRanks) {
    return Error{
        fmt::format("header.n_ranks {}: expected at most {} ranks", nranks, kInspectorMaxRanks)};
  }
  if (nranks <= 0 || rank < 0 || rank >= nranks) {
    return Error{
        fmt::format("header: rank {} of n_ranks {}: expected 0 <= rank < n_ranks", rank, nranks)};
  }
  r.rank = rank;
  r.nranks = nranks;
  return Ok{};
}

Status read_metadata(dom::object root, InspectorRecord& r) {
  NPKIT_ASSIGN(auto meta, object_member(root, "record", "metadata"));
  NPKIT_ASSIGN(auto version, string_member(meta, "metadata", "inspector_output_format_version"));
  NPKIT_ASSIGN(auto minor, minor_of(version));
  r.version = std::string(version);
  r.minor = minor;
  NPKIT_ASSIGN(r.host, optional_string(meta, "metadata", "hostname"));
  dom::element pid;
  if (meta["pid"].get(pid) == simdjson::SUCCESS) {
    NPKIT_ASSIGN(auto p, as_uint(pid, "metadata.pid"));
    r.pid = static_cast<std::int64_t>(std::min<std::uint64_t>(p, INT64_MAX));
  }
  return Ok{};
}

// The verbose event_trace_ts object, where present.
Status read_event_trace(dom::object perf, std::string_view where, std::string_view prefix,
                        InspectorRecord& r) {
  dom::element trace;
  if (perf["event_trace_ts"].get(trace) != simdjson::SUCCESS) return Ok{};
  const std::string at = fmt::format("{}.event_trace_ts", where);
  dom::object obj;
  if (trace.get(obj) != simdjson::SUCCESS) return wrong_type(at, "an object", trace);
  NPKIT_ASSIGN(auto start, uint_member(obj, at, fmt::format("{}_start_ts", prefix)));
  NPKIT_ASSIGN(auto stop, uint_member(obj, at, fmt::format("{}_stop_ts", prefix)));
  NPKIT_ASSIGN(auto kernels, member(obj, at, "kernel_events", "an array"));
  dom::array list;
  if (kernels.get(list) != simdjson::SUCCESS) {
    return wrong_type(at + ".kernel_events", "an array", kernels);
  }
  r.verbose = true;
  r.op_start_us = start;
  r.op_stop_us = stop;
  std::size_t i = 0;
  for (dom::element k : list) {
    const std::string kat = fmt::format("{}.kernel_events[{}]", at, i++);
    dom::object ko;
    if (k.get(ko) != simdjson::SUCCESS) return wrong_type(kat, "an object", k);
    InspectorChannel ch;
    NPKIT_ASSIGN(auto id, uint_member(ko, kat, "channel_id"));
    if (id > std::numeric_limits<std::uint32_t>::max()) {
      return Error{fmt::format("{}.channel_id: expected a channel number", kat)};
    }
    ch.channel = static_cast<std::uint32_t>(id);
    NPKIT_ASSIGN(ch.start_us, uint_member(ko, kat, "kernel_start_ts"));
    NPKIT_ASSIGN(ch.stop_us, uint_member(ko, kat, "kernel_stop_ts"));
    NPKIT_ASSIGN(ch.record_us, uint_member(ko, kat, "kernel_record_ts"));
    r.channels.push_back(ch);
  }
  return Ok{};
}

Status read_op(dom::element v, std::string_view key, InspectorRecord& r) {
  dom::object perf;
  if (v.get(perf) != simdjson::SUCCESS) return wrong_type(key, "an object", v);
  const bool p2p = r.kind == InspectorRecordKind::kP2p;
  const std::string_view prefix = p2p ? "p2p" : "coll";
  NPKIT_ASSIGN(r.func, string_member(perf, key, prefix));
  NPKIT_ASSIGN(r.seq, uint_member(perf, key, fmt::format("{}_sn", prefix)));
  NPKIT_ASSIGN(r.bytes, uint_member(perf, key, fmt::format("{}_msg_size_bytes", prefix)));
  NPKIT_ASSIGN(r.exec_time_us, uint_member(perf, key, fmt::format("{}_exec_time_us", prefix)));
  NPKIT_ASSIGN(r.timing_source,
               optional_string(perf, key, fmt::format("{}_timing_source", prefix)));
  if (p2p) {
    NPKIT_ASSIGN(r.peer, int_member(perf, key, "p2p_peer"));
  } else {
    NPKIT_ASSIGN(auto algo, optional_string(perf, key, "coll_algo"));
    NPKIT_ASSIGN(auto proto, optional_string(perf, key, "coll_proto"));
    r.algo = named(algo);
    r.proto = named(proto);
  }
  return read_event_trace(perf, key, prefix, r);
}

Status read_dump_stats(dom::element v, InspectorDumpStats& s) {
  constexpr std::string_view kWhere = "dump_stats";
  dom::object o;
  if (v.get(o) != simdjson::SUCCESS) return wrong_type(kWhere, "an object", v);
  NPKIT_ASSIGN(s.coll_records, uint_member(o, kWhere, "coll_records"));
  NPKIT_ASSIGN(s.coll_dropped_total, uint_member(o, kWhere, "coll_dropped_total"));
  NPKIT_ASSIGN(s.coll_dropped_since_last_dump,
               uint_member(o, kWhere, "coll_dropped_since_last_dump"));
  NPKIT_ASSIGN(s.p2p_records, uint_member(o, kWhere, "p2p_records"));
  NPKIT_ASSIGN(s.p2p_dropped_total, uint_member(o, kWhere, "p2p_dropped_total"));
  NPKIT_ASSIGN(s.p2p_dropped_since_last_dump,
               uint_member(o, kWhere, "p2p_dropped_since_last_dump"));
  NPKIT_ASSIGN(auto proxy, optional_uint(o, kWhere, "proxy_records"));
  NPKIT_ASSIGN(auto total, optional_uint(o, kWhere, "proxy_dropped_total"));
  NPKIT_ASSIGN(auto since, optional_uint(o, kWhere, "proxy_dropped_since_last_dump"));
  s.proxy_records = proxy.value_or(0);
  s.proxy_dropped_total = total.value_or(0);
  s.proxy_dropped_since_last_dump = since.value_or(0);
  return Ok{};
}

Status read_payload(dom::object root, InspectorRecord& r) {
  dom::element v;
  if (root["coll_perf"].get(v) == simdjson::SUCCESS) {
    r.kind = InspectorRecordKind::kColl;
    return read_op(v, "coll_perf", r);
  }
  if (root["p2p_perf"].get(v) == simdjson::SUCCESS) {
    r.kind = InspectorRecordKind::kP2p;
    return read_op(v, "p2p_perf", r);
  }
  if (root["dump_stats"].get(v) == simdjson::SUCCESS) {
    r.kind = InspectorRecordKind::kDumpStats;
    return read_dump_stats(v, r.stats);
  }
  if (root["proxy_trace"].get(v) == simdjson::SUCCESS) {
    r.kind = InspectorRecordKind::kProxy;
    NPKIT_ASSIGN(r.proxy, read_proxy_trace(v));
    return Ok{};
  }
  return Error{
      "record: missing member coll_perf, p2p_perf, dump_stats or proxy_trace (expected an "
      "object)"};
}

}  // namespace

struct InspectorLineParser::Impl {
  dom::parser parser;
};

InspectorLineParser::InspectorLineParser() : impl_(new Impl) {}
InspectorLineParser::~InspectorLineParser() {
  delete impl_;
}

Status InspectorLineParser::parse(std::string_view line, InspectorRecord& out) {
  out = InspectorRecord{};
  dom::element doc;
  const simdjson::padded_string padded(line);
  if (const auto e = impl_->parser.parse(padded).get(doc); e != simdjson::SUCCESS) {
    return Error{fmt::format("malformed JSON ({}): expected one JSON object per line",
                             simdjson::error_message(e))};
  }
  dom::object root;
  if (doc.get(root) != simdjson::SUCCESS) return wrong_type("record", "an object", doc);
  if (has(root, "header") || has(root, "metadata")) {
    NPKIT_TRY(read_header(root, out));
    NPKIT_TRY(read_metadata(root, out));
  } else {
    out.has_context = false;
  }
  return read_payload(root, out);
}

bool looks_like_inspector_log(std::string_view text) {
  const auto start = text.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos || text[start] != '{') return false;
  const std::string_view line = text.substr(start, text.find('\n', start) - start);
  dom::parser parser;
  dom::element doc;
  const simdjson::padded_string padded(line);
  if (parser.parse(padded).get(doc) != simdjson::SUCCESS) {
    // A first line longer than the prefix: judged by its start.
    return line.size() == text.size() - start &&
           line.find("\"inspector_output_format_version\"") != std::string_view::npos &&
           line.find("\"header\"") != std::string_view::npos;
  }
  dom::object root;
  dom::object meta;
  dom::element version;
  dom::element header;
  return doc.get(root) == simdjson::SUCCESS && root["header"].get(header) == simdjson::SUCCESS &&
         header.is_object() && root["metadata"].get(meta) == simdjson::SUCCESS &&
         meta["inspector_output_format_version"].get(version) == simdjson::SUCCESS;
}

}  // namespace npkit
