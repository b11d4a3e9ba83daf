// span_reader.hpp — decode a legacy dump's record streams into paired spans, track by track.
// Contract: read_legacy_spans walks every selected track once, in rank then buffer order:
// it reads the file into one reused buffer, converts timestamps (CPU ticks by the rank's clock
// period; GPU ticks through TIME_SYNC pairs, import/legacy/gpu_clock.hpp), pairs ENTRY/EXIT (nested
// by name on GPU tracks, by slot on CPU tracks) and streams each span to the sink as its EXIT is
// read. Memory is bounded by the largest file and the open events, never by the dump's size.
// Everything unusual (unknown ids, unmatched events, partial records, non-monotonic clocks,
// full buffers) is counted in TrackStats and summarised in Diagnostics.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "import/legacy/legacy_dump.hpp"
#include "run/event_table.hpp"
#include "run/phase_map.hpp"
#include "run/rank_filter.hpp"
#include "run/span_chunks.hpp"
#include "run/span_sink.hpp"
#include "util/diagnostics.hpp"
#include "util/result.hpp"

namespace npkit {

struct SpanReadOptions {
  RankFilter ranks;
  // Called after each file with the bytes read so far and the total to read (optional).
  std::function<void(std::uint64_t done, std::uint64_t total)> progress;
};

Status read_legacy_spans(const LegacyDump& dump, const PhaseAssignment& phases,
                         const SpanReadOptions& options, SpanSink& sink, Diagnostics& diagnostics);

// The same on sinks.size() threads: the selected tracks, in the order above, are split into
// that many contiguous runs of about equal bytes; run i feeds sinks[i]. Warnings are merged in
// run order, so the result does not depend on thread timing once the caller merges the sinks
// in order. The first error (in run order) is returned. Runs whose thread the host refuses to
// start are read on the calling thread.
Status read_legacy_spans_parallel(const LegacyDump& dump, const PhaseAssignment& phases,
                                  const SpanReadOptions& options,
                                  const std::vector<SpanSink*>& sinks, Diagnostics& diagnostics);

// The selected tracks, in the order above, in chunks (run/span_chunks.hpp).
Status read_legacy_spans_in_chunks(const LegacyDump& dump, const PhaseAssignment& phases,
                                   const SpanReadOptions& options, const SpanChunks& chunks,
                                   Diagnostics& diagnostics);

}  // namespace npkit
