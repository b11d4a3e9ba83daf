// import/chrome_json/trace_event.hpp — one Chrome Trace Event, as the streaming reader hands it
// out, and the top-level fields of the trace file.
// Contract: a TraceEvent is a view: its strings point into the reader's buffers and are valid
// only during the visitor call that receives it (copy what must outlive it). Fields the event
// does not carry are absent (has_* false / std::nullopt); a field of the wrong type is counted in
// `bad_fields` with its name, never guessed. `ts` and `dur` are read from their decimal text into
// integer nanoseconds (µs × 1000, rounded to the nearest ns; json_number.hpp), so a trace written
// with exact nanoseconds reads back exactly. `args` keeps the first kMaxArgs members of "args" in
// file order: strings unescaped, numbers and literals as their raw text, an array of two integers
// (our traces' "records") as `pair`; other values are kept as kOther with no text.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace npkit {

enum class EventArgKind : std::uint8_t { kString, kNumber, kLiteral, kPair, kOther };

struct EventArg {
  std::string_view key;
  std::string_view text;  // unescaped string, or the number/literal as written
  EventArgKind kind = EventArgKind::kOther;
  std::int64_t pair[2] = {0, 0};
};

struct TraceEvent {
  static constexpr std::size_t kMaxArgs = 64;

  std::uint64_t offset = 0;  // byte offset of the event's '{' in the file
  std::uint32_t fields = 0;  // members the event object has (0 for `{}`)
  std::string_view ph;       // "B", "E", "X", "b", "e", "i", "M", ...
  std::string_view name;
  std::string_view cat;
  std::string_view id;  // as written: a string's content or a number's text
  bool has_ph = false;
  bool has_name = false;
  bool has_cat = false;
  bool has_id = false;
  std::optional<std::int64_t> pid;
  std::optional<std::int64_t> tid;
  std::optional<std::int64_t> ts_ns;
  std::optional<std::int64_t> dur_ns;
  std::string_view bad_fields;  // comma-separated names of fields with an unusable value
  std::vector<EventArg> args;
  std::uint32_t dropped_args = 0;  // members of "args" beyond kMaxArgs

  // The phase letter, or 0 when `ph` is absent or not one character.
  char phase() const { return ph.size() == 1 ? ph[0] : '\0'; }
  const EventArg* arg(std::string_view key) const;
  std::optional<std::int64_t> arg_int(std::string_view key) const;
  std::optional<std::uint64_t> arg_uint(std::string_view key) const;
  std::optional<std::string_view> arg_string(std::string_view key) const;
};

// The members of the trace file outside the event array.
struct TraceHeader {
  bool object_form = false;  // {"traceEvents": [...], ...} rather than a bare array
  // Top-level members other than traceEvents, and the members of otherData, in file order:
  // strings unescaped, anything else as its JSON text.
  std::vector<std::pair<std::string, std::string>> top_level;
  std::vector<std::pair<std::string, std::string>> other_data;

  // The value of otherData's `key`, or nullptr.
  const std::string* other(std::string_view key) const;
};

}  // namespace npkit
