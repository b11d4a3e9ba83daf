// import/chrome_json/generator_span_decoder.hpp — spans from the trace NPKit's own generator
// (npkit_trace_generator.py and its fork copies) writes: B/E events named NPKIT_EVENT_*_ENTRY /
// _EXIT, pid = rank, GPU tid = buffer + 1 (cat "GPU", args rank, buf_idx, seq, rsvd_0, size_0),
// CPU tid = (channel + 1) × 1000 + fiber (cat "CPU", args channel, slot, size_0 and the 2.20
// port's sender_rank, receiver_rank, step), ts in µs on the host clock.
// Contract: the spans are the binary reader's for the same dump (import/legacy/span_reader.hpp), up
// to the generator's own rounding of ts: GPU buffers pair with NestedPairer (by name, any depth; an
// E without a name — the official generator writes none — closes the innermost open event), CPU
// channels with SlotPairer on the B event's slot (an E finds its slot through its fiber). Sizes
// come from the B's size_0 and the E's size (official) or size_0 (fork); a step size ≥ 2^31 reads
// as 0 as in the binary reader. Seq numbers, depths and lanes are recomputed, not read. A record
// index is the event's position on its track (TIME_SYNC records are not in the trace). Missing
// pid/tid/ts, unknown phases and unmatched events are counted warnings with the byte offset.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "import/chrome_json/event_name_book.hpp"
#include "import/chrome_json/json_span_tracks.hpp"
#include "import/chrome_json/trace_event_reader.hpp"
#include "import/pair/nested_pairer.hpp"
#include "import/pair/slot_pairer.hpp"
#include "run/rank_filter.hpp"
#include "util/diagnostics.hpp"

namespace npkit {

class GeneratorSpanDecoder : public TraceEventVisitor {
 public:
  GeneratorSpanDecoder(std::string path, EventNameBook& names, TrackBook& tracks,
                       const RankFilter& ranks, JsonSpanTarget& target, Diagnostics& diagnostics);
  ~GeneratorSpanDecoder() override;

  Status on_event(const TraceEvent& event) override;
  // Hands out the events still open as unmatched and summarises the warnings.
  void finish();

 private:
  struct Open {
    std::uint16_t base;
    std::uint32_t slot;
    std::uint32_t sender_rank;
    std::uint32_t receiver_rank;
    std::uint32_t step;
  };
  struct Thread {  // one (pid, tid) of the trace
    TrackRef track;
    std::uint32_t pairer = 0;  // index into gpu_ or cpu_
    std::vector<Open> open;    // B events waiting for their E, innermost last
  };
  struct GpuPairing;
  struct CpuPairing;

  Thread* thread_of(const TraceEvent& e);
  void warn(std::string_view category, const TraceEvent& e, const std::string& what);
  std::uint32_t size_arg(const TraceEvent& e, std::string_view key, std::string_view fallback,
                         std::uint16_t base);

  std::string path_;
  EventNameBook& names_;
  TrackBook& tracks_;
  const RankFilter& ranks_;
  JsonSpanTarget& target_;
  Diagnostics& diagnostics_;
  std::unordered_map<std::uint64_t, std::unique_ptr<Thread>> threads_;
  std::vector<std::unique_ptr<GpuPairing>> gpu_;
  std::vector<std::unique_ptr<CpuPairing>> cpu_;
  Thread* last_thread_ = nullptr;
  std::uint64_t last_key_ = 0;
  std::uint64_t negative_sizes_ = 0;
  std::uint64_t instants_ = 0;
  Span span_;
};

}  // namespace npkit
