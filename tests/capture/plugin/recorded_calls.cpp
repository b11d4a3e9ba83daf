#include "capture/plugin/recorded_calls.hpp"

#include <simdjson.h>
#include <zlib.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string_view>
#include <utility>

namespace npkit::test {
namespace {

// NCCL's strings are static: one address per text for the life of the process.
const char* stable_string(std::string_view text) {
  static std::mutex mutex;
  static std::set<std::string, std::less<>>* strings = new std::set<std::string, std::less<>>();
  std::lock_guard<std::mutex> lock(mutex);
  return strings->emplace(text).first->c_str();
}

class Line {
 public:
  Line(simdjson::dom::element object, const std::string& where) : object_(object), where_(where) {}

  simdjson::dom::element field(const char* key) const {
    simdjson::dom::element value;
    if (object_[key].get(value) != simdjson::SUCCESS) {
      throw std::runtime_error(where_ + ": no field \"" + key + "\"");
    }
    return value;
  }
  bool has(const char* key) const {
    simdjson::dom::element value;
    return object_[key].get(value) == simdjson::SUCCESS;
  }
  uint64_t u64(const char* key) const { return checked(field(key).get_uint64(), key); }
  int64_t i64(const char* key) const { return checked(field(key).get_int64(), key); }
  int i32(const char* key) const { return static_cast<int>(i64(key)); }
  std::string_view text(const char* key) const { return checked(field(key).get_string(), key); }
  const char* stable_text(const char* key) const { return stable_string(text(key)); }
  // "(nil)" or "0x..." as printed by %p.
  void* pointer(const char* key) const {
    const std::string value(text(key));
    if (value == "(nil)") return nullptr;
    return reinterpret_cast<void*>(std::strtoull(value.c_str(), nullptr, 16));
  }
  const std::string& where() const { return where_; }

 private:
  template <typename T>
  T checked(simdjson::simdjson_result<T> result, const char* key) const {
    T value;
    if (std::move(result).get(value) != simdjson::SUCCESS) {
      throw std::runtime_error(where_ + ": field \"" + key + "\" has the wrong type");
    }
    return value;
  }

