#include "import/flight_recorder/fr_decode.hpp"

#include <fmt/format.h>

#include <charconv>
#include <optional>
#include <string_view>
#include <unordered_map>

namespace npkit {
namespace {

constexpr int kKnownMinorLow = 4;
constexpr int kKnownMinorHigh = 10;

class Decoder {
 public:
  Decoder(const std::string& name, const DataTree& tree, std::uint64_t file_bytes)
      : name_(name),
        tree_(tree),
        elements_left_(4 * file_bytes + 65536),
        bytes_left_(32 * file_bytes + (1u << 20)) {}

  Result<FlightRecorderDump> run(std::vector<std::string>& notes);

 private:
  Error at(std::uint32_t id, const std::string& path, std::string_view what) const {
    return Error{fmt::format("{}: offset {}: {}: {}", name_, tree_.node(id).offset, path, what)};
  }
  Error wrong(std::uint32_t id, const std::string& path, std::string_view expected) const {
    return at(id, path,
              fmt::format("expected {}, found {}", expected, data_kind_name(tree_.node(id).kind)));
  }
  DataKind kind(std::uint32_t id) const { return tree_.node(id).kind; }
  std::optional<std::uint32_t> field(std::uint32_t dict, std::string_view key) const {
    const std::int64_t v = tree_.find(dict, key);
    if (v < 0) return std::nullopt;
    return static_cast<std::uint32_t>(v);
  }
  Result<std::uint32_t> required(std::uint32_t dict, const std::string& path,
                                 std::string_view key) const {
    const auto v = field(dict, key);
    if (!v) return at(dict, path, fmt::format("missing field \"{}\"", key));
    return *v;
  }
  // The elements of a list or tuple (of a dict: its keys and values, alternating), counted
  // against the walking budget.
  Result<const std::vector<std::uint32_t>*> sequence(std::uint32_t id, const std::string& path,
                                                     DataKind want = DataKind::kList);
  Result<std::string> text(std::uint32_t id, const std::string& path);
  Result<std::int64_t> integer(std::uint32_t id, const std::string& path);
  // An integer given as one, or as a decimal string (JSON dumps' pg_status).
  Result<std::int64_t> integer_or_text(std::uint32_t id, const std::string& path);
  Result<bool> boolean(std::uint32_t id, const std::string& path);
  Result<std::vector<std::vector<std::int64_t>>> sizes(std::uint32_t id, const std::string& path);
  Result<std::vector<std::string>> texts(std::uint32_t id, const std::string& path);
  Result<std::vector<std::int64_t>> ranks(std::uint32_t id, const std::string& path);
  Status groups(std::uint32_t id, FlightRecorderDump& dump);
  Status status(std::uint32_t id, FlightRecorderDump& dump);
  Result<std::uint32_t> frame(std::uint32_t id, const std::string& path, FlightRecorderDump& dump);
  Result<FrEntry> entry(std::uint32_t id, const std::string& path, FlightRecorderDump& dump);

