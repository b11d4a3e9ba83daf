#include "import/flight_recorder/data_tree.hpp"

namespace npkit {

const char* data_kind_name(DataKind kind) {
  switch (kind) {
    case DataKind::kNone:
      return "None";
    case DataKind::kBool:
      return "a bool";
    case DataKind::kInt:
      return "an integer";
    case DataKind::kFloat:
      return "a float";
    case DataKind::kString:
      return "a string";
    case DataKind::kList:
      return "a list";
    case DataKind::kTuple:
      return "a tuple";
    case DataKind::kDict:
      return "a dict";
    case DataKind::kBuilder:
      return "a list builder";
  }
  return "";
}

std::uint32_t DataTree::add_scalar(DataKind kind, std::uint64_t offset, std::int64_t i, double d) {
  DataNode n;
  n.kind = kind;
  n.i = i;
  n.d = d;
  n.offset = offset;
  nodes_.push_back(n);
  return static_cast<std::uint32_t>(nodes_.size() - 1);
}

std::uint32_t DataTree::add_string(std::string text, std::uint64_t offset) {
  DataNode n;
  n.kind = DataKind::kString;
  n.ref = static_cast<std::uint32_t>(strings_.size());
  n.offset = offset;
  strings_.push_back(std::move(text));
  nodes_.push_back(n);
  return static_cast<std::uint32_t>(nodes_.size() - 1);
}

std::uint32_t DataTree::add_container(DataKind kind, std::uint64_t offset) {
  DataNode n;
  n.kind = kind;
  n.depth = 1;
  n.ref = static_cast<std::uint32_t>(items_.size());
  n.offset = offset;
  items_.emplace_back();
  nodes_.push_back(n);
  return static_cast<std::uint32_t>(nodes_.size() - 1);
}

std::uint32_t DataTree::add_builder(std::uint32_t which, std::uint64_t offset) {
  DataNode n;
  n.kind = DataKind::kBuilder;
  n.ref = which;
  n.offset = offset;
  nodes_.push_back(n);
  return static_cast<std::uint32_t>(nodes_.size() - 1);
}

std::int64_t DataTree::find(std::uint32_t dict, std::string_view key) const {
  const auto& kv = items(dict);
  std::int64_t found = -1;
  for (std::size_t i = 0; i + 1 < kv.size(); i += 2) {
    const DataNode& k = nodes_[kv[i]];
    if (k.kind == DataKind::kString && strings_[k.ref] == key) found = kv[i + 1];
  }
  return found;
}

}  // namespace npkit
