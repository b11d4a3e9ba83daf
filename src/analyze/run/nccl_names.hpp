// run/nccl_names.hpp — NCCL's names for collectives and data types, as the profiler
// plugin records them (the strings NCCL 2.28 passes: "AllReduce", "ncclFloat32", ...).
// Contract: parse_nccl_func maps a name to NcclFunc (kOther for anything unknown, never an
// error); coll_key gives the lower-case key of the nccl-tests conventions and of `--coll`
// ("allreduce", ..., Send/Recv/SendRecv -> "sendrecv"; "" for kOther, Gather, Scatter);
// nccl_func_of_key is coll_key's inverse ("sendrecv" -> kSendRecv; kOther for any other word);
// nccl_datatype_size is the element size in bytes, 0 for an unknown name; nccl_tests_type_name
// is the name nccl-tests prints for a data type ("float", "half", "bfloat16", "int8", ...,
// "f8e4m3"), the NCCL name itself when it has none; nccl_type_of_tests_name is its inverse (""
// for a name nccl-tests does not print). nccl_func_of_tests_program maps a nccl-tests program
// ("all_reduce_perf", also with a directory or an "_mpi" suffix) to its collective (kOther when
// it is none of NCCL's).
#pragma once

#include <cstdint>
#include <string_view>

namespace npkit {

enum class NcclFunc : std::uint8_t {
  kOther,
  kAllReduce,
  kAllGather,
  kReduceScatter,
  kBroadcast,
  kReduce,
  kAllToAll,
  kSend,
  kRecv,
  kSendRecv,
  kGather,
  kScatter,
};

NcclFunc parse_nccl_func(std::string_view name);
NcclFunc nccl_func_of_key(std::string_view key);
std::string_view nccl_func_name(NcclFunc func);
std::string_view coll_key(NcclFunc func);
bool is_p2p(NcclFunc func);
std::uint32_t nccl_datatype_size(std::string_view name);
std::string_view nccl_tests_type_name(std::string_view name);
std::string_view nccl_type_of_tests_name(std::string_view tests_name);
NcclFunc nccl_func_of_tests_program(std::string_view program);

}  // namespace npkit