  const std::string& name_;
  const DataTree& tree_;
  std::uint64_t elements_left_;
  std::uint64_t bytes_left_;
  std::unordered_map<std::uint32_t, std::uint32_t> frame_of_node_;
};

Result<const std::vector<std::uint32_t>*> Decoder::sequence(std::uint32_t id,
                                                            const std::string& path,
                                                            DataKind want) {
  if (want == DataKind::kDict && kind(id) != DataKind::kDict) return wrong(id, path, "a dict");
  if (want != DataKind::kDict && kind(id) != DataKind::kList && kind(id) != DataKind::kTuple) {
    return wrong(id, path, "a list");
  }
  const auto& items = tree_.items(id);
  if (items.size() > elements_left_) {
    return at(id, path,
              "the dump refers to its values more often than its size allows "
              "(a memo bomb?)");
  }
  elements_left_ -= items.size();
  return &items;
}

Result<std::string> Decoder::text(std::uint32_t id, const std::string& path) {
  if (kind(id) != DataKind::kString) return wrong(id, path, "a string");
  const std::string_view s = tree_.text(id);
  if (s.size() > bytes_left_) {
    return at(id, path,
              "the dump repeats its strings more often than its size allows "
              "(a memo bomb?)");
  }
  bytes_left_ -= s.size();
  return std::string(s);
}

Result<std::int64_t> Decoder::integer(std::uint32_t id, const std::string& path) {
  if (kind(id) != DataKind::kInt) return wrong(id, path, "an integer");
  return tree_.node(id).i;
}

Result<std::int64_t> Decoder::integer_or_text(std::uint32_t id, const std::string& path) {
  if (kind(id) != DataKind::kString) return integer(id, path);
  const std::string_view s = tree_.text(id);
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || end != s.data() + s.size()) {
    return at(id, path,
              fmt::format("expected an integer, found the string \"{}\"", s.substr(0, 32)));
  }
  return v;
}

Result<bool> Decoder::boolean(std::uint32_t id, const std::string& path) {
  if (kind(id) != DataKind::kBool) return wrong(id, path, "a bool");
  return tree_.node(id).i != 0;
}

Result<std::vector<std::vector<std::int64_t>>> Decoder::sizes(std::uint32_t id,
                                                              const std::string& path) {
  NPKIT_ASSIGN(const auto* tensors, sequence(id, path));
  std::vector<std::vector<std::int64_t>> out;
  for (std::size_t t = 0; t < tensors->size(); ++t) {
    const std::string at_t = fmt::format("{}[{}]", path, t);
    NPKIT_ASSIGN(const auto* dims, sequence((*tensors)[t], at_t));
    std::vector<std::int64_t> shape;
    for (std::size_t d = 0; d < dims->size(); ++d) {
      NPKIT_ASSIGN(const std::int64_t n, integer((*dims)[d], fmt::format("{}[{}]", at_t, d)));
      shape.push_back(n);
    }
    out.push_back(std::move(shape));
  }
  return out;
}

Result<std::vector<std::string>> Decoder::texts(std::uint32_t id, const std::string& path) {
  NPKIT_ASSIGN(const auto* items, sequence(id, path));
  std::vector<std::string> out;
  for (std::size_t i = 0; i < items->size(); ++i) {
    NPKIT_ASSIGN(auto s, text((*items)[i], fmt::format("{}[{}]", path, i)));
    out.push_back(std::move(s));
  }
  return out;
}

// "[0, 1, 2]" (PyTorch writes the global ranks as text) or a list of integers.
Result<std::vector<std::int64_t>> Decoder::ranks(std::uint32_t id, const std::string& path) {
  std::vector<std::int64_t> out;
  if (kind(id) != DataKind::kString) {
    NPKIT_ASSIGN(const auto* items, sequence(id, path));
    for (std::size_t i = 0; i < items->size(); ++i) {
      NPKIT_ASSIGN(const std::int64_t r, integer((*items)[i], fmt::format("{}[{}]", path, i)));
      out.push_back(r);
    }
    return out;
  }
  std::string_view s = tree_.text(id);
  const auto bad = [&] {
    return at(id, path,
              fmt::format("expected global ranks \"[0, 1, ...]\", found \"{}\"", s.substr(0, 48)));
  };
  if (s.size() < 2 || s.front() != '[' || s.back() != ']') return bad();
  std::string_view rest = s.substr(1, s.size() - 2);
  while (!rest.empty()) {
    while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
    std::int64_t r = 0;
    const auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), r);
    if (ec != std::errc{} || r < 0) return bad();
    out.push_back(r);
    rest.remove_prefix(static_cast<std::size_t>(end - rest.data()));
    while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
    if (rest.empty()) break;
    if (rest.front() != ',') return bad();
    rest.remove_prefix(1);
    if (rest.empty()) return bad();
  }
  if (out.size() > elements_left_) return at(id, path, "more ranks than the dump's size allows");
  elements_left_ -= out.size();
  return out;
}

