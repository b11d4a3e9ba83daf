// import/flight_recorder/fr_json.hpp — a Flight Recorder dump in its JSON form (PyTorch's
// dump_json: the same keys as the pickle, process_group as a two-string array, pg_config and
// pg_status values as strings, no frames) read into the DataTree the pickle reader also fills.
// Contract: read_fr_json(name, bytes) checks the JSON (import/json/json_value_reader.hpp: its
// errors name the offset) and builds objects as dicts (string keys), arrays as lists, numbers as
// integers (when they fit in 64 bits signed) or floats, true/false, null as None. At most 64 levels
// of nesting and 2^22 values; more is an Error naming the offset.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "import/flight_recorder/data_tree.hpp"
#include "util/result.hpp"

namespace npkit {

Result<DataTree> read_fr_json(const std::string& name, std::span<const std::uint8_t> bytes);

}  // namespace npkit
