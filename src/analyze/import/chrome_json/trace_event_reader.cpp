#include "import/chrome_json/trace_event_reader.hpp"

#include <simdjson.h>

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "import/chrome_json/json_number.hpp"
#include "import/chrome_json/trace_byte_source.hpp"
#include "util/out_of_memory.hpp"

namespace npkit {
namespace {

namespace od = simdjson::ondemand;

constexpr std::size_t kNone = static_cast<std::size_t>(-1);
constexpr std::size_t kSlack = 1;  // a writable byte before the data: the run's opening '['
// After the data: simdjson's padding, plus the byte a run's closing ']' may take at the end.
constexpr std::size_t kPadding = simdjson::SIMDJSON_PADDING + 1;
constexpr std::size_t kMaxOutsideBytes = std::size_t{64} << 20;  // members outside the array
constexpr std::string_view kTraceEventsKey = "\"traceEvents\"";

bool is_ws(char c) {
  return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

std::string_view trim_end(std::string_view s) {
  while (!s.empty() && is_ws(s.back())) s.remove_suffix(1);
  return s;
}

// An exact walk over array elements: strings (with escapes) and nesting.
struct ArrayScan {
  std::size_t array_end = kNone;   // the ']' that closes the array
  std::size_t last_comma = kNone;  // the last top-level ',' before it (or before the end)
  std::size_t stray = kNone;       // a '}' at top level: the array cannot continue
  int depth = 0;
  bool in_string = false;
};

ArrayScan scan_array(const char* p, std::size_t from, std::size_t to) {
  ArrayScan s;
  bool escape = false;
  for (std::size_t i = from; i < to; ++i) {
    const char c = p[i];
    if (s.in_string) {
      if (escape) {
        escape = false;
      } else if (c == '\\') {
        escape = true;
      } else if (c == '"') {
        s.in_string = false;
      }
      continue;
    }
    switch (c) {
      case '"':
        s.in_string = true;
        break;
      case '{':
      case '[':
        ++s.depth;
        break;
      case '}':
      case ']':
        if (s.depth == 0) {
          (c == ']' ? s.array_end : s.stray) = i;
          return s;
        }
        --s.depth;
        break;
      case ',':
        if (s.depth == 0) s.last_comma = i;
        break;
      default:
        break;
    }
  }
  return s;
}

// The key of a member as written (without quotes); empty when it holds an escape sequence.
std::string_view raw_key(od::field& f) {
  const char* k = f.key().raw();
  std::size_t n = 0;
  while (k[n] != '"') {
    if (k[n] == '\\') return {};
    ++n;
  }
  return {k, n};
}

struct RunOutcome {
  bool parsed = false;     // the run was valid JSON and every event was delivered
  bool stopped = false;    // the visitor asked to stop
  std::uint64_t seen = 0;  // elements walked (delivered or skipped as already delivered)
  std::uint64_t error_offset = 0;
  std::string error;
};

class Reader {
 public:
  Reader(std::string name, ByteSource& source, TraceEventVisitor& visitor,
         const TraceReadOptions& options, Diagnostics& diagnostics)
      : name_(std::move(name)),
        source_(source),
        visitor_(visitor),
        options_(options),
        diagnostics_(diagnostics),
        chunk_(std::max<std::size_t>(options.chunk_bytes, 4096)) {
    cap_ = chunk_;
    buf_.assign(kSlack + cap_ + kPadding, '\0');
    pos_ = end_ = kSlack;
  }

  Result<TraceReadSummary> run() {
    NPKIT_TRY(need(chunk_));
    if (end_ - pos_ >= 3 && std::memcmp(buf_.data() + pos_, "\xEF\xBB\xBF", 3) == 0) pos_ += 3;
    NPKIT_ASSIGN(auto more, skip_ws());
    if (!more) return Error{name_ + ": empty file (a Chrome trace is a JSON array or object)"};
    const char first = buf_[pos_];
    if (first == '[') {
      ++pos_;
      NPKIT_TRY(visitor_.on_header(summary_.header));
    } else if (first == '{') {
      summary_.header.object_form = true;
      NPKIT_TRY(read_header());
      NPKIT_TRY(visitor_.on_header(summary_.header));
    } else {
      return error_at(pos_,
                      "expected '[' or '{' (a Chrome trace is a JSON array of events or "
                      "an object with a \"traceEvents\" array)");
    }
    NPKIT_TRY(read_events());
    summary_.stopped_early = stopped_;
    summary_.bytes = offset(end_);
    return std::move(summary_);
  }

 private:
  std::uint64_t offset(std::size_t i) const { return origin_ + (i - kSlack); }

  Error error_at(std::size_t i, const std::string& what) const {
    return Error{fmt::format("{}: offset {}: {}", name_, offset(i), what)};
  }
  void warn_at(std::string_view category, std::size_t i, const std::string& what) {
    diagnostics_.warn(category, fmt::format("{}: offset {}: {}", name_, offset(i), what));
  }

  // Makes [pos_, pos_ + bytes) hold input (or all of the rest of it): moves the unread bytes to
  // the front and grows the buffer when it is too small.
  Status need(std::size_t bytes) {
    if (end_ - pos_ >= bytes || eof_) return Ok{};
    if (pos_ > kSlack) {
      std::memmove(buf_.data() + kSlack, buf_.data() + pos_, end_ - pos_);
      origin_ += pos_ - kSlack;
      end_ -= pos_ - kSlack;
      pos_ = kSlack;
    }
    if (bytes > cap_) {
      if (bytes > TraceReadOptions::kMaxEventBytes + chunk_) {
        return error_at(pos_, fmt::format("an event larger than {} MiB",
                                          TraceReadOptions::kMaxEventBytes >> 20));
      }
      cap_ = std::max(bytes, 2 * cap_);
      buf_.resize(kSlack + cap_ + kPadding, '\0');
    }
    while (!eof_ && end_ - pos_ < bytes) {
      NPKIT_ASSIGN(auto got, source_.read(buf_.data() + end_, kSlack + cap_ - end_));
      if (got == 0) eof_ = true;
      end_ += got;
    }
    std::memset(buf_.data() + end_, 0, kPadding);
    return Ok{};
  }

  // Skips whitespace, reading on as needed; false at the end of the input.
  Result<bool> skip_ws() {
    for (;;) {
      while (pos_ < end_ && is_ws(buf_[pos_])) ++pos_;
      if (pos_ < end_) return true;
      if (eof_) return false;
      NPKIT_TRY(need(chunk_));
    }
  }

  // Parses the object text [open, close] (buf_[close] is the '}' or a ',' standing in for it)
  // and appends its members to the header; false (header untouched) when it is not valid JSON.
  bool parse_members(std::size_t open, std::size_t close) {
    std::string text(buf_.data() + open, close + 1 - open);
    text.back() = '}';
    if (text.front() == ',') text.front() = '{';
    simdjson::padded_string padded(text);
    simdjson::dom::element root;
    if (dom_.parse(padded).get(root)) return false;
    simdjson::dom::object members;
    if (root.get_object().get(members)) return false;
    const auto as_text = [](simdjson::dom::element v) {
      std::string_view s;
      if (!v.get_string().get(s)) return std::string(s);
      return simdjson::to_string(v);
    };
    for (auto member : members) {
      simdjson::dom::object other;
      if (member.key == "otherData" && !member.value.get_object().get(other)) {
        for (auto m : other) summary_.header.other_data.emplace_back(m.key, as_text(m.value));
      } else if (member.key != "traceEvents") {
        summary_.header.top_level.emplace_back(member.key, as_text(member.value));
      }
    }
    return true;
  }

  // pos_ is at the object's '{': finds the top-level "traceEvents" member, reads the members
  // before it, and leaves pos_ after the array's '['.
  Status read_header() {
    std::size_t search = 1;  // relative to pos_ (the '{'), which need() keeps in place
    for (;;) {
      const std::string_view data(buf_.data() + pos_, end_ - pos_);
      const std::size_t k = data.find(kTraceEventsKey, search);
      if (k == std::string_view::npos) {
        if (eof_) return error_at(pos_, "the object has no top-level \"traceEvents\" array");
        if (data.size() > kMaxOutsideBytes) {
          return error_at(pos_, fmt::format("no top-level \"traceEvents\" array in the first {} "
                                            "MiB",
                                            kMaxOutsideBytes >> 20));
        }
        search = data.size() >= kTraceEventsKey.size() ? data.size() - kTraceEventsKey.size() : 1;
        NPKIT_TRY(need(data.size() + chunk_));
        continue;
      }
      std::size_t j = k - 1;
      while (j > 0 && is_ws(data[j])) --j;
      const bool first_member = j == 0;
      if (!first_member && (data[j] != ',' || !parse_members(pos_, pos_ + j))) {
        search = k + 1;  // inside a string or a nested value: not the top-level member
        continue;
      }
      // The value: ':' then '[' (whitespace allowed around both).
      std::size_t i = k + kTraceEventsKey.size();
      for (char expected : {':', '['}) {
        for (;;) {
          while (pos_ + i < end_ && is_ws(buf_[pos_ + i])) ++i;
          if (pos_ + i < end_ || eof_) break;
          NPKIT_TRY(need(end_ - pos_ + chunk_));
        }
        if (pos_ + i >= end_ || buf_[pos_ + i] != expected) {
          return error_at(pos_ + std::min(i, end_ - pos_),
                          expected == ':' ? "expected ':' after \"traceEvents\""
                                          : "\"traceEvents\" is not an array");
        }
        ++i;
      }
      pos_ += i;
      return Ok{};
    }
  }

  // The last `}` `,` `{` in [from, to): the ',' between two whole events, or kNone.
  std::size_t find_cut(std::size_t from, std::size_t to) const {
    const char* p = buf_.data();
    std::size_t i = to;
    while (i > from) {
      const void* q = memrchr(p + from, '{', i - from);
      if (q == nullptr) return kNone;
      const std::size_t brace = static_cast<std::size_t>(static_cast<const char*>(q) - p);
      std::size_t j = brace;
      while (j > from && is_ws(p[j - 1])) --j;
      if (j > from && p[j - 1] == ',') {
        std::size_t k = j - 1;
        while (k > from && is_ws(p[k - 1])) --k;
        if (k > from && p[k - 1] == '}') return j - 1;
      }
      i = brace;
    }
    return kNone;
  }

  void note_bad(std::string_view key) {
    if (!bad_fields_.empty()) bad_fields_ += ',';
    bad_fields_ += key;
  }

  // Reads the members of one event object into event_; a JSON syntax error stops it.
  simdjson::error_code decode_event(od::object& obj) {
    TraceEvent& e = event_;
    e.fields = 0;
    e.ph = e.name = e.cat = e.id = {};
    e.has_ph = e.has_name = e.has_cat = e.has_id = false;
    e.pid.reset();
    e.tid.reset();
    e.ts_ns.reset();
    e.dur_ns.reset();
    e.args.clear();
    e.dropped_args = 0;
    bad_fields_.clear();
    for (auto member : obj) {
      od::field f;
      if (const auto code = std::move(member).get(f)) return code;
      ++e.fields;
      const std::string_view key = raw_key(f);
      od::value v = f.value();
      od::json_type type;
      if (key.empty() || v.type().get(type)) {
        if (!key.empty()) note_bad(key);
        continue;
      }
      if (key == "ph" || key == "name" || key == "cat") {
        std::string_view s;
        if (type != od::json_type::string) {
          note_bad(key);
          continue;
        }
        if (const auto code = v.get_string().get(s)) return code;
        if (key == "ph") {
          e.ph = s;
          e.has_ph = true;
        } else if (key == "name") {
          e.name = s;
          e.has_name = true;
        } else {
          e.cat = s;
          e.has_cat = true;
        }
      } else if (key == "ts" || key == "dur") {
        std::optional<std::int64_t> ns;
        if (type == od::json_type::number) ns = decimal_to_scaled_int(number_text(v), 3);
        if (!ns) {
          note_bad(key);
          continue;
        }
        (key == "ts" ? e.ts_ns : e.dur_ns) = ns;
      } else if (key == "pid" || key == "tid") {
        std::optional<std::int64_t> n;
        std::string_view s;
        if (type == od::json_type::number) {
          n = parse_json_int(number_text(v));
        } else if (type == od::json_type::string) {
          if (const auto code = v.get_string().get(s)) return code;
          n = parse_json_int(s);
        }
        if (!n) {
          note_bad(key);
          continue;
        }
        (key == "pid" ? e.pid : e.tid) = n;
      } else if (key == "id") {
        if (type == od::json_type::string) {
          if (const auto code = v.get_string().get(e.id)) return code;
        } else if (type == od::json_type::number) {
          e.id = number_text(v);
        } else {
          note_bad(key);
          continue;
        }
        e.has_id = true;
      } else if (key == "args") {
        od::object args;
        if (type != od::json_type::object) {
          note_bad(key);
          continue;
        }
        if (const auto code = v.get_object().get(args)) return code;
        if (const auto code = decode_args(args)) return code;
      }
    }
    e.bad_fields = bad_fields_;
    return simdjson::SUCCESS;
  }

  static std::string_view number_text(od::value& v) { return trim_end(v.raw_json_token()); }

  simdjson::error_code decode_args(od::object& args) {
    TraceEvent& e = event_;
    for (auto member : args) {
      od::field f;
      if (const auto code = std::move(member).get(f)) return code;
      if (e.args.size() >= TraceEvent::kMaxArgs) {
        ++e.dropped_args;
        continue;
      }
      EventArg a;
      a.key = raw_key(f);
      if (a.key.empty()) continue;
      od::value v = f.value();
      od::json_type type;
      if (v.type().get(type)) {
        a.kind = EventArgKind::kLiteral;  // not JSON (e.g. an unquoted pointer): kept as text
        a.text = number_text(v);
      } else if (type == od::json_type::string) {
        if (const auto code = v.get_string().get(a.text)) return code;
        a.kind = EventArgKind::kString;
      } else if (type == od::json_type::number) {
        a.kind = EventArgKind::kNumber;
        a.text = number_text(v);
      } else if (type == od::json_type::boolean || type == od::json_type::null) {
        a.kind = EventArgKind::kLiteral;
        a.text = number_text(v);
      } else if (type == od::json_type::array) {
        od::array arr;
        if (const auto code = v.get_array().get(arr)) return code;
        std::size_t n = 0;
        bool integers = true;
        for (auto item : arr) {
          od::value x;
          if (const auto code = item.get(x)) return code;
          od::json_type t;
          std::optional<std::int64_t> k;
          if (!x.type().get(t) && t == od::json_type::number) k = parse_json_int(number_text(x));
          if (!k) integers = false;
          if (n < 2 && k) a.pair[n] = *k;
          ++n;
        }
        a.kind = integers && n == 2 ? EventArgKind::kPair : EventArgKind::kOther;
      }
      e.args.push_back(a);
    }
    return simdjson::SUCCESS;
  }

  // Parses the elements in [from, cut) as one document — buf_[from - 1] and buf_[cut] stand in
  // for '[' and ']' meanwhile — and delivers those after the first `skip`.
  Status parse_run(std::size_t from, std::size_t cut, std::uint64_t skip, RunOutcome& out) {
    char* const p = buf_.data();
    const char saved_open = p[from - 1];
    const char saved_close = p[cut];
    p[from - 1] = '[';
    p[cut] = ']';
    struct Restore {
      char* p;
      std::size_t open, close;
      char a, b;
      ~Restore() {
        p[open] = a;
        p[close] = b;
      }
    } restore{p, from - 1, cut, saved_open, saved_close};

    const char* base = p + from - 1;
    const auto fail = [&](simdjson::error_code code, const char* where, std::uint64_t fallback) {
      out.error = simdjson::error_message(code);
      out.error_offset = where != nullptr && where >= base && where <= p + cut
                             ? offset(static_cast<std::size_t>(where - p))
                             : fallback;
    };
    od::document doc;
    simdjson::error_code code =
        parser_.iterate(base, cut + 1 - (from - 1), buf_.size() - (from - 1)).get(doc);
    if (code) {
      fail(code, nullptr, offset(from));
      return Ok{};
    }
    od::array arr;
    if ((code = doc.get_array().get(arr))) {
      fail(code, nullptr, offset(from));
      return Ok{};
    }
    std::uint64_t last_offset = offset(from);
    for (auto item : arr) {
      od::value v;
      if ((code = item.get(v))) break;
      const char* at = nullptr;
      if (!v.current_location().get(at)) last_offset = offset(static_cast<std::size_t>(at - p));
      od::json_type type;
      if ((code = v.type().get(type))) break;
      if (type != od::json_type::object) {
        if (out.seen++ >= skip) {
          diagnostics_.warn("trace element not an object",
                            fmt::format("{}: offset {}: an element of the event array that is not "
                                        "an object was skipped",
                                        name_, last_offset));
        }
        continue;
      }
      od::object obj;
      if ((code = v.get_object().get(obj))) break;
      if ((code = decode_event(obj))) break;
      if (out.seen++ < skip) continue;
      event_.offset = last_offset;
      ++summary_.events;
      NPKIT_TRY(visitor_.on_event(event_));
      if (visitor_.done()) {
        out.stopped = true;
        out.parsed = true;
        return Ok{};
      }
    }
    if (code) {
      const char* where = nullptr;
      if (doc.current_location().get(where)) where = nullptr;
      fail(code, where, last_offset);
      return Ok{};
    }
    out.parsed = true;
    return Ok{};
  }

  // Delivers the events in [pos_, cut) (buf_[cut] is a top-level ',' or the array's ']'),
  // cutting again by an exact scan when the cut proves wrong; `run_seen_` counts the elements
  // starting at pos_ that were already delivered, so none is delivered twice.
  Status deliver(std::size_t cut, bool exact) {
    RunOutcome out;
    NPKIT_TRY(parse_run(pos_, cut, run_seen_, out));
    if (out.stopped) {
      stopped_ = true;
      return Ok{};
    }
    if (out.parsed) {
      run_seen_ = 0;
      pos_ = cut + 1;
      return Ok{};
    }
    run_seen_ = std::max(run_seen_, out.seen);
    if (!exact) {
      const ArrayScan s = scan_array(buf_.data(), pos_, end_);
      if (s.array_end != kNone) return finish_array(s.array_end);
      if (s.last_comma != kNone && s.last_comma != cut) return deliver(s.last_comma, true);
      if (s.last_comma == kNone && s.stray == kNone && !eof_) {
        return need(2 * (end_ - pos_));  // the first event goes on past the buffer: read more
      }
    }
    return Error{fmt::format("{}: offset {}: malformed JSON in the event array ({})", name_,
                             out.error_offset, out.error)};
  }

  // The array closes at `close`: its last events, then what follows it.
  Status finish_array(std::size_t close) {
    std::size_t last = close;
    while (last > pos_ && is_ws(buf_[last - 1])) --last;
    if (last > pos_ && buf_[last - 1] == ',') {
      warn_at("trailing comma", last - 1, "a comma before the closing ']' was ignored");
      buf_[last - 1] = ' ';
      last = close;
      while (last > pos_ && is_ws(buf_[last - 1])) --last;
    }
    finished_ = true;
    if (last > pos_) {
      NPKIT_TRY(deliver(close, true));
      if (stopped_) return Ok{};
    }
    pos_ = close + 1;
    return read_after_array();
  }

  // After the closing ']': the bare array ends; an object goes on with members or closes.
  Status read_after_array() {
    for (;;) {
      NPKIT_TRY(need(end_ - pos_ + chunk_));
      if (eof_) break;
      if (end_ - pos_ > kMaxOutsideBytes) {
        return error_at(
            pos_, fmt::format("more than {} MiB after the event array", kMaxOutsideBytes >> 20));
      }
    }
    NPKIT_ASSIGN(auto more, skip_ws());
    if (!summary_.header.object_form) {
      if (more) return error_at(pos_, "content after the event array");
      return Ok{};
    }
    if (!more) {
      warn_at("unterminated trace", pos_, "the trace object is not closed ('}' missing)");
      return Ok{};
    }
    if (buf_[pos_] == ',') {
      std::size_t close = end_;
      while (close > pos_ && is_ws(buf_[close - 1])) --close;
      if (close == pos_ + 1 || buf_[close - 1] != '}' || !parse_members(pos_, close - 1)) {
        return error_at(pos_, "malformed members after the event array");
      }
      pos_ = end_;
      return Ok{};
    }
    if (buf_[pos_] != '}') return error_at(pos_, "expected ',' or '}' after the event array");
    ++pos_;
    NPKIT_ASSIGN(more, skip_ws());
    if (more) return error_at(pos_, "content after the trace object");
    return Ok{};
  }

  // The end of the input came before the array's ']': deliver the whole events, warn.
  Status finish_unterminated() {
    finished_ = true;
    const ArrayScan s = scan_array(buf_.data(), pos_, end_);
    if (s.stray != kNone) return error_at(s.stray, "'}' where the event array goes on or ends");
    std::size_t cut = kNone;
    if (s.depth == 0 && !s.in_string) {
      std::size_t last = end_;
      while (last > pos_ && is_ws(buf_[last - 1])) --last;
      if (last > pos_) cut = buf_[last - 1] == ',' ? last - 1 : last;
      warn_at("unterminated trace", end_,
              "the file ends before the event array's closing ']'; its whole events were read");
    } else {
      std::size_t start = s.last_comma == kNone ? pos_ : s.last_comma + 1;
      while (start < end_ && is_ws(buf_[start])) ++start;
      cut = s.last_comma;
      warn_at("unterminated trace", start,
              "the file ends inside this event; it was dropped (the events before it were read)");
    }
    if (cut != kNone && cut > pos_) NPKIT_TRY(deliver(cut, true));
    pos_ = end_;
    return Ok{};
  }

  Status read_events() {
    while (!finished_ && !stopped_) {
      if (!eof_ && end_ - pos_ < chunk_) NPKIT_TRY(need(chunk_));
      NPKIT_ASSIGN(auto more, skip_ws());
      if (!more) return finish_unterminated();
      if (buf_[pos_] == ']') return finish_array(pos_);
      if (eof_) {
        const ArrayScan s = scan_array(buf_.data(), pos_, end_);
        if (s.array_end == kNone) return finish_unterminated();
        return finish_array(s.array_end);
      }
      const std::size_t cut = find_cut(pos_, end_);
      if (cut == kNone) {
        NPKIT_TRY(need(2 * (end_ - pos_)));  // one event fills the buffer: read more
        continue;
      }
      NPKIT_TRY(deliver(cut, false));
      if (options_.progress) options_.progress(offset(pos_), source_.size());
    }
    return Ok{};
  }

  std::string name_;
  ByteSource& source_;
  TraceEventVisitor& visitor_;
  const TraceReadOptions& options_;
  Diagnostics& diagnostics_;
  std::size_t chunk_;
  std::size_t cap_ = 0;
  std::vector<char> buf_;
  std::size_t pos_ = 0;
  std::size_t end_ = 0;
  std::uint64_t origin_ = 0;
  bool eof_ = false;
  bool stopped_ = false;
  bool finished_ = false;  // the array's end (or the input's) was reached
  std::uint64_t run_seen_ = 0;
  od::parser parser_;
  simdjson::dom::parser dom_;
  TraceEvent event_;
  std::string bad_fields_;
  TraceReadSummary summary_;
};

}  // namespace

Result<TraceReadSummary> read_trace_file(const std::string& path, TraceEventVisitor& visitor,
                                         const TraceReadOptions& options,
                                         Diagnostics& diagnostics) {
  return reading_guarded(path, [&]() -> Result<TraceReadSummary> {
    NPKIT_ASSIGN(auto source, open_file_source(path));
    Reader reader(path, *source, visitor, options, diagnostics);
    return reader.run();
  });
}

Result<TraceReadSummary> read_trace_bytes(const std::string& name, std::string_view bytes,
                                          TraceEventVisitor& visitor,
                                          const TraceReadOptions& options,
                                          Diagnostics& diagnostics) {
  MemorySource source(bytes);
  Reader reader(name, source, visitor, options, diagnostics);
  return reader.run();
}

}  // namespace npkit
