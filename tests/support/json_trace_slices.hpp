// json_trace_slices.hpp — the slices of a Chrome Trace Event JSON file as the test-side Perfetto
// reader gives them (tests/support/perfetto_reader.hpp), read with simdjson.
// Contract: read_json_trace returns the process and thread names of the "M" events and, for each
// "X" and "i" event, a slice whose start and end are ns after otherData.time_origin_ns (ts and
// dur read as microseconds, rounded to the ns) and whose args are text (integers in decimal,
// doubles with three decimals, strings, arrays "[a,b]"); for each "C" event, one counter sample per
// argument: track "NAME KEY" (as Perfetto names it), time after the origin, value.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "support/perfetto_reader.hpp"

namespace npkit::test {

struct JsonTrace {
  std::map<std::int64_t, std::string> process_names;
  std::map<std::pair<std::int64_t, std::int64_t>, std::string> thread_names;
  std::vector<PerfettoSlice> slices;            // times after the origin
  std::vector<PerfettoCounterSample> counters;  // times after the origin
  std::int64_t origin_ns = 0;
  std::int64_t first_event_ns = 0;  // otherData.first_event_ns, else the origin
};

JsonTrace read_json_trace(const std::string& path);

}  // namespace npkit::test
