#include "import/json/json_value_reader.hpp"

#include <fmt/format.h>

#include <utility>

namespace npkit {
namespace {

namespace od = simdjson::ondemand;

// Offset of the first byte that does not start or continue a valid UTF-8 sequence (RFC 3629:
// no overlong forms, no surrogates, nothing above U+10FFFF); text.size() when all is valid.
std::size_t first_invalid_utf8(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    std::size_t len = 0;
    unsigned char lo = 0x80;
    unsigned char hi = 0xBF;
    if (c < 0x80) {
      ++i;
      continue;
    } else if (c >= 0xC2 && c <= 0xDF) {
      len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      if (c == 0xE0) lo = 0xA0;
      if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      if (c == 0xF0) lo = 0x90;
      if (c == 0xF4) hi = 0x8F;
    } else {
      return i;
    }
    if (i + len > text.size()) return i;
    for (std::size_t k = 1; k < len; ++k) {
      const auto d = static_cast<unsigned char>(text[i + k]);
      const unsigned char min = k == 1 ? lo : 0x80;
      const unsigned char max = k == 1 ? hi : 0xBF;
      if (d < min || d > max) return i;
    }
    i += len;
  }
  return text.size();
}

}  // namespace

JsonValueReader::JsonValueReader(std::string name, const simdjson::padded_string& text)
    : name_(std::move(name)), text_(&text), base_(text.data()), size_(text.size()) {}

Error JsonValueReader::at(std::size_t offset, std::string_view what) const {
  return Error{fmt::format("{}: offset {}: {}", name_, offset, what)};
}

// Where the parser stands (after a structural error), else the end of the input.
std::size_t JsonValueReader::here(od::document& doc) const {
  const char* p = nullptr;
  if (doc.current_location().get(p) == simdjson::SUCCESS && p >= base_ && p <= base_ + size_) {
    return static_cast<std::size_t>(p - base_);
  }
  return size_;
}

Error JsonValueReader::json_error(simdjson::error_code e, od::document& doc) const {
  return at(here(doc), fmt::format("malformed JSON ({})", simdjson::error_message(e)));
}

std::size_t JsonValueReader::offset(Value& v) const {
  const std::string_view token = v.raw_json_token();
  if (token.data() >= base_ && token.data() <= base_ + size_) {
    return static_cast<std::size_t>(token.data() - base_);
  }
  return size_;
}

// Lexical checks simdjson's first stage would fail without a position: UTF-8, control
// characters inside strings, an unclosed string.
Status JsonValueReader::scan(std::string_view text) const {
  const std::size_t bad = first_invalid_utf8(text);
  if (bad < text.size()) return at(bad, "invalid UTF-8");
  bool in_string = false;
  std::size_t opened = 0;
  std::int64_t depth = 0;  // objects and arrays open
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (!in_string) {
      if (c == '"') {
        in_string = true;
        opened = i;
      }
      depth += c == '{' || c == '[' ? 1 : c == '}' || c == ']' ? -1 : 0;
      continue;
    }
    if (c == '\\') {
      ++i;
      if (i < text.size() && static_cast<unsigned char>(text[i]) < 0x20) {
        return at(i, "control character in a string (escape it)");
      }
    } else if (c == '"') {
      in_string = false;
    } else if (c < 0x20) {
      return at(i, "control character in a string (escape it)");
    }
  }
  if (in_string) return at(opened, "string never closed");
  if (depth > 0) return at(text.size(), "unexpected end of input (is the file cut short?)");
  return Ok{};
}

// A value of the wrong type, or the input ended where a value should be.
Error JsonValueReader::type_error(Value& v, std::string_view what,
                                  std::string_view expected) const {
  const std::size_t where = offset(v);
  if (where >= size_) return at(size_, "unexpected end of input (is the file cut short?)");
  return at(where, fmt::format("{}: expected {}", what, expected));
}

Result<std::uint64_t> JsonValueReader::u64(Value& v, std::string_view what) {
  std::uint64_t x = 0;
  if (v.get_uint64().get(x) != simdjson::SUCCESS) {
    return type_error(v, what, "a non-negative integer");
  }
  return x;
}

Result<std::int64_t> JsonValueReader::i64(Value& v, std::string_view what, std::int64_t min,
                                          std::int64_t max) {
  std::int64_t x = 0;
  if (v.get_int64().get(x) != simdjson::SUCCESS || x < min || x > max) {
    return type_error(v, what, fmt::format("an integer in [{}, {}]", min, max));
  }
  return x;
}

