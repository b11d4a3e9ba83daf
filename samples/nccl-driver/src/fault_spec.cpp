#include "fault_spec.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>

namespace npkit::driver {
namespace {

constexpr FaultKind kKinds[] = {FaultKind::kKill, FaultKind::kExit, FaultKind::kMismatch,
                                FaultKind::kSkip};

std::optional<long long> parse_non_negative(std::string_view text) {
  long long value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || text.empty() || value < 0) return std::nullopt;
  return value;
}

}  // namespace

std::string_view fault_name(FaultKind kind) {
  switch (kind) {
    case FaultKind::kKill:
      return "kill";
    case FaultKind::kExit:
      return "exit";
    case FaultKind::kMismatch:
      return "mismatch";
    case FaultKind::kSkip:
      return "skip";
  }
  return "unknown";
}

std::optional<FaultSpec> parse_fault(std::string_view text, std::string* error) {
  const std::size_t first = text.find(':');
  const std::size_t second = first == std::string_view::npos ? first : text.find(':', first + 1);
  if (second == std::string_view::npos || text.find(':', second + 1) != std::string_view::npos) {
    *error = "--fault expects KIND:RANK:CALL (e.g. kill:1:10), got '" + std::string(text) + "'";
    return std::nullopt;
  }
  std::string kind_text(text.substr(0, first));
  std::transform(kind_text.begin(), kind_text.end(), kind_text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  FaultSpec fault;
  const auto* kind = std::find_if(std::begin(kKinds), std::end(kKinds),
                                  [&](FaultKind k) { return fault_name(k) == kind_text; });
  if (kind == std::end(kKinds)) {
    *error = "--fault: unknown kind '" + kind_text + "' (known: kill, exit, mismatch, skip)";
    return std::nullopt;
  }
  fault.kind = *kind;
  const std::optional<long long> rank =
      parse_non_negative(text.substr(first + 1, second - first - 1));
  if (!rank || *rank > std::numeric_limits<int>::max()) {
    *error = "--fault: RANK must be a non-negative integer, got '" +
             std::string(text.substr(first + 1, second - first - 1)) + "'";
    return std::nullopt;
  }
  fault.rank = static_cast<int>(*rank);
  const std::optional<long long> call = parse_non_negative(text.substr(second + 1));
  if (!call) {
    *error = "--fault: CALL must be a non-negative integer, got '" +
             std::string(text.substr(second + 1)) + "'";
    return std::nullopt;
  }
  fault.call = *call;
  return fault;
}

std::string describe_fault(const FaultSpec& fault) {
  const std::string rank = "rank " + std::to_string(fault.rank);
  const std::string call = "call " + std::to_string(fault.call);
  switch (fault.kind) {
    case FaultKind::kKill:
      return "kill: " + rank + " SIGKILLs itself right after " + call + " returned";
    case FaultKind::kExit:
      return "exit: " + rank + " exits with status 0 just before " + call +
             ", without ncclCommDestroy";
    case FaultKind::kMismatch:
      return "mismatch: " + rank + " calls ncclAllGather (count / nranks) at " + call;
    case FaultKind::kSkip:
      return "skip: " + rank + " skips " + call + " and every later call, alive and sleeping";
  }
  return "unknown fault";
}

}  // namespace npkit::driver
