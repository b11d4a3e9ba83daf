#include "import/chrome_json/trace_producer.hpp"

#include <fmt/format.h>

#include <array>
#include <optional>

#include "import/chrome_json/trace_event_reader.hpp"

namespace npkit {
namespace {

constexpr std::uint64_t kMaxEvents = 10000;

constexpr std::array<std::string_view, 12> kNcclExampleCategories = {
    "GROUP",     "COLL",     "P2P",     "PROXY",         "NET",    "GPU",
    "GROUP_API", "COLL_API", "P2P_API", "KERNEL_LAUNCH", "NET_IB", "NET_SOCK"};

class Identifier : public TraceEventVisitor {
 public:
  Status on_header(const TraceHeader& header) override {
    header_ = header;
    const std::string* generator = header.other("generator");
    if (generator != nullptr && generator->rfind("npkit-analyze", 0) == 0) {
      if (header.other("event_table") != nullptr) {
        decide(TraceProducer::kOwnLegacy,
               "otherData.generator is \"" + *generator + "\" and names an event table");
      } else {
        decide(TraceProducer::kOwnProfiler,
               "otherData.generator is \"" + *generator + "\" without an event table");
      }
    }
    return Ok{};
  }

  Status on_event(const TraceEvent& e) override {
    ++events_;
    const char ph = e.phase();
    if ((ph == 'B' || ph == 'E') && e.name.substr(0, 12) == "NPKIT_EVENT_") {
      decide(TraceProducer::kNpkitGenerator,
             fmt::format("{} event '{}' at offset {}", ph, e.name, e.offset));
    } else if ((ph == 'b' || ph == 'e') && e.has_cat) {
      for (auto c : kNcclExampleCategories) {
        if (e.cat == c) {
          decide(TraceProducer::kNcclExample,
                 fmt::format("async {} event of category {} at offset {}", ph, e.cat, e.offset));
        }
      }
    }
    if (!first_ && e.fields > 0) {
      first_ = fmt::format("offset {}: ph \"{}\", name \"{}\", cat \"{}\"", e.offset, e.ph, e.name,
                           e.cat);
    }
    return Ok{};
  }

  bool done() const override { return producer_.has_value() || events_ >= kMaxEvents; }

  std::optional<TraceProducer> producer_;
  std::string reason_;
  TraceHeader header_;
  std::optional<std::string> first_;

 private:
  void decide(TraceProducer p, std::string reason) {
    if (producer_) return;
    producer_ = p;
    reason_ = std::move(reason);
  }
  std::uint64_t events_ = 0;
};

}  // namespace

const char* trace_producer_name(TraceProducer producer) {
  switch (producer) {
    case TraceProducer::kNpkitGenerator:
      return "NPKit's trace generator";
    case TraceProducer::kOwnLegacy:
      return "npkit-analyze trace (legacy NPKit dump)";
    case TraceProducer::kOwnProfiler:
      return "npkit-analyze trace (.npkt dumps)";
    case TraceProducer::kNcclExample:
      return "NCCL's example profiler plugin";
  }
  return "unknown";
}

Result<TraceIdentity> identify_trace(const std::string& path) {
  Identifier id;
  TraceReadOptions options;
  options.chunk_bytes = std::size_t{1} << 20;
  Diagnostics ignored;
  auto read = read_trace_file(path, id, options, ignored);
  if (!read && !id.producer_) return read.error();
  if (!id.producer_) {
    return Error{fmt::format(
        "{}: not a trace this tool reads ({}): expected NPKit's generator (B/E events named "
        "NPKIT_EVENT_*), NCCL's example profiler plugin (b/e events of category COLL, P2P, "
        "GROUP, ...) or npkit-analyze trace output (otherData.generator)",
        path, id.first_ ? "first event at " + *id.first_ : std::string("no events"))};
  }
  TraceIdentity identity;
  identity.producer = *id.producer_;
  identity.reason = id.reason_;
  identity.header = std::move(id.header_);
  return identity;
}

}  // namespace npkit
