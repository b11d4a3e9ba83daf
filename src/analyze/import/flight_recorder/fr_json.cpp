#include "import/flight_recorder/fr_json.hpp"

#include <fmt/format.h>

#include "import/flight_recorder/pickle_reader.hpp"
#include "import/json/json_value_reader.hpp"

namespace npkit {
namespace {

constexpr int kMaxDepth = 64;

class JsonTreeBuilder {
 public:
  explicit JsonTreeBuilder(JsonValueReader& reader) : reader_(reader) {}

  Result<std::uint32_t> convert(JsonValueReader::Value& v, int depth) {
    const std::size_t offset = reader_.offset(v);
    if (depth > kMaxDepth)
      return reader_.at(offset, fmt::format("nested deeper than {}", kMaxDepth));
    if (tree.size() >= kMaxPickleValues) {
      return reader_.at(offset, fmt::format("more than {} values", kMaxPickleValues));
    }
    simdjson::ondemand::json_type type;
    if (v.type().get(type) != simdjson::SUCCESS) return reader_.type_error(v, "value", "a value");
    switch (type) {
      case simdjson::ondemand::json_type::object: {
        const std::uint32_t id = tree.add_container(DataKind::kDict, offset);
        NPKIT_TRY(reader_.object(v, "object", {}, [&](std::string_view key, auto& value) -> Status {
          const std::uint32_t k = tree.add_string(std::string(key), offset);
          NPKIT_ASSIGN(const std::uint32_t item, convert(value, depth + 1));
          tree.items(id).push_back(k);
          tree.items(id).push_back(item);
          return Ok{};
        }));
        return id;
      }
      case simdjson::ondemand::json_type::array: {
        const std::uint32_t id = tree.add_container(DataKind::kList, offset);
        NPKIT_TRY(reader_.array(v, "array", [&](auto& element) -> Status {
          NPKIT_ASSIGN(const std::uint32_t item, convert(element, depth + 1));
          tree.items(id).push_back(item);
          return Ok{};
        }));
        return id;
      }
      case simdjson::ondemand::json_type::string: {
        NPKIT_ASSIGN(auto s, reader_.str(v, "string"));
        return tree.add_string(std::move(s), offset);
      }
      case simdjson::ondemand::json_type::number: {
        std::int64_t i = 0;
        if (v.get_int64().get(i) == simdjson::SUCCESS) {
          return tree.add_scalar(DataKind::kInt, offset, i);
        }
        double d = 0;
        if (v.get_double().get(d) != simdjson::SUCCESS) {
          return reader_.type_error(v, "number", "a number");
        }
        return tree.add_scalar(DataKind::kFloat, offset, 0, d);
      }
      case simdjson::ondemand::json_type::boolean: {
        bool b = false;
        if (v.get_bool().get(b) != simdjson::SUCCESS)
          return reader_.type_error(v, "value", "a bool");
        return tree.add_scalar(DataKind::kBool, offset, b ? 1 : 0);
      }
      case simdjson::ondemand::json_type::null: {
        bool null = false;
        if (v.is_null().get(null) != simdjson::SUCCESS || !null) {
          return reader_.type_error(v, "value", "null");
        }
        return tree.add_scalar(DataKind::kNone, offset);
      }
      default:
        return reader_.type_error(v, "value", "a JSON value");
    }
  }

  DataTree tree;

 private:
  JsonValueReader& reader_;
};

}  // namespace

Result<DataTree> read_fr_json(const std::string& name, std::span<const std::uint8_t> bytes) {
  const simdjson::padded_string text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  JsonValueReader reader(name, text);
  JsonTreeBuilder builder(reader);
  NPKIT_TRY(reader.parse("Flight Recorder dump", [&](JsonValueReader::Value& root) -> Status {
    NPKIT_ASSIGN(builder.tree.root, builder.convert(root, 0));
    return Ok{};
  }));
  return std::move(builder.tree);
}

}  // namespace npkit
