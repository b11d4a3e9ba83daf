// output/info/info_details.hpp — what `info` says of each input kind beyond what every input
// shows (output/info/info_output.hpp): one text, JSON and CSV writer per kind.
// Contract: *_info_text appends the kind's own lines and tables; *_info_json writes the fields
// of the "details" object into the object `w` has open; *_info_csv is the kind's table (per rank
// or per file) in machine units. info_details picks the input kind's writers once (empty where a
// kind has none); they refer to `input` and `spans`, which must outlive them.
#pragma once

#include <functional>
#include <string>

#include "analysis/inventory/dump_inventory.hpp"
#include "import/chrome_json/chrome_input.hpp"
#include "import/inspector/inspector_input.hpp"
#include "import/legacy/legacy_input.hpp"
#include "import/npkt/npkt_input.hpp"
#include "output/json_writer.hpp"
#include "output/render.hpp"
#include "output/text_table.hpp"

namespace npkit {

void legacy_info_text(const LegacyInput& input, const InventorySink& spans, OutputFormat format,
                      std::string& out);
void legacy_info_json(const LegacyInput& input, const InventorySink& spans, JsonWriter& w);

void npkt_info_text(const NpktInput& input, OutputFormat format, std::string& out);
void npkt_info_json(const NpktInput& input, JsonWriter& w);
TextTable npkt_info_csv(const NpktInput& input);

void chrome_span_info_json(const ChromeSpanInput& input, JsonWriter& w);

void chrome_profiler_info_text(const ChromeProfilerInput& input, OutputFormat format,
                               std::string& out);
void chrome_profiler_info_json(const ChromeProfilerInput& input, JsonWriter& w);
TextTable chrome_profiler_info_csv(const ChromeProfilerInput& input);

void inspector_info_text(const InspectorInput& input, OutputFormat format, std::string& out);
void inspector_info_json(const InspectorInput& input, JsonWriter& w);
TextTable inspector_info_csv(const InspectorInput& input);

struct InfoDetails {
  std::function<void(OutputFormat, std::string&)> text;
  std::function<void(JsonWriter&)> json;
  std::function<TextTable()> csv;
};

InfoDetails info_details(const RunInput& input, const InventorySink& spans);

}  // namespace npkit
