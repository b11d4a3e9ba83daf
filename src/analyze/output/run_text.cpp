#include "output/run_text.hpp"

#include <fmt/format.h>

namespace npkit {

const char* input_kind_name(InputKind kind) {
  switch (kind) {
    case InputKind::kLegacyDump:
      return "legacy NPKit dump";
    case InputKind::kNpkt:
      return ".npkt capture";
    case InputKind::kChromeTrace:
      return "Chrome trace";
    case InputKind::kNcclTests:
      return "nccl-tests results file";
    case InputKind::kInspector:
      return "NCCL Inspector log";
    case InputKind::kFlightRecorder:
      return "PyTorch Flight Recorder dump";
  }
  return "";
}

const char* input_kind_key(InputKind kind) {
  switch (kind) {
    case InputKind::kLegacyDump:
      return "legacy";
    case InputKind::kNpkt:
      return "npkt";
    case InputKind::kChromeTrace:
      return "chrome-trace";
    case InputKind::kNcclTests:
      return "nccl-tests";
    case InputKind::kInspector:
      return "inspector";
    case InputKind::kFlightRecorder:
      return "flight-recorder";
  }
  return "";
}

std::string comm_key(const RunCommunicator& comm) {
  if (!comm.id.empty()) return comm.id;
  return comm.hash == 0 ? comm.scope : fmt::format("{:016x}", comm.hash);
}

std::string describe_communicator(const RunCommunicator& comm) {
  std::string s = comm.hash == 0 ? comm.scope : "comm " + comm_key(comm);
  if (!comm.name.empty()) s += " (" + comm.name + ")";
  s += fmt::format(", {} of {} rank(s)", comm.ranks.size(), comm.nranks);
  if (!comm.absent_ranks.empty()) s += "; rank(s) " + rank_ranges(comm.absent_ranks) + " absent";
  return s;
}

}  // namespace npkit