Status Decoder::groups(std::uint32_t id, FlightRecorderDump& dump) {
  NPKIT_ASSIGN(const auto* items, sequence(id, "pg_config", DataKind::kDict));
  for (std::size_t i = 0; i + 1 < items->size(); i += 2) {
    const std::uint32_t g = (*items)[i + 1];
    NPKIT_ASSIGN(const std::string key, text((*items)[i], "pg_config"));
    const std::string path = fmt::format("pg_config[\"{}\"]", key);
    if (kind(g) != DataKind::kDict) return wrong(g, path, "a dict");
    FrGroup group;
    group.name = key;
    if (const auto n = field(g, "name")) {
      NPKIT_ASSIGN(group.name, text(*n, path + ".name"));
    }
    if (const auto d = field(g, "desc")) {
      NPKIT_ASSIGN(group.desc, text(*d, path + ".desc"));
    }
    if (const auto r = field(g, "ranks")) {
      NPKIT_ASSIGN(group.ranks, ranks(*r, path + ".ranks"));
    }
    dump.groups.push_back(std::move(group));
  }
  return Ok{};
}

Status Decoder::status(std::uint32_t id, FlightRecorderDump& dump) {
  NPKIT_ASSIGN(const auto* items, sequence(id, "pg_status", DataKind::kDict));
  for (std::size_t i = 0; i + 1 < items->size(); i += 2) {
    const std::uint32_t s = (*items)[i + 1];
    FrGroupStatus st;
    if (kind((*items)[i]) == DataKind::kInt) {
      st.pg_id = std::to_string(tree_.node((*items)[i]).i);
    } else {
      NPKIT_ASSIGN(st.pg_id, text((*items)[i], "pg_status"));
    }
    const std::string path = fmt::format("pg_status[\"{}\"]", st.pg_id);
    if (kind(s) != DataKind::kDict) return wrong(s, path, "a dict");
    for (auto [key, out] : {std::pair{"last_enqueued_collective", &st.last_enqueued},
                            std::pair{"last_started_collective", &st.last_started},
                            std::pair{"last_completed_collective", &st.last_completed}}) {
      if (const auto v = field(s, key)) {
        NPKIT_ASSIGN(*out, integer_or_text(*v, path + "." + key));
      }
    }
    dump.status.push_back(std::move(st));
  }
  return Ok{};
}

Result<std::uint32_t> Decoder::frame(std::uint32_t id, const std::string& path,
                                     FlightRecorderDump& dump) {
  if (const auto it = frame_of_node_.find(id); it != frame_of_node_.end()) return it->second;
  if (kind(id) != DataKind::kDict) return wrong(id, path, "a dict");
  FrFrame f;
  if (const auto n = field(id, "name")) {
    NPKIT_ASSIGN(f.name, text(*n, path + ".name"));
  }
  if (const auto n = field(id, "filename")) {
    NPKIT_ASSIGN(f.filename, text(*n, path + ".filename"));
  }
  if (const auto n = field(id, "line")) {
    NPKIT_ASSIGN(f.line, integer(*n, path + ".line"));
  }
  const auto index = static_cast<std::uint32_t>(dump.frames.size());
  dump.frames.push_back(std::move(f));
  frame_of_node_.emplace(id, index);
  return index;
}

