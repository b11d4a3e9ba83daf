#include "import/chrome_json/json_span_source.hpp"

#include <sys/stat.h>

#include "import/chrome_json/generator_span_decoder.hpp"
#include "import/chrome_json/own_trace_span_decoder.hpp"
#include "import/chrome_json/trace_event_reader.hpp"

namespace npkit {
namespace {

bool is_builtin_table(const std::string& name) {
  for (const auto& n : builtin_event_table_names()) {
    if (n == name) return true;
  }
  return false;
}

}  // namespace

Result<JsonSpanInput> open_json_span_input(const std::vector<std::string>& paths,
                                           const std::string& event_table,
                                           const PhaseMap& phase_map, Diagnostics& diagnostics) {
  JsonSpanInput input;
  std::string recorded_table;
  for (const auto& path : paths) {
    NPKIT_ASSIGN(auto identity, identify_trace(path));
    const TraceProducer p = identity.producer;
    if (p != TraceProducer::kNpkitGenerator && p != TraceProducer::kOwnLegacy) {
      return Error{path + ": written by " + trace_producer_name(p) +
                   "; it cannot be read together with NPKit event traces"};
    }
    if (const std::string* t = identity.header.other("event_table");
        t != nullptr && recorded_table.empty()) {
      recorded_table = *t;
    }
    struct stat st {};
    const std::uint64_t bytes =
        ::stat(path.c_str(), &st) == 0 ? static_cast<std::uint64_t>(st.st_size) : 0;
    input.files.push_back(JsonSpanFile{path, std::move(identity), bytes});
  }
  std::string spec = event_table;
  if (spec == "auto") {
    if (is_builtin_table(recorded_table)) {
      spec = recorded_table;
      input.table_reason = "auto: the table the trace was written with (otherData.event_table)";
    } else {
      spec = "nccl";
      input.table_reason =
          recorded_table.empty()
              ? "auto: event names from the trace, in the standard NCCL table's order"
              : "auto: event names from the trace (written with table '" + recorded_table +
                    "', not a built-in one)";
    }
  } else {
    input.table_reason = "set with --event-table; names the table lacks are added from the trace";
  }
  NPKIT_ASSIGN(auto table, load_event_table(spec, diagnostics));
  input.names = std::make_unique<EventNameBook>(std::move(table), phase_map);
  return input;
}

Status read_json_spans(JsonSpanInput& input, const JsonSpanReadOptions& options, TrackBook& tracks,
                       JsonSpanTarget& target, Diagnostics& diagnostics) {
  std::uint64_t total = 0;
  for (const auto& f : input.files) total += f.bytes;
  std::uint64_t before = 0;
  for (auto& f : input.files) {
    TraceReadOptions read;
    if (options.progress) {
      read.progress = [&](std::uint64_t done, std::uint64_t) {
        options.progress(before + done, total);
      };
    }
    if (f.identity.producer == TraceProducer::kOwnLegacy) {
      OwnTraceSpanDecoder decoder(f.path, *input.names, tracks, options.ranks, target, diagnostics);
      NPKIT_ASSIGN(auto summary, read_trace_file(f.path, decoder, read, diagnostics));
      decoder.finish();
      f.events = summary.events;
    } else {
      GeneratorSpanDecoder decoder(f.path, *input.names, tracks, options.ranks, target,
                                   diagnostics);
      NPKIT_ASSIGN(auto summary, read_trace_file(f.path, decoder, read, diagnostics));
      decoder.finish();
      f.events = summary.events;
    }
    before += f.bytes;
    if (options.progress) options.progress(before, total);
  }
  return Ok{};
}

}  // namespace npkit
