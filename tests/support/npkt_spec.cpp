#include "support/npkt_spec.hpp"

#include <charconv>
#include <map>
#include <sstream>
#include <stdexcept>

namespace npkit::test {
namespace {

[[noreturn]] void fail(std::size_t line_no, const std::string& what) {
  throw std::invalid_argument("npkt spec line " + std::to_string(line_no) + ": " + what);
}

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t\r");
  return s.substr(first, last - first + 1);
}

std::vector<std::string> split_words(std::string_view s) {
  std::istringstream in{std::string(s)};
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

// The text after the first `n` words of `line`, trimmed.
std::string rest_after(std::string_view line, std::size_t n) {
  std::size_t pos = 0;
  for (std::size_t i = 0; i < n; ++i) {
    pos = line.find_first_not_of(" \t", pos);
    if (pos == std::string_view::npos) return "";
    pos = line.find_first_of(" \t", pos);
    if (pos == std::string_view::npos) return "";
  }
  return std::string(trim(line.substr(pos)));
}

// Decimal or 0x-hex, optionally negative (stored two's complement).
bool parse_number(std::string_view text, std::uint64_t& value) {
  const bool negative = !text.empty() && text[0] == '-';
  if (negative) text.remove_prefix(1);
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  }
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size()) return false;
  if (negative) value = 0 - value;
  return true;
}

std::uint64_t number(std::string_view text, std::size_t line_no) {
  std::uint64_t v = 0;
  if (!parse_number(text, v)) fail(line_no, "'" + std::string(text) + "' is not a number");
  return v;
}

// key=value words of a statement, consumed one by one; leftovers are an error.
class Fields {
 public:
  Fields(const std::vector<std::string>& words, std::size_t first, std::size_t line_no)
      : line_no_(line_no) {
    for (std::size_t i = first; i < words.size(); ++i) {
      const auto eq = words[i].find('=');
      if (eq == std::string::npos) {
        flags_.push_back(words[i]);
      } else {
        values_[words[i].substr(0, eq)] = words[i].substr(eq + 1);
      }
    }
  }
  bool has(const std::string& key) const { return values_.count(key) != 0; }
  std::string text(const std::string& key) {
    auto it = values_.find(key);
    if (it == values_.end()) return "";
    std::string v = it->second;
    values_.erase(it);
    return v;
  }
  std::uint64_t num(const std::string& key, std::uint64_t fallback = 0) {
    if (!has(key)) return fallback;
    return number(text(key), line_no_);
  }
  std::uint64_t required(const std::string& key) {
    if (!has(key)) fail(line_no_, "missing " + key + "=");
    return num(key);
  }
  bool flag(const std::string& word) {
    for (auto it = flags_.begin(); it != flags_.end(); ++it) {
      if (*it == word) {
        flags_.erase(it);
        return true;
      }
    }
    return false;
  }
  void done() const {
    if (!values_.empty()) fail(line_no_, "unexpected field '" + values_.begin()->first + "='");
    if (!flags_.empty()) fail(line_no_, "unexpected word '" + flags_.front() + "'");
  }

 private:
  std::size_t line_no_;
  std::map<std::string, std::string> values_;
  std::vector<std::string> flags_;
};

// String ids of one file: texts given by `string` lines, then new texts interned above them.
class Interner {
 public:
  void add(std::uint32_t id, const std::string& text) {
    ids_.emplace(text, id);
    if (id > max_id_) max_id_ = id;
  }
  // The id for a field value: a number as is, a text interned into `builder`.
  std::uint16_t id(const std::string& value, NpktBuilder& builder) {
    std::uint64_t n = 0;
    if (parse_number(value, n)) return static_cast<std::uint16_t>(n);
    auto it = ids_.find(value);
    if (it != ids_.end()) return static_cast<std::uint16_t>(it->second);
    add(max_id_ + 1, value);
    builder.string(max_id_, value);
    return static_cast<std::uint16_t>(max_id_);
  }

 private:
  std::map<std::string, std::uint32_t> ids_;
  std::uint32_t max_id_ = 0;
};

std::size_t index_of(const std::vector<std::string>& names, const std::string& name) {
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return i;
  }
  return names.size();
}

std::uint8_t event_type(const std::string& word, std::size_t line_no) {
  const auto& names = standard_event_type_names();
  const std::size_t i = index_of(names, word);
  if (i < names.size()) return static_cast<std::uint8_t>(i);
  static const std::vector<std::string> kCeTypes = {"CeColl", "CeSync", "CeBatch"};
  const std::size_t ce = index_of(kCeTypes, word);
  if (ce < kCeTypes.size()) return static_cast<std::uint8_t>(12 + ce);
  std::uint64_t n = 0;
  if (!parse_number(word, n) || n > 0xFF) fail(line_no, "'" + word + "' is not an event type");
  return static_cast<std::uint8_t>(n);
}