Result<FrEntry> Decoder::entry(std::uint32_t id, const std::string& path,
                               FlightRecorderDump& dump) {
  if (kind(id) != DataKind::kDict) return wrong(id, path, "a dict");
  FrEntry e;
  const auto p = [&](std::string_view key) { return fmt::format("{}.{}", path, key); };
  NPKIT_ASSIGN(const std::uint32_t record_id, required(id, path, "record_id"));
  NPKIT_ASSIGN(e.record_id, integer(record_id, p("record_id")));
  NPKIT_ASSIGN(const std::uint32_t group, required(id, path, "process_group"));
  NPKIT_ASSIGN(const auto* names, sequence(group, p("process_group")));
  if (names->size() != 2) {
    return at(group, p("process_group"),
              fmt::format("expected (name, description), found {} value(s)", names->size()));
  }
  NPKIT_ASSIGN(e.pg_name, text((*names)[0], p("process_group[0]")));
  NPKIT_ASSIGN(e.pg_desc, text((*names)[1], p("process_group[1]")));
  NPKIT_ASSIGN(const std::uint32_t seq, required(id, path, "collective_seq_id"));
  NPKIT_ASSIGN(e.collective_seq_id, integer(seq, p("collective_seq_id")));
  NPKIT_ASSIGN(const std::uint32_t pname, required(id, path, "profiling_name"));
  NPKIT_ASSIGN(e.profiling_name, text(pname, p("profiling_name")));
  NPKIT_ASSIGN(const std::uint32_t created, required(id, path, "time_created_ns"));
  NPKIT_ASSIGN(e.time_created_ns, integer(created, p("time_created_ns")));
  NPKIT_ASSIGN(const std::uint32_t state, required(id, path, "state"));
  NPKIT_ASSIGN(const std::string state_text, text(state, p("state")));
  if (state_text == "scheduled") {
    e.state = FrState::kScheduled;
  } else if (state_text == "started") {
    e.state = FrState::kStarted;
  } else if (state_text == "completed") {
    e.state = FrState::kCompleted;
  } else {
    return at(state, p("state"),
              fmt::format("expected scheduled, started or completed, found \"{}\"",
                          std::string_view(state_text).substr(0, 32)));
  }
  for (auto [key, out] : {std::pair{"pg_id", &e.pg_id}, std::pair{"p2p_seq_id", &e.p2p_seq_id},
                          std::pair{"op_id", &e.op_id}}) {
    if (const auto v = field(id, key)) {
      NPKIT_ASSIGN(*out, integer(*v, p(key)));
    }
  }
  if (const auto v = field(id, "duration_ms"); v && kind(*v) != DataKind::kNone) {
    if (kind(*v) == DataKind::kInt) {
      e.duration_ms = static_cast<double>(tree_.node(*v).i);
    } else if (kind(*v) == DataKind::kFloat) {
      e.duration_ms = tree_.node(*v).d;
    } else {
      return wrong(*v, p("duration_ms"), "a number");
    }
  }
  for (auto [key, out] :
       {std::pair{"time_discovered_started_ns", &e.time_discovered_started_ns},
        std::pair{"time_discovered_completed_ns", &e.time_discovered_completed_ns},
        std::pair{"timeout_ms", &e.timeout_ms}}) {
    const auto v = field(id, key);
    if (!v || kind(*v) == DataKind::kNone) continue;
    NPKIT_ASSIGN(const std::int64_t t, integer(*v, p(key)));
    // JSON dumps write 0 for a time not yet discovered.
    if (t != 0 || std::string_view(key) == "timeout_ms") *out = t;
  }
  if (const auto v = field(id, "input_sizes")) {
    NPKIT_ASSIGN(e.input_sizes, sizes(*v, p("input_sizes")));
  }
  if (const auto v = field(id, "output_sizes")) {
    NPKIT_ASSIGN(e.output_sizes, sizes(*v, p("output_sizes")));
  }
  if (const auto v = field(id, "input_dtypes")) {
    NPKIT_ASSIGN(e.input_dtypes, texts(*v, p("input_dtypes")));
  }
  if (const auto v = field(id, "output_dtypes")) {
    NPKIT_ASSIGN(e.output_dtypes, texts(*v, p("output_dtypes")));
  }
  if (const auto v = field(id, "retired")) {
    NPKIT_ASSIGN(e.retired, boolean(*v, p("retired")));
  }
  if (const auto v = field(id, "is_p2p")) {
    NPKIT_ASSIGN(e.is_p2p, boolean(*v, p("is_p2p")));
  }
  if (const auto v = field(id, "thread_name")) {
    NPKIT_ASSIGN(e.thread_name, text(*v, p("thread_name")));
  }
  if (const auto v = field(id, "thread_id")) {
    if (kind(*v) == DataKind::kInt) {
      e.thread_id = std::to_string(tree_.node(*v).i);
    } else {
      NPKIT_ASSIGN(e.thread_id, text(*v, p("thread_id")));
    }
  }
  if (const auto v = field(id, "frames")) {
    NPKIT_ASSIGN(const auto* frames, sequence(*v, p("frames")));
    for (std::size_t i = 0; i < frames->size(); ++i) {
      NPKIT_ASSIGN(const std::uint32_t f,
                   frame((*frames)[i], fmt::format("{}.frames[{}]", path, i), dump));
      e.frames.push_back(f);
    }
  }
  return e;
}

