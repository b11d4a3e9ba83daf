#include "run/nccl_tests_convention.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>

#include "util/lower_case.hpp"

namespace npkit {
namespace {

// n for the collectives whose S counts every rank's part, else 1.
std::uint64_t rank_parts(NcclFunc func, std::int32_t nranks) {
  const bool gathered = func == NcclFunc::kAllGather || func == NcclFunc::kReduceScatter ||
                        func == NcclFunc::kAllToAll;
  return gathered ? static_cast<std::uint64_t>(std::max(nranks, 1)) : 1;
}

constexpr std::array<std::string_view, 8> kCollOptions = {"all",           "allreduce", "allgather",
                                                          "reducescatter", "alltoall",  "broadcast",
                                                          "reduce",        "sendrecv"};

}  // namespace

std::optional<BusConvention> nccl_tests_convention(std::string_view func, std::uint32_t n) {
  if (n == 0) return std::nullopt;
  const double nd = static_cast<double>(n);
  if (func == "allreduce") return BusConvention{false, 2.0 * (nd - 1) / nd};
  if (func == "allgather" || func == "reducescatter" || func == "alltoall") {
    return BusConvention{true, (nd - 1) / nd};
  }
  if (func == "broadcast" || func == "reduce" || func == "sendrecv")
    return BusConvention{false, 1.0};
  return std::nullopt;
}

std::uint64_t nccl_tests_bytes(NcclFunc func, std::uint64_t count, std::uint32_t element_size,
                               std::int32_t nranks) {
  return count * element_size * rank_parts(func, nranks);
}

std::uint64_t nccl_tests_count(NcclFunc func, std::uint64_t bytes, std::uint32_t element_size,
                               std::int32_t nranks) {
  const std::uint64_t per = std::uint64_t{element_size} * rank_parts(func, nranks);
  return per == 0 ? 0 : bytes / per;
}

bool coll_selects(std::string_view option, std::string_view func) {
  return option == "all" || option == func;
}

bool valid_coll_option(std::string_view option) {
  for (auto o : kCollOptions) {
    if (o == option) return true;
  }
  return false;
}

std::optional<std::string> coll_option_key(std::string_view typed) {
  std::string key = lower_case(typed);
  std::erase(key, '_');
  if (key == "send" || key == "recv") key = "sendrecv";
  if (!valid_coll_option(key)) return std::nullopt;
  return key;
}

std::string coll_option_list() {
  return fmt::format("{}", fmt::join(kCollOptions, ", "));
}

}  // namespace npkit