std::uint32_t start_flags(const std::string& text, std::size_t line_no) {
  std::uint64_t n = 0;
  if (parse_number(text, n)) return static_cast<std::uint32_t>(n);
  static const std::map<std::string, std::uint32_t> kFlags = {
      {"null", 1}, {"foreign", 2}, {"other_comm", 4}, {"unknown", 8}};
  std::uint32_t flags = 0;
  std::istringstream in(text);
  for (std::string f; std::getline(in, f, ',');) {
    auto it = kFlags.find(f);
    if (it == kFlags.end()) fail(line_no, "unknown start flag '" + f + "'");
    flags |= it->second;
  }
  return flags;
}

Payload start_payload(const std::string& type, Fields& f, Interner& strings, NpktBuilder& builder) {
  auto str = [&](const std::string& key) -> std::uint16_t {
    return f.has(key) ? strings.id(f.text(key), builder) : 0;
  };
  auto i32 = [&](const std::string& key) { return static_cast<std::int32_t>(f.num(key)); };
  auto u8 = [&](const std::string& key) { return static_cast<std::uint8_t>(f.num(key)); };
  if (type == "GroupApi") return GroupApiStart{i32("depth"), u8("graph_captured")};
  if (type == "CollApi") {
    return CollApiStart{f.num("count"), f.num("stream"), i32("root"),
                        str("func"),    str("datatype"), u8("graph_captured")};
  }
  if (type == "P2pApi") {
    return P2pApiStart{f.num("count"), f.num("stream"), str("func"), str("datatype"),
                       u8("graph_captured")};
  }
  if (type == "KernelLaunch") return KernelLaunchStart{f.num("stream")};
  if (type == "Coll") {
    return CollStart{f.num("seq"), f.num("count"), i32("root"),    str("func"), str("datatype"),
                     str("algo"),  str("proto"),   u8("channels"), u8("warps")};
  }
  if (type == "P2p") {
    return P2pStart{f.num("count"), i32("peer"), str("func"), str("datatype"), u8("channels")};
  }
  if (type == "ProxyOp") {
    return ProxyOpStart{i32("pid"),  i32("peer"),   i32("steps"), i32("chunk_size"),
                        i32("rank"), u8("channel"), u8("send")};
  }
  if (type == "ProxyStep") return ProxyStepStart{i32("step"), i32("rank")};
  if (type == "KernelCh") return KernelChStart{f.num("gpu_start"), u8("channel")};
  if (type == "NetPlugin") return NetPluginStart{static_cast<std::int64_t>(f.num("plugin_id"))};
  if (type == "CeColl") {
    return CeCollStart{
        f.num("seq"),    f.num("count"), i32("root"), str("func"),
        str("datatype"), str("sync"),    u8("intra"), static_cast<std::uint32_t>(f.num("ce_seq"))};
  }
  if (type == "CeSync") return CeSyncStart{i32("ranks"), u8("complete")};
  if (type == "CeBatch") return CeBatchStart{f.num("total_bytes"), i32("ops"), u8("intra")};
  return Payload();
}

void parse_comm(const std::vector<std::string>& words, std::size_t line_no, NpktSpecFile& file) {
  Fields f(words, 1, line_no);
  CommSpec& c = file.builder.comm_info();
  c.comm_hash = f.required("hash");
  c.rank = static_cast<std::int32_t>(f.required("rank"));
  c.nranks = static_cast<std::int32_t>(f.required("nranks"));
  c.nnodes = static_cast<std::int32_t>(f.num("nnodes", c.nnodes));
  c.pid = static_cast<std::int32_t>(f.num("pid", c.pid));
  c.capture_start_ns = static_cast<std::int64_t>(f.num("start_ns", 0));
  c.capture_end_ns = static_cast<std::int64_t>(f.num("end_ns", 0));
  c.end_reason = static_cast<std::uint32_t>(f.num("end_reason", c.end_reason));
  c.clock_method = static_cast<std::uint32_t>(f.num("clock_method", c.clock_method));
  c.profiler_api = static_cast<std::uint32_t>(f.num("profiler_api", c.profiler_api));
  c.host_clock = static_cast<std::uint32_t>(f.num("host_clock", c.host_clock));
  c.event_mask = f.num("event_mask");
  c.records_capacity = f.num("capacity");
  c.records_attempted = f.num("attempted");
  c.records_dropped = f.num("dropped");
  c.records_incomplete = f.num("incomplete");
  c.events_after_dump = f.num("after_dump");
  file.name = f.has("file") ? f.text("file") : file.builder.file_name();
  f.done();
}

