#include "run/nccl_names.hpp"

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

struct Datatype {
  std::string_view nccl;
  std::uint32_t size;
  std::string_view nccl_tests;  // nccl-tests' test_typenames
};

constexpr std::array<Datatype, 12> kDatatypes = {{
    {"ncclInt8", 1, "int8"},
    {"ncclUint8", 1, "uint8"},
    {"ncclInt32", 4, "int32"},
    {"ncclUint32", 4, "uint32"},
    {"ncclInt64", 8, "int64"},
    {"ncclUint64", 8, "uint64"},
    {"ncclFloat16", 2, "half"},
    {"ncclFloat32", 4, "float"},
    {"ncclFloat64", 8, "double"},
    {"ncclBfloat16", 2, "bfloat16"},
    {"ncclFloat8e4m3", 1, "f8e4m3"},
    {"ncclFloat8e5m2", 1, "f8e5m2"},
}};

// nccl-tests' programs (src/*.cu, built as <name>_perf).
constexpr std::array<std::pair<std::string_view, NcclFunc>, 9> kTestPrograms = {{
    {"all_reduce", NcclFunc::kAllReduce},
    {"all_gather", NcclFunc::kAllGather},
    {"reduce_scatter", NcclFunc::kReduceScatter},
    {"broadcast", NcclFunc::kBroadcast},
    {"reduce", NcclFunc::kReduce},
    {"alltoall", NcclFunc::kAllToAll},
    {"sendrecv", NcclFunc::kSendRecv},
    {"gather", NcclFunc::kGather},
    {"scatter", NcclFunc::kScatter},
}};

}  // namespace

NcclFunc parse_nccl_func(std::string_view name) {
  for (const auto& [func, text] : kFuncNames) {
    if (text == name) return func;
  }
  return NcclFunc::kOther;
}

NcclFunc nccl_func_of_key(std::string_view key) {
  if (key == "sendrecv") return NcclFunc::kSendRecv;
  for (const auto& [func, text] : kFuncNames) {
    if (!is_p2p(func) && coll_key(func) == key) return func;
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
  for (const auto& t : kDatatypes) {
    if (t.nccl == name) return t.size;
  }
  return 0;
}

std::string_view nccl_tests_type_name(std::string_view name) {
  for (const auto& t : kDatatypes) {
    if (t.nccl == name) return t.nccl_tests;
  }
  return name;
}

std::string_view nccl_type_of_tests_name(std::string_view tests_name) {
  for (const auto& t : kDatatypes) {
    if (t.nccl_tests == tests_name) return t.nccl;
  }
  return "";
}

NcclFunc nccl_func_of_tests_program(std::string_view program) {
  const std::size_t slash = program.find_last_of('/');
  if (slash != std::string_view::npos) program.remove_prefix(slash + 1);
  for (const std::string_view suffix : {"_mpi", "_perf"}) {
    if (program.size() > suffix.size() &&
        program.substr(program.size() - suffix.size()) == suffix) {
      program.remove_suffix(suffix.size());
    }
  }
  for (const auto& [name, func] : kTestPrograms) {
    if (name == program) return func;
  }
  return NcclFunc::kOther;
}

}  // namespace npkit
