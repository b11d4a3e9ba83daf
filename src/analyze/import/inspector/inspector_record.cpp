#include "import/inspector/inspector_record.hpp"

#include <fmt/format.h>
#include <simdjson.h>

#include <charconv>
#include <limits>

namespace npkit::ingest {
namespace {

namespace dom = simdjson::dom;

const char* type_name(dom::element_type t) {
  switch (t) {
    case dom::element_type::ARRAY:
      return "an array";
    case dom::element_type::OBJECT:
      return "an object";
    case dom::element_type::INT64:
    case dom::element_type::UINT64:
      return "an integer";
    case dom::element_type::DOUBLE:
      return "a fractional number";
    case dom::element_type::STRING:
      return "a string";
    case dom::element_type::BOOL:
      return "a boolean";
    case dom::element_type::NULL_VALUE:
      return "null";
  }
  return "a value";
}

Error wrong_type(std::string_view where, std::string_view expected, dom::element v) {
  return Error{fmt::format("{}: expected {}, found {}", where, expected, type_name(v.type()))};
}

// The member `key` of `obj`; `where` names the object for messages.
Result<dom::element> member(dom::object obj, std::string_view where, std::string_view key,
                            std::string_view expected) {
  dom::element v;
  if (obj[key].get(v) != simdjson::SUCCESS) {
    return Error{fmt::format("{}: missing member {} (expected {})", where, key, expected)};
  }
  return v;
}

Result<dom::object> object_member(dom::object obj, std::string_view where, std::string_view key) {
  NPKIT_ASSIGN(auto v, member(obj, where, key, "an object"));
  dom::object out;
  if (v.get(out) != simdjson::SUCCESS) {
    return wrong_type(fmt::format("{}.{}", where, key), "an object", v);
  }
  return out;
}

Result<std::uint64_t> as_uint(dom::element v, std::string_view where) {
  std::uint64_t x = 0;
  if (v.is_int64() || v.is_uint64()) {
    if (v.get(x) != simdjson::SUCCESS) {
      return Error{
          fmt::format("{}: expected an integer of 0 or more, found a negative one", where)};
    }
    return x;
  }
  return wrong_type(where, "an integer", v);
}

Result<std::uint64_t> uint_member(dom::object obj, std::string_view where, std::string_view key) {
  NPKIT_ASSIGN(auto v, member(obj, where, key, "an integer"));
  return as_uint(v, fmt::format("{}.{}", where, key));
}

Result<std::int32_t> int_member(dom::object obj, std::string_view where, std::string_view key) {
  NPKIT_ASSIGN(auto v, member(obj, where, key, "an integer"));
  std::int64_t x = 0;
  if (!v.is_int64() || v.get(x) != simdjson::SUCCESS ||
      x < std::numeric_limits<std::int32_t>::min() ||
      x > std::numeric_limits<std::int32_t>::max()) {
    if (v.is_int64() || v.is_uint64()) {
      return Error{fmt::format("{}.{}: expected a 32-bit integer", where, key)};
    }
    return wrong_type(fmt::format("{}.{}", where, key), "an integer", v);
  }
  return static_cast<std::int32_t>(x);
}

Result<std::string_view> string_member(dom::object obj, std::string_view where,
                                       std::string_view key) {
  NPKIT_ASSIGN(auto v, member(obj, where, key, "a string"));
  std::string_view s;
  if (v.get(s) != simdjson::SUCCESS) {
    return wrong_type(fmt::format("{}.{}", where, key), "a string", v);
  }
  return s;
}

// An optional string member: "" when absent, an Error when of another type.
Result<std::string_view> optional_string(dom::object obj, std::string_view where,
                                         std::string_view key) {
  dom::element v;
  if (obj[key].get(v) != simdjson::SUCCESS) return std::string_view();
  return string_member(obj, where, key);
}

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
        "reader reads v{}.x (the NCCL Inspector of NCCL 2.28 to 2.30)",
        version, major, kInspectorMajor)};
  }
  return minor;
}

Status read_header(dom::object root, InspectorRecord& r) {
  NPKIT_ASSIGN(auto header, object_member(root, "record", "header"));
  NPKIT_ASSIGN(auto id, string_member(header, "header", "id"));
  NPKIT_ASSIGN(r.comm_hash, comm_hash_of(id));
  NPKIT_ASSIGN(auto name, optional_string(header, "header", "comm_name"));
  r.comm_name = name == "unknown" ? std::string() : std::string(name);
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

Status read_perf(dom::object root, InspectorRecord& r) {
  dom::element v;
  std::string_view key;
  if (root["coll_perf"].get(v) == simdjson::SUCCESS) {
    key = "coll_perf";
  } else if (root["p2p_perf"].get(v) == simdjson::SUCCESS) {
    key = "p2p_perf";
    r.p2p = true;
  } else {
    return Error{"record: missing member coll_perf or p2p_perf (expected an object)"};
  }
  dom::object perf;
  if (v.get(perf) != simdjson::SUCCESS) return wrong_type(key, "an object", v);
  const std::string_view prefix = r.p2p ? "p2p" : "coll";
  NPKIT_ASSIGN(r.func, string_member(perf, key, prefix));
  NPKIT_ASSIGN(r.seq, uint_member(perf, key, fmt::format("{}_sn", prefix)));
  NPKIT_ASSIGN(r.bytes, uint_member(perf, key, fmt::format("{}_msg_size_bytes", prefix)));
  NPKIT_ASSIGN(r.exec_time_us, uint_member(perf, key, fmt::format("{}_exec_time_us", prefix)));
  NPKIT_ASSIGN(r.timing_source,
               optional_string(perf, key, fmt::format("{}_timing_source", prefix)));
  if (r.p2p) {
    NPKIT_ASSIGN(r.peer, int_member(perf, key, "p2p_peer"));
  }
  return read_event_trace(perf, key, prefix, r);
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
  NPKIT_TRY(read_header(root, out));
  NPKIT_TRY(read_metadata(root, out));
  return read_perf(root, out);
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

}  // namespace npkit::ingest
