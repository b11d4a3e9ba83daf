// gen_npkt_run.cpp — writes a synthetic multi-rank capture of the NCCL profiler plugin (.npkt
// files, format v1) for the scale benchmarks (docs/performance.md, "Scale").
// Contract: one world communicator of `--ranks` ranks over `--hosts` hosts (rank r on host
// r * hosts / ranks); each rank's file is written by the plugin's own dump writer
// (recorder/dump_writer.hpp) and holds what the plugin records with NPKIT_EVENTS=all for
// `--collectives` back-to-back AllReduce calls (float32, RING/SIMPLE, sizes 1 KiB, 4 KiB, ...,
// 256 MiB in turn): GroupApi (states 23, 24), CollApi, KernelLaunch, Group, Coll, and per channel
// a KernelCh (state 22 with the GPU stop time) and, when there is more than one host, a send and
// a receive ProxyOp with `--steps` ProxySteps each (SendGPUWait, SendPeerWait, SendWait; RecvWait,
// RecvFlushWait, RecvGPUWait). Host and GPU clocks differ by a per-rank offset, given by init and
// end clock samples. Every KernelCh time lies inside its collective's window, so none is stale.
// Output is fully determined by the options. With `--node-dirs`, DIR/node<h>/ also holds hard
// links to the files of host h (the input of a per-node `summarize`). The expected counts are
// printed and written to `<out>.expected`.
#include <algorithm>
#include <charconv>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "npkit/format.hpp"
#include "recorder/dump_writer.hpp"

namespace {

namespace fs = std::filesystem;
using npkit::format::ProfilerRecord;

constexpr uint64_t kCommHash = 0x5ca1e000000000a1ull;
constexpr int64_t kBaseNs = 1700000000000000000;  // 2023-11-14 22:13:20 UTC
constexpr uint64_t kCapacity = 64ull * 1024 * 1024 / 64;
constexpr uint16_t kFuncAllReduce = 1, kTypeFloat32 = 2, kAlgoRing = 3, kProtoSimple = 4;
constexpr uint16_t kMainThread = 0, kProxyThread = 1;

struct Options {
  std::string out;
  uint32_t ranks = 8;
  uint32_t hosts = 1;
  uint32_t collectives = 100;
  uint32_t channels = 4;
  uint32_t steps = 2;
  bool node_dirs = false;
};

// The bytes of collective k (1 KiB << 2(k mod 10): 1 KiB .. 256 MiB).
uint64_t collective_bytes(uint32_t k) {
  return uint64_t{1024} << (2 * (k % 10));
}

// GPU time of collective k: 8 µs of latency plus the ring's 2(n-1)/n of the bytes at the bus
// bandwidth (150 GB/s inside a host, 40 GB/s across hosts), with a ±1 % wobble per rank.
int64_t collective_ns(const Options& o, uint32_t k, uint32_t rank) {
  const double bus_bytes_per_ns = o.hosts > 1 ? 40.0 : 150.0;
  const double ring = 2.0 * (o.ranks - 1) / o.ranks;
  const double wobble =
      1.0 + 0.01 * static_cast<double>((rank * 7919 + k * 104729) % 201) / 100.0 - 0.01;
  return 8000 + static_cast<int64_t>(ring * static_cast<double>(collective_bytes(k)) /
                                     bus_bytes_per_ns * wobble);
}

// The longest collective_ns() of collective k over all ranks (the wobble is at most +1 %, plus the
// 2 µs arrival skew).
int64_t slowest_ns(const Options& o, uint32_t k) {
  const double bus_bytes_per_ns = o.hosts > 1 ? 40.0 : 150.0;
  const double ring = 2.0 * (o.ranks - 1) / o.ranks;
  return 8000 + 2000 +
         static_cast<int64_t>(ring * static_cast<double>(collective_bytes(k)) / bus_bytes_per_ns *
                              1.01) +
         1;
}

// Builds one rank's records in call order.
class RankRecords {
 public:
  uint64_t start(uint8_t type, int64_t host_ns, uint64_t parent, const void* payload, size_t size,
                 uint16_t thread = kMainThread) {
    ProfilerRecord r{};
    r.host_ns = static_cast<uint64_t>(host_ns);
    r.event_id = ++last_id_;
    r.parent_id = parent;
    r.kind = npkit::format::kRecordStart;
    r.type = type;
    r.thread = thread;
    r.word = parent == 0 ? npkit::format::kStartParentNull : 0;
    if (size > 0) std::memcpy(r.payload, payload, size);
    records_.push_back(r);
    return r.event_id;
  }
  void state(uint64_t id, uint8_t type, int64_t host_ns, uint32_t state, uint64_t value,
             uint16_t thread = kMainThread) {
    ProfilerRecord r{};
    r.host_ns = static_cast<uint64_t>(host_ns);
    r.event_id = id;
    r.kind = npkit::format::kRecordState;
    r.type = type;
    r.thread = thread;
    r.word = state;
    npkit::format::StatePayload p{};
    p.value = value;
    p.has_args = 1;
    std::memcpy(r.payload, &p, sizeof(p));
    records_.push_back(r);
  }
  void stop(uint64_t id, uint8_t type, int64_t host_ns, uint16_t thread = kMainThread) {
    ProfilerRecord r{};
    r.host_ns = static_cast<uint64_t>(host_ns);
    r.event_id = id;
    r.kind = npkit::format::kRecordStop;
    r.type = type;
    r.thread = thread;
    records_.push_back(r);
  }
  const std::vector<ProfilerRecord>& records() const { return records_; }

