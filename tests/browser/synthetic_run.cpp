// npkt_synthetic_run — TEST-ONLY writer of a large synthetic .npkt capture for the HTML report's
// scale test (a 64-rank, 10k-collective run must give a page under 5 MB that loads in under 2 s).
//
//   npkt_synthetic_run --out DIR [--ranks 64] [--collectives 10000] [--channels 2]
//
// One communicator of RANKS ranks, 8 ranks per host; each rank's file (support/npkt_writer.hpp)
// holds COLLECTIVES AllReduce float32 operations back to back, sizes 1 KiB << (i mod 15), RING/LL
// below 64 KiB and RING/SIMPLE from there, each a Coll event with CHANNELS KernelCh children
// (start, GPU stop state 22, stop). Rank r's GPU timer runs r µs ahead of its host clock (init
// and end clock samples, no drift). Arrival skew is deterministic: (37 r + 11 i) mod 500 ns, and
// rank 13 arrives 3 µs late at every 5th operation. Output depends only on the options.
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>

#include "npkit/format.hpp"
#include "support/npkt_writer.hpp"

namespace {

using npkit::test::CollStart;
using npkit::test::KernelChStart;
using npkit::test::NpktBuilder;

constexpr std::uint64_t kCommHash = 0x5ca1ab1e0064a11dULL;
constexpr std::int64_t kBase = 1700000000000000000LL;

std::uint64_t size_of(std::uint64_t i) {
  return 1024ULL << (i % 15);
}

// The operation's GPU time on every rank (a fixed latency plus the bytes at ~150 GB/s).
std::int64_t duration_of(std::uint64_t i) {
  return 6000 + static_cast<std::int64_t>(size_of(i) / 150);
}

}  // namespace

int main(int argc, char** argv) {
  std::string out;
  long ranks = 64;
  long collectives = 10000;
  long channels = 2;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i];
    const long value = std::atol(argv[i + 1]);
    if (key == "--out") {
      out = argv[i + 1];
    } else if (key == "--ranks") {
      ranks = value;
    } else if (key == "--collectives") {
      collectives = value;
    } else if (key == "--channels") {
      channels = value;
    } else {
      std::cerr << "npkt_synthetic_run: unknown option " << key << "\n";
      return 2;
    }
  }
  if (out.empty() || ranks < 1 || collectives < 1 || channels < 1 || channels > 32) {
    std::cerr << "usage: npkt_synthetic_run --out DIR [--ranks N] [--collectives N] "
                 "[--channels 1..32]\n";
    return 2;
  }
  std::filesystem::create_directories(out);
  // Start times of the operations: each begins 20 µs after the previous one's slowest rank ends.
  std::vector<std::int64_t> start(static_cast<std::size_t>(collectives));
  std::int64_t t = kBase + 1000000;
  for (long i = 0; i < collectives; ++i) {
    start[static_cast<std::size_t>(i)] = t;
    t += 500 + 3000 + duration_of(static_cast<std::uint64_t>(i)) + 20000;
  }
  const std::int64_t end = t + 1000000;
  for (long r = 0; r < ranks; ++r) {
    NpktBuilder b;
    b.comm(kCommHash, static_cast<std::int32_t>(r), static_cast<std::int32_t>(ranks));
    b.comm_info().nnodes = static_cast<std::int32_t>((ranks + 7) / 8);
    b.comm_info().capture_start_ns = kBase;
    b.comm_info().capture_end_ns = end;
    b.comm_info().clock_method = 1;
    b.meta("hostname", "node" + std::to_string(r / 8));
    b.meta("gpu.name", "NVIDIA H200");
    b.meta("nccl.version", "2.28.9");
    b.meta("capture.events", "coll,kernel");
    b.meta("env.NCCL_PROTO", "LL,Simple");
    const std::int64_t offset = 1000 * r;  // GPU − host
    b.clock_sample(kBase, kBase + 1000, static_cast<std::uint64_t>(kBase + 500 + offset),
                   npkit::format::kSampleAtInit);
    b.clock_sample(end, end + 1000, static_cast<std::uint64_t>(end + 500 + offset),
                   npkit::format::kSampleAtEnd);
    b.standard_names();
    b.string(1, "AllReduce").string(2, "ncclFloat32").string(3, "RING").string(4, "LL");
    b.string(5, "SIMPLE");
    std::uint64_t id = 1;
    for (long i = 0; i < collectives; ++i) {
      const auto u = static_cast<std::uint64_t>(i);
      std::int64_t arrival = start[u] + (37 * r + 11 * i) % 500;
      if (r == 13 && i % 5 == 0) arrival += 3000;
      const std::int64_t stop = arrival + duration_of(u);
      const std::uint64_t coll = id++;
      CollStart c;
      c.seq = u;
      c.count = size_of(u) / 4;
      c.func = 1;
      c.datatype = 2;
      c.algo = 3;
      c.proto = size_of(u) < 65536 ? 4 : 5;
      c.n_channels = static_cast<std::uint8_t>(channels);
      c.n_warps = 16;
      b.start(coll, 0, npkit::format::kTypeColl, static_cast<std::uint64_t>(arrival - 2000), c);
      b.stop(coll, npkit::format::kTypeColl, static_cast<std::uint64_t>(arrival - 1000));
      for (long ch = 0; ch < channels; ++ch) {
        const std::uint64_t k = id++;
        KernelChStart kc;
        kc.gpu_start_ns = static_cast<std::uint64_t>(arrival + 50 * ch + offset);
        kc.channel = static_cast<std::uint8_t>(ch);
        b.start(k, coll, npkit::format::kTypeKernelCh,
                static_cast<std::uint64_t>(arrival + 1000 + 50 * ch), kc);
        b.state(k, npkit::format::kTypeKernelCh, static_cast<std::uint64_t>(stop + 1500),
                npkit::format::kStateKernelChStop,
                static_cast<std::uint64_t>(stop - 40 * ch + offset), true);
        b.stop(k, npkit::format::kTypeKernelCh, static_cast<std::uint64_t>(stop + 1600));
      }
    }
    b.write(out + "/" + b.file_name());
  }
  std::cout << "wrote " << ranks << " file(s) of " << collectives << " AllReduce each to " << out
            << "\n";
  return 0;
}
