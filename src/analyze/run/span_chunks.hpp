// run/span_chunks.hpp — spans read a chunk of tracks at a time on several threads, and the input
// that reads them so, as a consumer in a layer above the readers sees it (ChunkedSpanSource;
// RunInput, import/run_input.hpp, is one).
// Contract:
// - SpanChunks: the spans of an input in chunks of consecutive tracks, each chunk into a sink of
//   its own: make_sink(i) makes chunk i's sink on a reader thread, consume(i, sink) takes it
//   once the chunk is read, in chunk order on the calling thread (util/ordered_jobs.hpp: `threads`
//   readers, at most `window` chunks held). A chunk holds tracks until their files reach
//   `chunk_bytes` together (a bigger file is a chunk of its own): the split depends on the file
//   sizes only, never on the threads. Warnings are merged in track order. An error from consume
//   stops the reading and is returned.
// - ChunkedSpanSource::read_span_chunks reads the selected spans so, named by span_names() (by
//   Span::base) and phased by phases(); an input that cannot answers an Error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "run/phase_map.hpp"
#include "run/span_sink.hpp"
#include "util/diagnostics.hpp"
#include "util/result.hpp"

namespace npkit {

struct SpanChunks {
  unsigned threads = 1;
  std::size_t window = 1;
  std::uint64_t chunk_bytes = 256 << 10;
  std::function<std::unique_ptr<SpanSink>(std::size_t chunk)> make_sink;
  std::function<Status(std::size_t chunk, SpanSink& sink)> consume;
};

class ChunkedSpanSource {
 public:
  virtual ~ChunkedSpanSource() = default;
  virtual const std::vector<std::string>& span_names() const = 0;
  virtual const PhaseAssignment& phases() const = 0;
  virtual Status read_span_chunks(const SpanChunks& chunks, Diagnostics& diagnostics) const = 0;
};

}  // namespace npkit