void parse_record(const std::vector<std::string>& words, std::size_t line_no, Interner& strings,
                  NpktBuilder& b) {
  if (words.size() < 3) fail(line_no, "expected '" + words[0] + " ID TYPE host=N ...'");
  const std::uint64_t id = number(words[1], line_no);
  const std::uint8_t type = event_type(words[2], line_no);
  Fields f(words, 3, line_no);
  const std::uint64_t host = f.required("host");
  b.on_thread(static_cast<std::uint16_t>(f.num("thread")));
  if (words[0] == "start") {
    const std::uint64_t parent = f.num("parent");
    const std::uint32_t flags = f.has("flags") ? start_flags(f.text("flags"), line_no) : 0;
    b.start(id, parent, type, host, start_payload(words[2], f, strings, b), flags);
  } else if (words[0] == "detail") {
    const std::string kind = f.text("kind");
    if (kind == "ce_coll") {
      b.detail(id, type, host, 1,
               CeCollDetailSpec{f.num("send"), f.num("recv"), f.num("stream"),
                                static_cast<std::uint32_t>(f.num("batch_size")),
                                static_cast<std::uint32_t>(f.num("batches"))});
    } else if (kind == "parent_group") {
      const std::uint32_t flags = f.has("flags") ? start_flags(f.text("flags"), line_no) : 0;
      b.detail(id, type, host, 2, ParentGroupDetailSpec{f.num("group"), flags});
    } else {
      fail(line_no, "detail kind= must be ce_coll or parent_group");
    }
  } else if (words[0] == "state") {
    if (!f.has("state")) fail(line_no, "missing state=");
    const std::string s = f.text("state");
    const auto& names = standard_state_names();
    const std::size_t named = index_of(names, s);
    const std::uint64_t state = named < names.size() ? named : number(s, line_no);
    const std::uint64_t value = f.num("value");
    b.state(id, type, host, static_cast<std::uint32_t>(state), value, !f.flag("no_args"));
  } else {
    b.stop(id, type, host);
  }
  f.done();
}

std::uint32_t word_value(const std::map<std::string, std::uint32_t>& words, const std::string& w,
                         std::size_t line_no, const char* what) {
  const auto it = words.find(w);
  if (it != words.end()) return it->second;
  std::uint64_t n = 0;
  if (!parse_number(w, n)) fail(line_no, "'" + w + "' is not " + what);
  return static_cast<std::uint32_t>(n);
}

void parse_event_name(const std::vector<std::string>& words, std::size_t line_no, NpktBuilder& b) {
  if (words.size() < 4) fail(line_no, "expected 'event_name ID KIND NAME [phase=HINT]'");
  static const std::map<std::string, std::uint32_t> kKinds = {
      {"ENTRY", 1}, {"EXIT", 2}, {"instant", 3}};
  Fields f(words, 4, line_no);
  const std::string phase = f.text("phase");
  f.done();
  b.event_name(static_cast<std::uint32_t>(number(words[1], line_no)),
               word_value(kKinds, words[2], line_no, "an event kind"), words[3], phase);
}

void parse_stream(const std::vector<std::string>& words, std::size_t line_no, Interner& strings,
                  NpktBuilder& b) {
  if (words.size() < 2) fail(line_no, "expected 'stream SOURCE [clock=CLOCK] ...'");
  static const std::map<std::string, std::uint32_t> kSources = {
      {"gpu_block", 1}, {"gpu_warp", 2}, {"host", 3}};
  static const std::map<std::string, std::uint32_t> kClocks = {
      {"timer", 1}, {"cycles", 2}, {"host", 3}};
  StreamSpec s;
  s.source = word_value(kSources, words[1], line_no, "a stream source");
  Fields f(words, 2, line_no);
  s.clock = f.has("clock") ? word_value(kClocks, f.text("clock"), line_no, "a stream clock")
                           : (s.source == 3 ? 3 : 1);
  s.cuda_device = static_cast<std::int32_t>(f.num("device", s.source == 3 ? -1 : 0));
  s.block = static_cast<std::uint32_t>(f.num("block"));
  s.warp = static_cast<std::uint32_t>(f.num("warp"));
  s.os_tid = static_cast<std::int32_t>(f.num("tid"));
  if (f.has("name")) s.name_string = strings.id(f.text("name"), b);
  s.records_dropped = f.num("dropped");
  s.capacity = f.num("capacity");
  s.cycles_per_second = f.num("cps");
  if (f.has("first")) s.first_record = f.num("first");
  if (f.has("written")) s.records_written = f.num("written");
  f.done();
  b.stream(s);
}

