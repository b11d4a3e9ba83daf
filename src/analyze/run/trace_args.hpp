// run/trace_args.hpp — the typed arguments of one trace event (a slice or an instant), as a
// reader describes its events (run/capture_tracks.hpp) and a trace encoder
// (output/trace/trace_encoder.hpp) writes them.
// Contract: a TraceArgList keeps at most kMax arguments in the order they were added (more are
// dropped); keys and strings are views: what they point to must outlive the list's use.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace npkit {

enum class TraceArgKind : std::uint8_t { kUint, kInt, kString, kThousandths, kUintPair };

// kShown: for the person reading the trace. kRoundTrip: what the trace itself already shows
// (a slice's nesting depth) or only points back into the input (record numbers), kept so that
// npkit-analyze can rebuild the run from its own JSON trace; a viewer-only format may leave it out.
enum class TraceArgUse : std::uint8_t { kShown, kRoundTrip };

// Plain fields without defaults, so that an argument list costs little until arguments are added.
struct TraceArg {
  std::string_view key;
  TraceArgKind kind;
  TraceArgUse use;
  std::uint64_t u;     // kUint, the first of kUintPair
  std::uint64_t u2;    // the second of kUintPair
  std::int64_t i;      // kInt, kThousandths (a value × 1000)
  std::string_view s;  // kString
};

// The arguments of one event, in the order they were added (at most kMax; more are dropped).
class TraceArgList {
 public:
  static constexpr std::size_t kMax = 16;

  void add_uint(std::string_view key, std::uint64_t v, TraceArgUse use = TraceArgUse::kShown) {
    push({key, TraceArgKind::kUint, use, v, 0, 0, {}});
  }
  void add_int(std::string_view key, std::int64_t v) {
    push({key, TraceArgKind::kInt, TraceArgUse::kShown, 0, 0, v, {}});
  }
  void add_string(std::string_view key, std::string_view v) {
    push({key, TraceArgKind::kString, TraceArgUse::kShown, 0, 0, 0, v});
  }
  // `thousandths` / 1000, written with three decimals.
  void add_thousandths(std::string_view key, std::int64_t thousandths) {
    push({key, TraceArgKind::kThousandths, TraceArgUse::kShown, 0, 0, thousandths, {}});
  }
  void add_pair(std::string_view key, std::uint64_t first, std::uint64_t second,
                TraceArgUse use = TraceArgUse::kShown) {
    push({key, TraceArgKind::kUintPair, use, first, second, 0, {}});
  }
  std::size_t size() const { return size_; }
  const TraceArg& operator[](std::size_t i) const { return args_[i]; }
  const TraceArg* begin() const { return args_.data(); }
  const TraceArg* end() const { return args_.data() + size_; }

 private:
  void push(const TraceArg& arg) {
    if (size_ < kMax) args_[size_++] = arg;
  }
  std::array<TraceArg, kMax> args_;  // the first size_ are set
  std::size_t size_ = 0;
};

}  // namespace npkit
