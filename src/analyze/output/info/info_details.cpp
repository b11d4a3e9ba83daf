#include "output/info/info_details.hpp"

namespace npkit {

InfoDetails info_details(const RunInput& input, const InventorySink& spans) {
  InfoDetails d;
  if (const auto* legacy = dynamic_cast<const LegacyInput*>(&input)) {
    d.text = [legacy, &spans](OutputFormat f, std::string& out) {
      legacy_info_text(*legacy, spans, f, out);
    };
    d.json = [legacy, &spans](JsonWriter& w) { legacy_info_json(*legacy, spans, w); };
  } else if (const auto* npkt = dynamic_cast<const NpktInput*>(&input)) {
    d.text = [npkt](OutputFormat f, std::string& out) { npkt_info_text(*npkt, f, out); };
    d.json = [npkt](JsonWriter& w) { npkt_info_json(*npkt, w); };
    d.csv = [npkt] { return npkt_info_csv(*npkt); };
  } else if (const auto* chrome = dynamic_cast<const ChromeSpanInput*>(&input)) {
    d.json = [chrome](JsonWriter& w) { chrome_span_info_json(*chrome, w); };
  } else if (const auto* profiler = dynamic_cast<const ChromeProfilerInput*>(&input)) {
    d.text = [profiler](OutputFormat f, std::string& out) {
      chrome_profiler_info_text(*profiler, f, out);
    };
    d.json = [profiler](JsonWriter& w) { chrome_profiler_info_json(*profiler, w); };
    d.csv = [profiler] { return chrome_profiler_info_csv(*profiler); };
  } else if (const auto* inspector = dynamic_cast<const InspectorInput*>(&input)) {
    d.text = [inspector](OutputFormat f, std::string& out) {
      inspector_info_text(*inspector, f, out);
    };
    d.json = [inspector](JsonWriter& w) { inspector_info_json(*inspector, w); };
    d.csv = [inspector] { return inspector_info_csv(*inspector); };
  }
  return d;
}

}  // namespace npkit