 private:
  uint64_t last_id_ = 0;
  std::vector<ProfilerRecord> records_;
};

// One ProxyOp of `steps` steps spread over [begin, end): the three states of its direction.
void proxy_op(RankRecords& out, const Options& o, uint64_t coll, uint32_t rank, uint8_t channel,
              bool send, int64_t begin, int64_t end, uint64_t bytes) {
  namespace f = npkit::format;
  f::ProxyOpPayload op{};
  op.pid = static_cast<int32_t>(10000 + rank);
  op.peer = static_cast<int32_t>((rank + (send ? 1 : o.ranks - 1)) % o.ranks);
  op.n_steps = static_cast<int32_t>(o.steps);
  op.chunk_size = 524288;
  op.rank = static_cast<int32_t>(rank);
  op.channel = channel;
  op.is_send = send ? 1 : 0;
  const uint64_t op_id =
      out.start(f::kTypeProxyOp, begin - 500, coll, &op, sizeof(op), kProxyThread);
  const int64_t step_ns = std::max<int64_t>((end - begin) / o.steps, 40);
  const uint64_t trans = std::max<uint64_t>(bytes / o.channels / o.steps, 1);
  const uint32_t states[2][3] = {
      {f::kStateProxyStepRecvWait, f::kStateProxyStepRecvFlushWait, f::kStateProxyStepRecvGpuWait},
      {f::kStateProxyStepSendGpuWait, f::kStateProxyStepSendPeerWait, f::kStateProxyStepSendWait}};
  for (uint32_t s = 0; s < o.steps; ++s) {
    const int64_t t = begin + s * step_ns;
    f::ProxyStepPayload step{};
    step.step = static_cast<int32_t>(s);
    step.rank = static_cast<int32_t>(rank);
    const uint64_t id = out.start(f::kTypeProxyStep, t, op_id, &step, sizeof(step), kProxyThread);
    for (int i = 0; i < 3; ++i) {
      out.state(id, f::kTypeProxyStep, t + (i + 1) * step_ns / 4, states[send ? 1 : 0][i], trans,
                kProxyThread);
    }
    out.stop(id, f::kTypeProxyStep, t + step_ns - 10, kProxyThread);
  }
  out.stop(op_id, f::kTypeProxyOp, end + 500, kProxyThread);
}

// The records of rank `rank`, and the host time its capture ends.
RankRecords rank_records(const Options& o, uint32_t rank, int64_t gpu_offset, int64_t* end_ns) {
  namespace f = npkit::format;
  RankRecords out;
  int64_t t = kBaseNs + 1000000;
  for (uint32_t k = 0; k < o.collectives; ++k) {
    const uint64_t bytes = collective_bytes(k);
    // Every rank launches collective k at the same base time (the previous collective ends on
    // every rank first), give or take an arrival skew below 2 µs.
    const int64_t launch = t + (rank * 7919 + k * 104729) % 2000;
    f::GroupApiPayload group_api{};
    group_api.group_depth = 1;
    const uint64_t ga = out.start(f::kTypeGroupApi, launch, 0, &group_api, sizeof(group_api));
    out.state(ga, f::kTypeGroupApi, launch + 100, f::kStateGroupStartApiStop, 0);
    f::CollApiPayload coll_api{};
    coll_api.count = bytes / 4;
    coll_api.stream = 0x7f0000001000ull;
    coll_api.func = kFuncAllReduce;
    coll_api.datatype = kTypeFloat32;
    const uint64_t ca = out.start(f::kTypeCollApi, launch + 200, ga, &coll_api, sizeof(coll_api));
    out.stop(ca, f::kTypeCollApi, launch + 1000);
    out.state(ga, f::kTypeGroupApi, launch + 1100, f::kStateGroupEndApiStart, 0);
    f::KernelLaunchPayload kernel_launch{};
    kernel_launch.stream = coll_api.stream;
    const uint64_t kl =
        out.start(f::kTypeKernelLaunch, launch + 1200, ga, &kernel_launch, sizeof(kernel_launch));
    out.stop(kl, f::kTypeKernelLaunch, launch + 1500);
    const uint64_t group = out.start(f::kTypeGroup, launch + 1600, 0, nullptr, 0);
    f::CollPayload coll{};
    coll.seq = k;
    coll.count = bytes / 4;
    coll.func = kFuncAllReduce;
    coll.datatype = kTypeFloat32;
    coll.algo = kAlgoRing;
    coll.proto = kProtoSimple;
    coll.n_channels = static_cast<uint8_t>(o.channels);
    coll.n_warps = 16;
    const uint64_t co = out.start(f::kTypeColl, launch + 1700, ca, &coll, sizeof(coll));
    out.stop(co, f::kTypeColl, launch + 2500);
    out.stop(group, f::kTypeGroup, launch + 2600);
    out.stop(ga, f::kTypeGroupApi, launch + 2700);

    // GPU work starts 3 µs after the launch; the proxy thread sees each channel 2 µs later.
    const int64_t duration = collective_ns(o, k, rank);
    const int64_t gpu_begin = launch + 3000;
    for (uint32_t c = 0; c < o.channels; ++c) {
      const int64_t begin = gpu_begin + c * 50;
      const int64_t end = begin + duration - c * 50;
      f::KernelChPayload kernel{};
      kernel.gpu_start_ns = static_cast<uint64_t>(begin + gpu_offset);
      kernel.channel = static_cast<uint8_t>(c);
      const uint64_t kc =
          out.start(f::kTypeKernelCh, begin + 2000, co, &kernel, sizeof(kernel), kProxyThread);
      out.state(kc, f::kTypeKernelCh, end + 2000, f::kStateKernelChStop,
                static_cast<uint64_t>(end + gpu_offset), kProxyThread);
      out.stop(kc, f::kTypeKernelCh, end + 2100, kProxyThread);
      if (o.hosts > 1) {
        proxy_op(out, o, co, rank, static_cast<uint8_t>(c), true, begin, end, bytes);
        proxy_op(out, o, co, rank, static_cast<uint8_t>(c), false, begin, end, bytes);
      }
    }
    t += 3000 + slowest_ns(o, k) + 22000;  // the next launch, back to back after the slowest
  }
  *end_ns = t + 1000000;
  return out;
}

std::string rank_file_name(uint32_t rank) {
  char name[64];
  std::snprintf(name, sizeof(name), "npkit_%016" PRIx64 "_rank%u.npkt", kCommHash, rank);
  return name;
}

// Writes rank `rank`'s file; returns its record count.
uint64_t write_rank(const Options& o, uint32_t rank) {
  namespace f = npkit::format;
  const uint32_t host = static_cast<uint32_t>(uint64_t{rank} * o.hosts / o.ranks);
  const int64_t gpu_offset = 135000 + 1000 * static_cast<int64_t>(rank);
  int64_t end_ns = 0;
  const RankRecords records = rank_records(o, rank, gpu_offset, &end_ns);

  npkit::capture::DumpContent content;
  f::CommunicatorInfo& comm = content.comm;
  comm.comm_hash = kCommHash;
  comm.rank = static_cast<int32_t>(rank);
  comm.nranks = static_cast<int32_t>(o.ranks);
  comm.nnodes = static_cast<int32_t>(o.hosts);
  comm.pid = static_cast<int32_t>(10000 + rank);
  comm.capture_start_ns = kBaseNs;
  comm.capture_end_ns = end_ns;
  comm.end_reason = f::kEndFinalize;
  comm.clock_method = f::kClockKernelBracket;
  comm.profiler_api = 5;
  comm.host_clock = f::kHostClockRealtime;
  comm.event_mask = 4095;
  comm.records_capacity = kCapacity;
  comm.records_attempted = records.records().size();
  char hostname[32];
  std::snprintf(hostname, sizeof(hostname), "node%04u", host);
  content.metadata = {
      {"hostname", hostname},          {"comm_name", "world"},
      {"gpu.name", "NVIDIA H200"},     {"gpu.cuda_device", std::to_string(rank % 8)},
      {"nccl.version", "2.28.9"},      {"capture.events", "all"},
      {"capture.buffer_size_mb", "64"}};
  content.clock_samples = {
      {kBaseNs, kBaseNs + 2000, static_cast<uint64_t>(kBaseNs + 1000 + gpu_offset),
       f::kSampleAtInit, 0},
      {end_ns - 1000, end_ns, static_cast<uint64_t>(end_ns - 500 + gpu_offset), f::kSampleAtEnd,
       0}};
  content.strings = {{kFuncAllReduce, "AllReduce"},
                     {kTypeFloat32, "ncclFloat32"},
                     {kAlgoRing, "RING"},
                     {kProtoSimple, "SIMPLE"}};
  f::ThreadEntry main_thread{};
  main_thread.slot = kMainThread;
  main_thread.os_tid = static_cast<int32_t>(10000 + rank);
  std::strncpy(main_thread.name, "python", sizeof(main_thread.name) - 1);
  f::ThreadEntry proxy_thread{};
  proxy_thread.slot = kProxyThread;
  proxy_thread.os_tid = static_cast<int32_t>(20000 + rank);
  std::strncpy(proxy_thread.name, "NCCL Progress", sizeof(proxy_thread.name) - 1);
  content.threads = {main_thread, proxy_thread};
  content.records = records.records().data();
  content.record_order.resize(records.records().size());
  std::iota(content.record_order.begin(), content.record_order.end(), uint64_t{0});

  // The writer never replaces a file: a file of an earlier run at this name goes first.
  fs::remove(fs::path(o.out) / rank_file_name(rank));
  std::string error;
  const std::shared_ptr<const npkit::capture::DumpDirectory> directory =
      npkit::capture::open_dump_directory(o.out, &error);
  npkit::capture::WrittenDump written;
  if (directory == nullptr || !npkit::capture::write_dump_file(
                                  content, *directory, rank_file_name(rank), &written, &error)) {
    throw std::runtime_error(error);
  }
  return content.record_order.size();
}

void usage(std::FILE* to) {
  std::fputs(
      "usage: npkit_gen_npkt_run --out DIR [--ranks N] [--hosts H] [--collectives K]\n"
      "                          [--channels C] [--steps S] [--node-dirs]\n"
      "Writes one .npkt file per rank of a synthetic NCCL job (one world communicator).\n"
      "  --out DIR          output directory (created; existing rank files are replaced)\n"
      "  --ranks N          ranks (default 8)\n"
      "  --hosts H          hosts; rank r runs on host r*H/N (default 1); with H > 1 every\n"
      "                     channel of every collective has a send and a receive ProxyOp\n"
      "  --collectives K    AllReduce calls per rank, 1 KiB .. 256 MiB in turn (default 100)\n"
      "  --channels C       KernelCh channels per collective, 1..64 (default 4)\n"
      "  --steps S          ProxySteps per ProxyOp (default 2)\n"
      "  --node-dirs        also DIR/node<h>/: hard links to host h's files\n",
      to);
}

template <typename T>
T parse_number(std::string_view flag, std::string_view text) {
  T value{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) {
    throw std::runtime_error(std::string(flag) + ": not a number: " + std::string(text));
  }
  return value;
}

Options parse_options(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "-h" || a == "--help") {
      usage(stdout);
      std::exit(0);
    }
    if (a == "--node-dirs") {
      o.node_dirs = true;
      continue;
    }
    if (i + 1 >= argc) throw std::runtime_error(std::string(a) + " needs a value (see --help)");
    const std::string_view v = argv[++i];
    if (a == "--out") {
      o.out = std::string(v);
    } else if (a == "--ranks") {
      o.ranks = parse_number<uint32_t>(a, v);
    } else if (a == "--hosts") {
      o.hosts = parse_number<uint32_t>(a, v);
    } else if (a == "--collectives") {
      o.collectives = parse_number<uint32_t>(a, v);
    } else if (a == "--channels") {
      o.channels = parse_number<uint32_t>(a, v);
    } else if (a == "--steps") {
      o.steps = parse_number<uint32_t>(a, v);
    } else {
      throw std::runtime_error("unknown option " + std::string(a) + " (see --help)");
    }
  }
  if (o.out.empty()) throw std::runtime_error("--out DIR is required (see --help)");
  if (o.ranks == 0 || o.hosts == 0 || o.hosts > o.ranks) {
    throw std::runtime_error("need 1 <= --hosts <= --ranks");
  }
  if (o.channels == 0 || o.channels > 64) throw std::runtime_error("--channels must be 1..64");
  if (o.steps == 0) throw std::runtime_error("--steps must be at least 1");
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Options o = parse_options(argc, argv);
    fs::create_directories(o.out);
    uint64_t records = 0;
    uint64_t bytes = 0;
    for (uint32_t r = 0; r < o.ranks; ++r) {
      records += write_rank(o, r);
      bytes += fs::file_size(fs::path(o.out) / rank_file_name(r));
    }
    if (o.node_dirs) {
      for (uint32_t r = 0; r < o.ranks; ++r) {
        const uint32_t host = static_cast<uint32_t>(uint64_t{r} * o.hosts / o.ranks);
        const fs::path dir = fs::path(o.out) / ("node" + std::to_string(host));
        fs::create_directories(dir);
        const fs::path link = dir / rank_file_name(r);
        fs::remove(link);
        fs::create_hard_link(fs::path(o.out) / rank_file_name(r), link);
      }
    }
    char summary[512];
    std::snprintf(summary, sizeof(summary),
                  "ranks %u\nhosts %u\ncollectives_per_rank %u\nchannels %u\n"
                  "proxy_ops_per_collective %u\nrecords %" PRIu64 "\nbytes %" PRIu64 "\n",
                  o.ranks, o.hosts, o.collectives, o.channels, o.hosts > 1 ? 2 * o.channels : 0,
                  records, bytes);
    std::printf("wrote %s: %u rank file(s) over %u host(s), %" PRIu64 " records, %.1f MB\n%s",
                o.out.c_str(), o.ranks, o.hosts, records, static_cast<double>(bytes) / 1e6,
                summary);
    std::FILE* expected = std::fopen((o.out + ".expected").c_str(), "w");
    if (expected == nullptr) throw std::runtime_error("cannot write " + o.out + ".expected");
    std::fputs(summary, expected);
    std::fclose(expected);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "npkit_gen_npkt_run: %s\n", e.what());
    return 2;
  }
}
