// import/spans/span_tee.hpp — a SpanSink that forwards every call to two sinks, first `a`, then
// `b` (so one pass of a reader can feed a command's sink and the collective-span join).
#pragma once

#include "import/legacy/span_reader.hpp"

namespace npkit {

class SpanTee : public SpanSink {
 public:
  SpanTee(SpanSink& a, SpanSink& b) : a_(a), b_(b) {}
  void begin_track(const TrackFile& file, TimeDomain domain) override {
    a_.begin_track(file, domain);
    b_.begin_track(file, domain);
  }
  void on_span(const Span& span) override {
    a_.on_span(span);
    b_.on_span(span);
  }
  void on_unmatched(const UnmatchedEvent& event) override {
    a_.on_unmatched(event);
    b_.on_unmatched(event);
  }
  void end_track(const TrackFile& file, const TrackStats& stats) override {
    a_.end_track(file, stats);
    b_.end_track(file, stats);
  }

 private:
  SpanSink& a_;
  SpanSink& b_;
};

}  // namespace npkit