void parse_event(const std::vector<std::string>& words, std::size_t line_no, NpktBuilder& b) {
  if (words.size() < 3) fail(line_no, "expected 'event TS ID [size=N] [user=N]'");
  Fields f(words, 3, line_no);
  const std::uint64_t size = f.num("size");
  const auto user = static_cast<std::uint32_t>(f.num("user"));
  f.done();
  try {
    b.event(number(words[1], line_no), static_cast<std::uint16_t>(number(words[2], line_no)), size,
            user);
  } catch (const std::invalid_argument&) {
    fail(line_no, "an event needs a 'stream' line before it");
  }
}

}  // namespace

std::vector<NpktSpecFile> parse_npkt_spec(std::string_view text) {
  std::vector<NpktSpecFile> files;
  std::vector<Interner> interners;
  std::size_t line_no = 0;
  std::istringstream in{std::string(text)};
  for (std::string raw; std::getline(in, raw);) {
    ++line_no;
    const std::string_view line = trim(std::string_view(raw).substr(0, raw.find('#')));
    const auto words = split_words(line);
    if (words.empty()) continue;
    const std::string& verb = words[0];
    if (verb == "comm") {
      files.emplace_back();
      interners.emplace_back();
      parse_comm(words, line_no, files.back());
      continue;
    }
    if (files.empty()) fail(line_no, "expected a 'comm' line first");
    NpktBuilder& b = files.back().builder;
    Interner& strings = interners.back();
    auto need = [&](std::size_t n, const char* usage) {
      if (words.size() < n) fail(line_no, std::string("expected '") + usage + "'");
    };
    if (verb == "meta") {
      need(2, "meta KEY VALUE...");
      b.meta(words[1], rest_after(line, 2));
    } else if (verb == "clock") {
      need(2, "clock init|end before=N after=N gpu=N");
      if (words[1] != "init" && words[1] != "end") fail(line_no, "expected 'init' or 'end'");
      Fields f(words, 2, line_no);
      const auto before = static_cast<std::int64_t>(f.required("before"));
      const auto after = static_cast<std::int64_t>(f.required("after"));
      b.clock_sample(before, after, f.required("gpu"), words[1] == "init" ? 0 : 1);
      f.done();
    } else if (verb == "names") {
      if (words.size() != 2 || words[1] != "standard") fail(line_no, "expected 'names standard'");
      b.standard_names();
    } else if (verb == "name") {
      need(4, "name type|state ID TEXT...");
      if (words[1] != "type" && words[1] != "state") fail(line_no, "expected 'type' or 'state'");
      b.name(words[1] == "type" ? 1 : 2, static_cast<std::uint32_t>(number(words[2], line_no)),
             rest_after(line, 3));
    } else if (verb == "string") {
      need(3, "string ID TEXT...");
      const auto id = static_cast<std::uint32_t>(number(words[1], line_no));
      strings.add(id, rest_after(line, 2));
      b.string(id, rest_after(line, 2));
    } else if (verb == "thread") {
      need(4, "thread SLOT TID NAME");
      b.thread(static_cast<std::uint32_t>(number(words[1], line_no)),
               static_cast<std::int32_t>(number(words[2], line_no)), words[3]);
    } else if (verb == "event_name") {
      parse_event_name(words, line_no, b);
    } else if (verb == "stream") {
      parse_stream(words, line_no, strings, b);
    } else if (verb == "event") {
      parse_event(words, line_no, b);
    } else if (verb == "start" || verb == "state" || verb == "stop" || verb == "detail") {
      parse_record(words, line_no, strings, b);
    } else if (verb == "major" || verb == "minor" || verb == "truncate" || verb == "omit") {
      need(2, "major|minor|truncate|omit N");
      const std::uint64_t n = number(words[1], line_no);
      if (verb == "major") b.major(static_cast<std::uint16_t>(n));
      if (verb == "minor") b.minor(static_cast<std::uint16_t>(n));
      if (verb == "truncate") b.truncate_at(n);
      if (verb == "omit") b.omit(static_cast<std::uint32_t>(n));
    } else {
      fail(line_no, "unknown statement '" + verb + "'");
    }
  }
  return files;
}

std::string write_npkt_spec(const TempDir& tmp, std::string_view text, std::string_view subdir) {
  const std::string dir = tmp.make_dir(subdir);
  for (const auto& f : parse_npkt_spec(text)) f.builder.write(dir + "/" + f.name);
  return dir;
}

}  // namespace npkit::test