Result<FlightRecorderDump> Decoder::run(std::vector<std::string>& notes) {
  FlightRecorderDump dump;
  const std::uint32_t root = tree_.root;
  if (kind(root) != DataKind::kDict) return wrong(root, "the dump", "a dict");
  NPKIT_ASSIGN(const std::uint32_t version, required(root, "the dump", "version"));
  NPKIT_ASSIGN(dump.version, text(version, "version"));
  int major = 0;
  int minor = 0;
  const std::string_view v = dump.version;
  const std::size_t dot = v.find('.');
  const auto [major_end, major_ec] = std::from_chars(v.data(), v.data() + v.size(), major);
  const bool parsed =
      dot != std::string_view::npos && major_ec == std::errc{} && major_end == v.data() + dot &&
      std::from_chars(v.data() + dot + 1, v.data() + v.size(), minor).ptr == v.data() + v.size();
  if (!parsed || major != 2) {
    return at(version, "version",
              fmt::format("format version \"{}\"; this reader knows Flight Recorder format 2 "
                          "(2.{} to 2.{})",
                          v.substr(0, 16), kKnownMinorLow, kKnownMinorHigh));
  }
  if (minor < kKnownMinorLow || minor > kKnownMinorHigh) {
    notes.push_back(
        fmt::format("{}: format version {} is {} than the versions this reader knows "
                    "(2.{} to 2.{}); read by the fields 2.{} has",
                    name_, dump.version, minor > kKnownMinorHigh ? "newer" : "older",
                    kKnownMinorLow, kKnownMinorHigh, kKnownMinorHigh));
  }
  for (const char* key : {"comm_lib_version", "nccl_version"}) {
    if (const auto c = field(root, key); c && dump.comm_lib_version.empty()) {
      NPKIT_ASSIGN(dump.comm_lib_version, text(*c, key));
    }
  }
  if (const auto g = field(root, "pg_config")) NPKIT_TRY(groups(*g, dump));
  if (const auto s = field(root, "pg_status")) NPKIT_TRY(status(*s, dump));
  if (const auto list = field(root, "entries")) {
    NPKIT_ASSIGN(const auto* entries, sequence(*list, "entries"));
    for (std::size_t i = 0; i < entries->size(); ++i) {
      NPKIT_ASSIGN(auto e, entry((*entries)[i], fmt::format("entries[{}]", i), dump));
      dump.entries.push_back(std::move(e));
    }
  }
  return dump;
}

}  // namespace

Result<FlightRecorderDump> decode_flight_recorder(const std::string& name, const DataTree& tree,
                                                  std::uint64_t file_bytes,
                                                  std::vector<std::string>& notes) {
  Decoder decoder(name, tree, file_bytes);
  return decoder.run(notes);
}

}  // namespace npkit
