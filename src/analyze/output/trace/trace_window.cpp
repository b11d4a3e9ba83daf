#include "output/trace/trace_window.hpp"

#include <algorithm>

#include "util/saturating.hpp"

namespace npkit {

WindowedTraceEncoder::WindowedTraceEncoder(TraceEncoder& inner, const TraceLimits& limits)
    : inner_(inner), limits_(limits) {}

void WindowedTraceEncoder::begin(std::string_view other_data, const TraceTimes& times) {
  const std::int64_t first = sat_sub(times.first_ns, times.origin_ns);
  if (limits_.from_ns) from_ = std::max(from_, sat_add(first, *limits_.from_ns));
  if (limits_.to_ns) to_ = std::min(to_, sat_add(first, *limits_.to_ns));
  if (limits_.from_host_ns) {
    from_ = std::max(from_, sat_sub(*limits_.from_host_ns, times.origin_ns));
  }
  if (limits_.to_host_ns) to_ = std::min(to_, sat_sub(*limits_.to_host_ns, times.origin_ns));
  inner_.begin(other_data, times);
}

void WindowedTraceEncoder::name_process(std::uint32_t pid, std::string_view name) {
  inner_.name_process(pid, name);
}

void WindowedTraceEncoder::name_thread(std::uint32_t pid, std::uint32_t tid,
                                       std::string_view name) {
  inner_.name_thread(pid, tid, name);
}

void WindowedTraceEncoder::write(const TraceSlice& s) {
  const std::int64_t end = s.instant ? s.start_ns : std::max(s.start_ns, s.end_ns);
  if (s.start_ns > to_ || end < from_) {
    ++dropped_;
    return;
  }
  if (exceeded_) return;
  inner_.write(s);
  ++kept_;
  check_size();
}

void WindowedTraceEncoder::count(const TraceCounter& c) {
  if (exceeded_) return;
  CounterState& state = counters_[{c.pid, std::string(c.name), std::string(c.series)}];
  if (c.at_ns < from_) {
    state.before = {c.at_ns, c.thousandths};
    return;
  }
  if (state.before) {
    TraceCounter held = c;
    held.at_ns = state.before->first;
    held.thousandths = state.before->second;
    state.before.reset();
    pass_on(held, state);
  }
  if (c.at_ns > to_ && state.passed == 0) return;
  pass_on(c, state);
}

void WindowedTraceEncoder::pass_on(const TraceCounter& c, CounterState& state) {
  if (exceeded_) return;
  inner_.count(c);
  state.passed = c.thousandths;
  check_size();
}

void WindowedTraceEncoder::close_process(std::uint32_t pid) {
  if (exceeded_) return;
  inner_.close_process(pid);
  check_size();
}

void WindowedTraceEncoder::check_size() {
  if (limits_.max_bytes != 0 && inner_.bytes() > limits_.max_bytes) exceeded_ = true;
}

std::unique_ptr<TraceEncoder> WindowedTraceEncoder::fragment(std::uint32_t index) const {
  auto inner = inner_.fragment(index);
  TraceLimits window = limits_;
  window.max_bytes = 0;
  auto f = std::make_unique<WindowedTraceEncoder>(*inner, window);
  f->owned_ = std::move(inner);
  f->from_ = from_;
  f->to_ = to_;
  return f;
}

void WindowedTraceEncoder::append(TraceEncoder& fragment) {
  auto& f = static_cast<WindowedTraceEncoder&>(fragment);
  dropped_ += f.dropped_;
  if (exceeded_) return;
  kept_ += f.kept_;
  inner_.append(f.inner_);
  check_size();
}

Status WindowedTraceEncoder::finish(const std::string& path) {
  return inner_.finish(path);
}

}  // namespace npkit
