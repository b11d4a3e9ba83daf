#include "run/input_details.hpp"

namespace npkit {

DetailValue* DetailWriter::add(DetailValue v) {
  DetailValue& parent = *open_.back();
  if (parent.kind == DetailValue::Kind::kObject) v.key = std::move(key_);
  key_.clear();
  parent.items.push_back(std::move(v));
  return &parent.items.back();
}

void DetailWriter::open_array() {
  DetailValue v;
  v.kind = DetailValue::Kind::kArray;
  open_.push_back(add(std::move(v)));
}

void DetailWriter::put(std::string_view s) {
  DetailValue v;
  v.kind = DetailValue::Kind::kString;
  v.text = s;
  add(std::move(v));
}

void DetailWriter::put(std::int64_t i) {
  DetailValue v;
  v.kind = DetailValue::Kind::kInt;
  v.i = i;
  add(std::move(v));
}

void DetailWriter::put(std::uint64_t u) {
  DetailValue v;
  v.kind = DetailValue::Kind::kUint;
  v.u = u;
  add(std::move(v));
}

void DetailWriter::put(double d) {
  DetailValue v;
  v.kind = DetailValue::Kind::kDouble;
  v.d = d;
  add(std::move(v));
}

void DetailWriter::put(bool b) {
  DetailValue v;
  v.kind = DetailValue::Kind::kBool;
  v.b = b;
  add(std::move(v));
}

}  // namespace npkit