Result<std::string> JsonValueReader::str(Value& v, std::string_view what) {
  std::string_view s;
  const auto e = v.get_string().get(s);
  if (e == simdjson::STRING_ERROR) {
    return at(offset(v), fmt::format("{}: invalid escape sequence in the string", what));
  }
  if (e != simdjson::SUCCESS) return type_error(v, what, "a string");
  return std::string(s);
}

// Calls on_field(key, value, key offset) for every field of the object `v`; duplicate keys
// are an error. `required` fields must all be present.
Status JsonValueReader::object(Value& v, std::string_view what,
                               std::initializer_list<std::string_view> required,
                               const std::function<Status(std::string_view, Value&)>& on_field) {
  const std::size_t start = offset(v);
  od::object obj;
  if (v.get_object().get(obj) != simdjson::SUCCESS) {
    return type_error(v, what, "an object");
  }
  std::set<std::string, std::less<>> seen;
  for (auto item : obj) {
    od::field field;
    if (const auto e = std::move(item).get(field)) return json_error(e, *doc_);
    const std::size_t key_at = static_cast<std::size_t>(field.key().raw() - base_) - 1;
    std::string_view key;
    if (const auto e = field.unescaped_key().get(key)) return json_error(e, *doc_);
    if (!seen.emplace(key).second) {
      return at(key_at, fmt::format("{}: duplicate field \"{}\"", what, key));
    }
    NPKIT_TRY(on_field(key, field.value()));
  }
  for (const auto r : required) {
    if (seen.find(r) == seen.end()) {
      return at(start, fmt::format("{}: missing field \"{}\"", what, r));
    }
  }
  return Ok{};
}

// Calls on_element(value) for every element of the array `v`.
Status JsonValueReader::array(Value& v, std::string_view what,
                              const std::function<Status(Value&)>& on_element) {
  od::array arr;
  if (v.get_array().get(arr) != simdjson::SUCCESS) {
    return type_error(v, what, "an array");
  }
  for (auto item : arr) {
    od::value element;
    if (const auto e = std::move(item).get(element)) return json_error(e, *doc_);
    NPKIT_TRY(on_element(element));
  }
  return Ok{};
}

Status JsonValueReader::string_set(Value& v, std::string_view what, std::set<std::string>& out) {
  return array(v, what, [&](Value& e) -> Status {
    NPKIT_ASSIGN(auto s, str(e, what));
    out.insert(std::move(s));
    return Ok{};
  });
}

Status JsonValueReader::set_map(Value& v, std::string_view what,
                                std::map<std::string, std::set<std::string>>& out) {
  return object(v, what, {}, [&](std::string_view key, Value& e) {
    return string_set(e, fmt::format("{} \"{}\"", what, key), out[std::string(key)]);
  });
}

Status JsonValueReader::parse(std::string_view what, const std::function<Status(Value&)>& on_root) {
  const std::string_view text(base_, size_);
  NPKIT_TRY(scan(text));
  od::parser parser;
  od::document doc;
  if (const auto e = parser.iterate(*text_).get(doc)) {
    return at(0, fmt::format("malformed JSON ({})", simdjson::error_message(e)));
  }
  doc_ = &doc;
  Value root;
  if (const auto e = doc.get_value().get(root)) return json_error(e, doc);
  NPKIT_TRY(on_root(root));
  const char* end = nullptr;
  if (doc.current_location().get(end) == simdjson::SUCCESS) {
    return at(here(doc), fmt::format("unexpected content after the {}", what));
  }
  doc_ = nullptr;
  return Ok{};
}

bool JsonPrefix::take(std::string_view token) {
  const std::size_t i = rest_.find_first_not_of(" \t\r\n");
  if (i == std::string_view::npos || rest_.substr(i, token.size()) != token) return false;
  rest_.remove_prefix(i + token.size());
  return true;
}

bool JsonPrefix::digits() {
  const std::size_t i = rest_.find_first_not_of(" \t\r\n");
  if (i == std::string_view::npos || rest_[i] < '0' || rest_[i] > '9') return false;
  rest_.remove_prefix(i);
  while (!rest_.empty() && rest_.front() >= '0' && rest_.front() <= '9') rest_.remove_prefix(1);
  return true;
}

}  // namespace npkit
