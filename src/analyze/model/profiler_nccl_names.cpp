#include "model/profiler_nccl_names.hpp"

#include <array>
#include <utility>

namespace npkit {
namespace {

constexpr std::array<std::pair<NcclFunc, std::string_view>, 11> kFuncNames = {{
    {NcclFunc::kAllReduce, "AllReduce"},
    {NcclFunc::kAllGather, "AllGather"},
    {NcclFunc::kReduceScatter, "ReduceScatter"},
    {NcclFunc::kBroadcast, "Broadcast"},
    {NcclFunc::kReduce, "Reduce"},
    {NcclFunc::kAllToAll, "AlltoAll"},
    {NcclFunc::kSend, "Send"},
    {NcclFunc::kRecv, "Recv"},
    {NcclFunc::kSendRecv, "SendRecv"},
    {NcclFunc::kGather, "Gather"},
    {NcclFunc::kScatter, "Scatter"},
}};

constexpr std::array<std::pair<std::string_view, std::uint32_t>, 12> kDatatypeSizes = {{
    {"ncclInt8", 1},
    {"ncclUint8", 1},
    {"ncclInt32", 4},
    {"ncclUint32", 4},
    {"ncclInt64", 8},
    {"ncclUint64", 8},
    {"ncclFloat16", 2},
    {"ncclFloat32", 4},
    {"ncclFloat64", 8},
    {"ncclBfloat16", 2},
    {"ncclFloat8e4m3", 1},
    {"ncclFloat8e5m2", 1},
}};

}  // namespace

NcclFunc parse_nccl_func(std::string_view name) {
  for (const auto& [func, text] : kFuncNames) {
    if (text == name) return func;
  }
  return NcclFunc::kOther;
}

std::string_view nccl_func_name(NcclFunc func) {
  for (const auto& [f, text] : kFuncNames) {
    if (f == func) return text;
  }
  return "other";
}

std::string_view coll_key(NcclFunc func) {
  switch (func) {
    case NcclFunc::kAllReduce:
      return "allreduce";
    case NcclFunc::kAllGather:
      return "allgather";
    case NcclFunc::kReduceScatter:
      return "reducescatter";
    case NcclFunc::kBroadcast:
      return "broadcast";
    case NcclFunc::kReduce:
      return "reduce";
    case NcclFunc::kAllToAll:
      return "alltoall";
    case NcclFunc::kSend:
    case NcclFunc::kRecv:
    case NcclFunc::kSendRecv:
      return "sendrecv";
    default:
      return "";
  }
}

bool is_p2p(NcclFunc func) {
  return func == NcclFunc::kSend || func == NcclFunc::kRecv || func == NcclFunc::kSendRecv;
}

std::uint32_t nccl_datatype_size(std::string_view name) {
  for (const auto& [text, size] : kDatatypeSizes) {
    if (text == name) return size;
  }
  return 0;
}

}  // namespace npkit
