// util/json_builder.hpp — the calls that write a JSON value, one interface over the back ends that
// receive them (JSON text, or a tree of values kept for a later writer).
// Contract: JsonBuilder<Backend> is the front end; Backend derives from it (CRTP) and defines the
// primitives it forwards to: open_object, close_object, open_array, close_array, put_key(k),
// put(v) for std::string_view, std::int64_t, std::uint64_t, double and bool, and put_null()
// where null_value() is called. Callers nest begin/end calls correctly; key() comes before each
// value inside an object. object(), objects() and values() write a keyed member whole, so that
// they cannot be left unbalanced.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace npkit {

template <typename Backend>
class JsonBuilder {
 public:
  void begin_object() { backend().open_object(); }
  void end_object() { backend().close_object(); }
  void begin_array() { backend().open_array(); }
  void end_array() { backend().close_array(); }
  void key(std::string_view k) { backend().put_key(k); }

  void value(std::string_view s) { backend().put(s); }
  void value(const char* s) { value(std::string_view(s)); }
  void value(const std::string& s) { value(std::string_view(s)); }
  void value(std::int64_t v) { backend().put(v); }
  void value(std::uint64_t v) { backend().put(v); }
  void value(int v) { value(static_cast<std::int64_t>(v)); }
  void value(unsigned v) { value(static_cast<std::uint64_t>(v)); }
  void value(double v) { backend().put(v); }
  void value(bool v) { backend().put(v); }
  void null_value() { backend().put_null(); }

  template <typename T>
  void field(std::string_view k, const T& v) {
    key(k);
    value(v);
  }

  // "k": {...}, the members written by members().
  template <typename Members>
  void object(std::string_view k, Members members) {
    key(k);
    begin_object();
    members();
    end_object();
  }

  // "k": [{...}, ...], one object per item, its members written by members(item).
  template <typename Range, typename Members>
  void objects(std::string_view k, const Range& items, Members members) {
    key(k);
    begin_array();
    for (const auto& item : items) {
      begin_object();
      members(item);
      end_object();
    }
    end_array();
  }

  // "k": [v, ...], the items as plain values.
  template <typename Range>
  void values(std::string_view k, const Range& items) {
    key(k);
    begin_array();
    for (const auto& v : items) value(v);
    end_array();
  }

 private:
  Backend& backend() { return static_cast<Backend&>(*this); }
};

}  // namespace npkit
