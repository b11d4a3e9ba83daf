// import/flight_recorder/data_tree.hpp — the plain values of a Flight Recorder dump (dicts, lists,
// tuples, strings, integers, floats, bools, None) as one arena that both readers fill (the
// restricted pickle reader and the JSON reader) and the decoder reads.
// Contract:
// - Nodes refer to each other by index; a node may be shared (a pickle's memo refers to one
//   value from several places) but never contains itself (the pickle reader refuses to change a
//   container once it is inside another one).
// - Every node keeps the byte offset it came from, for the decoder's messages.
// - A dict's items alternate key, value, in the file's order; lookups take the last of equal
//   string keys (as a pickle's SETITEMS does).
// - Builder nodes stand for the list builders a pickle names with GLOBAL (pickle_reader.hpp); the
//   pickle reader never lets one into a container or the result.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace npkit {

enum class DataKind : std::uint8_t {
  kNone,
  kBool,
  kInt,
  kFloat,
  kString,
  kList,
  kTuple,
  kDict,
  kBuilder
};

// "a string", "a list", ... for messages.
const char* data_kind_name(DataKind kind);

struct DataNode {
  DataKind kind = DataKind::kNone;
  bool sealed = false;      // placed inside another container
  std::uint16_t depth = 0;  // containers: levels of containers inside (an empty one: 1)
  std::uint32_t ref = 0;    // kString: index into strings; containers: into items; kBuilder: which
  std::int64_t i = 0;       // kInt, kBool (0/1)
  double d = 0;             // kFloat
  std::uint64_t offset = 0;
};

class DataTree {
 public:
  std::uint32_t add_scalar(DataKind kind, std::uint64_t offset, std::int64_t i = 0, double d = 0);
  std::uint32_t add_string(std::string text, std::uint64_t offset);
  std::uint32_t add_container(DataKind kind, std::uint64_t offset);
  std::uint32_t add_builder(std::uint32_t which, std::uint64_t offset);

  const DataNode& node(std::uint32_t id) const { return nodes_[id]; }
  DataNode& node(std::uint32_t id) { return nodes_[id]; }
  std::size_t size() const { return nodes_.size(); }
  std::string_view text(std::uint32_t id) const { return strings_[nodes_[id].ref]; }
  const std::vector<std::uint32_t>& items(std::uint32_t id) const { return items_[nodes_[id].ref]; }
  std::vector<std::uint32_t>& items(std::uint32_t id) { return items_[nodes_[id].ref]; }
  // The value under the string key `key` of the dict `dict` (the last of equal keys), or -1.
  std::int64_t find(std::uint32_t dict, std::string_view key) const;

  std::uint32_t root = 0;

 private:
  std::vector<DataNode> nodes_;
  std::vector<std::string> strings_;
  std::vector<std::vector<std::uint32_t>> items_;
};

}  // namespace npkit
