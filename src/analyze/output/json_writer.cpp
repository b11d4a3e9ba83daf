#include "output/json_writer.hpp"

#include <fmt/format.h>
#include <cmath>

namespace npkit {

void append_json_string(std::string& out, std::string_view s) {
  out.push_back('"');
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(static_cast<char>(c));
      ++i;
    } else if (c < 0x20 || c == 0x7F) {
      fmt::format_to(std::back_inserter(out), "\\u{:04x}", c);
      ++i;
    } else if (c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) >= 0x80 &&
               static_cast<unsigned char>(s[i + 1]) < 0xA0) {
      // A C1 control (U+0080..U+009F), escaped as the C0 ones: harmless on a terminal.
      fmt::format_to(std::back_inserter(out), "\\u{:04x}", static_cast<unsigned char>(s[i + 1]));
      i += 2;
    } else if (c < 0x80) {
      out.push_back(static_cast<char>(c));
      ++i;
    } else {
      // Validate one UTF-8 sequence; replace invalid bytes.
      std::size_t len = (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
      bool valid = len != 0 && i + len <= s.size();
      for (std::size_t k = 1; valid && k < len; ++k) {
        valid = (static_cast<unsigned char>(s[i + k]) & 0xC0) == 0x80;
      }
      if (valid) {
        out.append(s.substr(i, len));
        i += len;
      } else {
        out.append("\xEF\xBF\xBD");
        ++i;
      }
    }
  }
  out.push_back('"');
}

void JsonWriter::newline() {
  if (one_line_) return;
  out_.push_back('\n');
  out_.append(2 * first_.size(), ' ');
}

void JsonWriter::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!first_.empty()) {
    if (!first_.back()) out_.push_back(',');
    first_.back() = false;
    newline();
  }
}

void JsonWriter::open_object() {
  before_value();
  out_.push_back('{');
  first_.push_back(true);
}

void JsonWriter::close_object() {
  const bool empty = first_.back();
  first_.pop_back();
  if (!empty) newline();
  out_.push_back('}');
  if (first_.empty()) out_.push_back('\n');
}

void JsonWriter::open_array() {
  before_value();
  out_.push_back('[');
  first_.push_back(true);
}

void JsonWriter::close_array() {
  const bool empty = first_.back();
  first_.pop_back();
  if (!empty) newline();
  out_.push_back(']');
  if (first_.empty()) out_.push_back('\n');
}

void JsonWriter::put_key(std::string_view k) {
  before_value();
  append_json_string(out_, k);
  out_.append(one_line_ ? ":" : ": ");
  after_key_ = true;
}

void JsonWriter::put(std::string_view s) {
  before_value();
  append_json_string(out_, s);
}

void JsonWriter::put(std::int64_t v) {
  before_value();
  fmt::format_to(std::back_inserter(out_), "{}", v);
}

void JsonWriter::put(std::uint64_t v) {
  before_value();
  fmt::format_to(std::back_inserter(out_), "{}", v);
}

void JsonWriter::put(double v) {
  before_value();
  if (!std::isfinite(v)) {
    out_.append("null");
    return;
  }
  fmt::format_to(std::back_inserter(out_), "{}", v);
}

void JsonWriter::put(bool v) {
  before_value();
  out_.append(v ? "true" : "false");
}

void JsonWriter::put_null() {
  before_value();
  out_.append("null");
}

void write_warnings_json(JsonWriter& w, const Diagnostics& d) {
  w.objects("warnings", d.warnings(), [&](const auto& g) {
    w.field("category", g.category);
    w.field("count", g.count);
    w.values("examples", g.examples);
  });
}

}  // namespace npkit