  simdjson::dom::element object_;
  std::string where_;
};

void read_descriptor(const Line& line, RecordedCall* call) {
  abi::EventDescrV5& d = call->descr;
  std::memset(static_cast<void*>(&d), 0, sizeof(d));
  d.type = line.u64("type");
  d.rank = line.i32("rank");
  call->parent = line.u64("parent");
  switch (d.type) {
    case abi::kGroup:
    case abi::kProxyCtrl:
      break;
    case abi::kGroupApi:
      d.groupApi.graphCaptured = line.i64("graphCaptured") != 0;
      d.groupApi.groupDepth = line.i32("groupDepth");
      break;
    case abi::kCollApi:
      d.collApi.func = line.stable_text("func");
      d.collApi.count = line.u64("count");
      d.collApi.datatype = line.stable_text("datatype");
      d.collApi.root = line.i32("root");
      d.collApi.stream = line.pointer("stream");
      d.collApi.graphCaptured = line.i64("graphCaptured") != 0;
      break;
    case abi::kP2pApi:
      d.p2pApi.func = line.stable_text("func");
      d.p2pApi.count = line.u64("count");
      d.p2pApi.datatype = line.stable_text("datatype");
      d.p2pApi.stream = line.pointer("stream");
      d.p2pApi.graphCaptured = line.i64("graphCaptured") != 0;
      break;
    case abi::kKernelLaunch:
      d.kernelLaunch.stream = line.pointer("stream");
      break;
    case abi::kColl:
      d.coll.seqNumber = line.u64("seqNumber");
      d.coll.func = line.stable_text("func");
      d.coll.count = line.u64("count");
      d.coll.root = line.i32("root");
      d.coll.datatype = line.stable_text("datatype");
      d.coll.nChannels = static_cast<uint8_t>(line.u64("nChannels"));
      d.coll.nWarps = static_cast<uint8_t>(line.u64("nWarps"));
      d.coll.algo = line.stable_text("algo");
      d.coll.proto = line.stable_text("proto");
      call->parent_group = line.u64("parentGroup");
      break;
    case abi::kP2p:
      d.p2p.func = line.stable_text("func");
      d.p2p.datatype = line.stable_text("datatype");
      d.p2p.count = line.u64("count");
      d.p2p.peer = line.i32("peer");
      d.p2p.nChannels = static_cast<uint8_t>(line.u64("nChannels"));
      call->parent_group = line.u64("parentGroup");
      break;
    case abi::kProxyOp:
      d.proxyOp.pid = static_cast<pid_t>(line.i64("pid"));
      d.proxyOp.channelId = static_cast<uint8_t>(line.u64("channelId"));
      d.proxyOp.peer = line.i32("peer");
      d.proxyOp.nSteps = line.i32("nSteps");
      d.proxyOp.chunkSize = line.i32("chunkSize");
      d.proxyOp.isSend = line.i32("isSend");
      break;
    case abi::kProxyStep:
      d.proxyStep.step = line.i32("step");
      break;
    case abi::kKernelCh:
      d.kernelCh.channelId = static_cast<uint8_t>(line.u64("channelId"));
      d.kernelCh.pTimer = line.u64("pTimer");
      break;
    default:
      throw std::runtime_error(line.where() + ": event type " + std::to_string(d.type) +
                               " is not replayable");
  }
}

void read_state_args(const Line& line, RecordedCall* call) {
  call->state = line.i32("state");
  std::memset(static_cast<void*>(&call->args), 0, sizeof(call->args));
  if (line.has("nullArgs")) {
    call->null_args = line.i64("nullArgs") != 0;
  } else if (line.has("transSize")) {
    call->args.proxyStep.transSize = line.u64("transSize");
  } else if (line.has("appendedProxyOps")) {
    call->args.proxyCtrl.appendedProxyOps = line.i32("appendedProxyOps");
  } else if (line.has("pTimer")) {
    call->args.kernelCh.pTimer = line.u64("pTimer");
  } else {
    throw std::runtime_error(line.where() + ": state without arguments or nullArgs");
  }
}

RecordedCall read_call(const Line& line) {
  RecordedCall call;
  call.seq = line.u64("seq");
  call.tid = line.i64("tid");
  const std::string_view kind = line.text("call");
  if (kind == "init") {
    call.kind = RecordedCall::Kind::kInit;
    call.ctx = line.u64("ctx");
    call.comm_id = std::strtoull(std::string(line.text("commId")).c_str(), nullptr, 16);
    call.mask = line.i32("mask");
    call.comm_name = std::string(line.text("commName"));
    call.nnodes = line.i32("nNodes");
    call.nranks = line.i32("nranks");
    call.rank = line.i32("rank");
  } else if (kind == "start") {
    call.kind = RecordedCall::Kind::kStart;
    call.ctx = line.u64("ctx");
    call.handle = line.u64("h");
    read_descriptor(line, &call);
  } else if (kind == "state") {
    call.kind = RecordedCall::Kind::kState;
    call.handle = line.u64("h");
    read_state_args(line, &call);
  } else if (kind == "stop") {
    call.kind = RecordedCall::Kind::kStop;
    call.handle = line.u64("h");
  } else if (kind == "finalize") {
    call.kind = RecordedCall::Kind::kFinalize;
    call.ctx = line.u64("ctx");
  } else {
    throw std::runtime_error(line.where() + ": unknown call \"" + std::string(kind) + "\"");
  }
  return call;
}

int pid_from_name(const std::string& path) {
  const std::string name = std::filesystem::path(path).filename().string();
  if (name.rfind("rec_", 0) != 0) throw std::runtime_error(path + ": name is not rec_<pid>...");
  return std::atoi(name.c_str() + 4);
}

}  // namespace

Recording read_recording(const std::string& path) {
  Recording recording;
  recording.path = path;
  recording.pid = pid_from_name(path);
  std::unique_ptr<gzFile_s, int (*)(gzFile)> file(gzopen(path.c_str(), "rb"), gzclose);
  if (file == nullptr) throw std::runtime_error(path + ": cannot open");
  simdjson::dom::parser parser;
  std::string line;
  char chunk[4096];
  size_t line_number = 0;
  while (gzgets(file.get(), chunk, sizeof(chunk)) != nullptr) {
    line += chunk;
    if (line.back() != '\n') continue;  // a line longer than the chunk
    ++line_number;
    const std::string where = path + ":" + std::to_string(line_number);
    simdjson::dom::element object;
    if (parser.parse(line).get(object) != simdjson::SUCCESS) {
      throw std::runtime_error(where + ": not JSON");
    }
    RecordedCall call = read_call(Line(object, where));
    if (call.seq != recording.calls.size()) {
      throw std::runtime_error(where + ": seq " + std::to_string(call.seq) + ", expected " +
                               std::to_string(recording.calls.size()));
    }
    recording.calls.push_back(std::move(call));
    line.clear();
  }
  int gz_error = Z_OK;
  gzerror(file.get(), &gz_error);
  if (gz_error != Z_OK && gz_error != Z_STREAM_END) {
    throw std::runtime_error(path + ": gzip error " + std::to_string(gz_error));
  }
  if (!line.empty()) throw std::runtime_error(path + ": last line has no newline");
  return recording;
}

}  // namespace npkit::test
