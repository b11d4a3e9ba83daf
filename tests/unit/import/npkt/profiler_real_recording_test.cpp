// Real NCCL 2.28.9 calls (2 x H200 over NVLink, PyTorch, tests/data/nccl-profiler-calls): each
// recorded call is written as the plugin would record it (test writer), read back and analysed.
// Expected values come from the recording itself, counted here independently of the analyzer, and
// from the workload its README describes (all_to_all_single of 1 KiB, 64 KiB, 1 MiB, 16 MiB of
// float32; one send/recv pair; a second communicator with one all_reduce).
#include <simdjson.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "analysis/summary/summarize_run.hpp"
#include "import/npkt/communicator_join.hpp"
#include "import/npkt/npkt_run.hpp"
#include "import/npkt/profiler_rank_summary.hpp"
#include "support/npkt_writer.hpp"
#include "support/test_data.hpp"

namespace {

using npkit::test::NpktBuilder;

std::string gunzip(const std::string& path) {
  std::string out;
  FILE* pipe = ::popen(("gzip -dc '" + path + "'").c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buf[1 << 16];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
  REQUIRE(::pclose(pipe) == 0);
  return out;
}

std::string hex16(std::uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

std::uint8_t type_index(std::uint64_t type_bit) {
  std::uint8_t i = 0;
  while (type_bit > 1) {
    type_bit >>= 1;
    ++i;
  }
  return i;
}

// What the test counts straight from the recording, per communicator and rank.
struct Recorded {
  std::map<std::string, std::uint64_t> colls_by_func;
  // AllReduce seq 3 (16384 floats, 8 channels): first KernelCh start to last stop, over the
  // KernelCh whose start is not before its CollApi call (see seq3_gpu_ns below).
  std::uint64_t seq3_gpu_ns = 0;
  std::uint64_t seq3_channels_before_call = 0;
};

class Converter {
 public:
  std::map<std::uint64_t, NpktBuilder> files;                         // by recorded ctx
  std::map<std::pair<std::string, std::int64_t>, Recorded> recorded;  // (comm id, rank)

  void add(simdjson::dom::element c) {
    const std::string_view call = c["call"].get_string();
    const std::uint64_t t = c["t"].get_uint64();
    if (call == "init") {
      const std::uint64_t ctx = c["ctx"].get_uint64();
      const std::string comm(c["commId"].get_string().value());
      files[ctx]
          .comm(std::stoull(comm, nullptr, 16), static_cast<std::int32_t>(c["rank"].get_int64()),
                static_cast<std::int32_t>(c["nranks"].get_int64()))
          .standard_names();
      comm_of_ctx_[ctx] = {comm, c["rank"].get_int64()};
    } else if (call == "start") {
      start(c, t);
    } else if (call == "state" || call == "stop") {
      const std::uint64_t h = c["h"].get_uint64();
      if (ctx_of_.count(h) == 0) return;
      NpktBuilder& b = files[ctx_of_[h]];
      if (call == "stop") {
        b.stop(h, type_of_[h], t);
        return;
      }
      std::uint64_t value = 0;
      for (const char* key : {"transSize", "appendedProxyOps", "pTimer"}) {
        std::uint64_t v = 0;
        if (c[key].get_uint64().get(v) == simdjson::SUCCESS) value = v;
      }
      const auto state = static_cast<std::uint32_t>(c["state"].get_uint64());
      b.state(h, type_of_[h], t, state, value, c["nullArgs"].error() != simdjson::SUCCESS);
      if (state == 22 && seq3_kernels_.count(h) != 0) seq3_stop_[h] = value;
    }
  }

  // AllReduce seq 3's GPU span per context. The recording has no clock samples, so GPU time is
  // placed on the host clock the way the format documents for that case: GPU - host offset =
  // the largest pTimer - t over the context's KernelCh starts (the proxy notices a start after it
  // happened). A KernelCh whose start, so converted, lies more than 5 us before the AllReduce's
  // CollApi call holds timestamps of earlier work (NCCL's per-channel ring): left out.
  void finish() {
    for (const auto& [h, start] : seq3_start_) {
      const std::uint64_t ctx = ctx_of_[h];
      const std::int64_t offset = max_lead_[ctx];
      const std::int64_t call = seq3_call_[ctx];
      Recorded& r = recorded_of(ctx);
      if (static_cast<std::int64_t>(start) - offset < call - 5000) {
        ++r.seq3_channels_before_call;
        continue;
      }
      auto [it, inserted] = seq3_span_.try_emplace(ctx, start, seq3_stop_[h]);
      it->second.first = std::min(it->second.first, start);
      it->second.second = std::max(it->second.second, seq3_stop_[h]);
    }
    for (const auto& [ctx, span] : seq3_span_) {
      recorded_of(ctx).seq3_gpu_ns = span.second - span.first;
    }
  }

 private:
  Recorded& recorded_of(std::uint64_t ctx) { return recorded[comm_of_ctx_[ctx]]; }

  std::uint16_t text(std::uint64_t ctx, simdjson::dom::element c, const char* key) {
    std::string_view s;
    if (c[key].get_string().get(s) != simdjson::SUCCESS) return 0;
    auto& ids = strings_[ctx];
    auto [it, inserted] = ids.emplace(std::string(s), ids.size() + 1);
    if (inserted) files[ctx].string(it->second, it->first);
    return static_cast<std::uint16_t>(it->second);
  }

  // A numeric field, 0 when absent (every recorded value fits an int64).
  static std::uint64_t num(simdjson::dom::element c, const char* key) {
    std::int64_t v = 0;
    if (c[key].get_int64().get(v) != simdjson::SUCCESS) return 0;
    return static_cast<std::uint64_t>(v);
  }

  void start(simdjson::dom::element c, std::uint64_t t) {
    const std::uint64_t ctx = c["ctx"].get_uint64();
    const std::uint64_t h = c["h"].get_uint64();
    const std::uint8_t type = type_index(c["type"].get_uint64());
    ctx_of_[h] = ctx;
    type_of_[h] = type;
    std::uint64_t parent = c["parent"].get_uint64();
    std::uint32_t flags = 0;
    if (parent != 0 && ctx_of_.count(parent) != 0 && ctx_of_[parent] != ctx) {
      flags = npkit::format::kStartParentOtherComm;
      parent = 0;
    }
    using namespace npkit::test;
    npkit::test::Payload p;
    auto u8 = [&](const char* k) { return static_cast<std::uint8_t>(num(c, k)); };
    auto i32 = [&](const char* k) { return static_cast<std::int32_t>(num(c, k)); };
    switch (type) {
      case npkit::format::kTypeGroupApi:
        p = GroupApiStart{i32("groupDepth"), u8("graphCaptured")};
        break;
      case npkit::format::kTypeCollApi:
        last_coll_api_[ctx] = t;
        p = CollApiStart{
            num(c, "count"),    0, i32("root"), text(ctx, c, "func"), text(ctx, c, "datatype"),
            u8("graphCaptured")};
        break;
      case npkit::format::kTypeP2pApi:
        p = P2pApiStart{num(c, "count"), 0, text(ctx, c, "func"), text(ctx, c, "datatype"),
                        u8("graphCaptured")};
        break;
      case npkit::format::kTypeColl: {
        p = CollStart{num(c, "seqNumber"),   num(c, "count"),          i32("root"),
                      text(ctx, c, "func"),  text(ctx, c, "datatype"), text(ctx, c, "algo"),
                      text(ctx, c, "proto"), u8("nChannels"),          u8("nWarps")};
        const std::string func(c["func"].get_string().value());
        ++recorded_of(ctx).colls_by_func[func];
        if (func == "AllReduce" && num(c, "seqNumber") == 3) {
          allreduce_seq3_.insert(h);
          seq3_call_[ctx] = last_coll_api_[ctx];
        }
        break;
      }
      case npkit::format::kTypeP2p:
        p = P2pStart{num(c, "count"), i32("peer"), text(ctx, c, "func"), text(ctx, c, "datatype"),
                     u8("nChannels")};
        break;
      case npkit::format::kTypeKernelCh: {
        const std::uint64_t start = num(c, "pTimer");
        p = KernelChStart{start, u8("channelId")};
        if (start != 0) {
          const auto lead = static_cast<std::int64_t>(start - t);
          auto [it, inserted] = max_lead_.emplace(ctx, lead);
          if (!inserted) it->second = std::max(it->second, lead);
        }
        if (allreduce_seq3_.count(c["parent"].get_uint64()) != 0) {
          seq3_kernels_.insert(h);
          seq3_start_[h] = start;
        }
        break;
      }
      default:
        break;
    }
    files[ctx].start(h, parent, type, t, p, flags);
  }

  std::map<std::uint64_t, std::uint64_t> ctx_of_;
  std::map<std::uint64_t, std::uint8_t> type_of_;
  std::map<std::uint64_t, std::pair<std::string, std::int64_t>> comm_of_ctx_;
  std::map<std::uint64_t, std::map<std::string, std::uint64_t>> strings_;
  std::set<std::uint64_t> allreduce_seq3_;               // Coll handles
  std::set<std::uint64_t> seq3_kernels_;                 // their KernelCh handles
  std::map<std::uint64_t, std::uint64_t> seq3_start_;    // by KernelCh handle
  std::map<std::uint64_t, std::uint64_t> seq3_stop_;     // by KernelCh handle
  std::map<std::uint64_t, std::int64_t> max_lead_;       // by ctx: largest pTimer - t
  std::map<std::uint64_t, std::int64_t> last_coll_api_;  // by ctx: t of the latest CollApi
  std::map<std::uint64_t, std::int64_t> seq3_call_;      // by ctx: t of seq 3's CollApi
  std::map<std::uint64_t, std::pair<std::uint64_t, std::uint64_t>> seq3_span_;  // by ctx
};

}  // namespace

TEST_CASE("real recordings: collectives, AlltoAll groups and joins of NCCL 2.28.9 calls",
          "[npkt][real]") {
  const std::string dir =
      npkit::test::require_path(npkit::test::data_path("nccl-profiler-calls/h200x2-nvlink"));
  // One process (rank) per recording; ids and contexts are per process.
  std::vector<NpktBuilder> files;
  std::map<std::pair<std::string, std::int64_t>, Recorded> recorded;
  simdjson::dom::parser parser;
  for (const char* file : {"rec_606.jsonl.gz", "rec_607.jsonl.gz"}) {
    Converter conv;
    const std::string text = gunzip(dir + "/" + file);
    std::size_t at = 0;
    while (at < text.size()) {
      const std::size_t end = text.find('\n', at);
      const std::string line = text.substr(at, end - at);
      at = end == std::string::npos ? text.size() : end + 1;
      if (!line.empty()) conv.add(parser.parse(line));
    }
    conv.finish();
    for (auto& [ctx, builder] : conv.files) files.push_back(std::move(builder));
    recorded.merge(conv.recorded);
  }
  REQUIRE(files.size() == 4);  // 2 communicators x 2 ranks
  std::vector<std::unique_ptr<npkit::RankCapture>> captures;
  for (const auto& builder : files) {
    const std::string bytes = builder.bytes();
    auto dump = npkit::parse_npkt(
        builder.file_name(), reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    REQUIRE(dump.ok());
    captures.push_back(npkit::build_rank_capture(std::move(*dump)));
  }

  for (const auto& c : captures) {
    const auto key =
        std::make_pair(hex16(c->dump.comm.comm_hash), static_cast<std::int64_t>(c->rank()));
    INFO("comm " << key.first << " rank " << key.second);
    const Recorded& rec = recorded.at(key);
    // Coll events per function, as the recording counts them.
    std::map<std::string, std::uint64_t> analysed;
    for (const auto& f : npkit::summarize_by_func(*c)) {
      if (f.func != "AlltoAll" && f.func != "Send" && f.func != "Recv") analysed[f.func] = f.count;
    }
    CHECK(analysed == rec.colls_by_func);
    // Every operation has a GPU span (KernelCh was on), except a rank's Send/Recv to itself,
    // which gets no KernelCh in the recording, and an operation with a stale KernelCh or a span
    // overlapping another launch;
    // AllReduce seq 3's span equals the recording's first start to last stop over its channels
    // when none is before its call (the clock is an offset only, so durations are unchanged).
    for (const auto& op : c->collectives) {
      const bool to_self = npkit::is_p2p(op.func) && op.peer == c->rank();
      CHECK(op.has_gpu_span == !(to_self || op.has_stale_channel()));
    }
    // An AlltoAll loses its span only where it overlaps another launch (stream_overlap.hpp: in
    // these recordings a Broadcast whose channels start 64 ns after an AlltoAll's).
    for (const auto& a : c->alltoall.alltoalls) CHECK(a.has_gpu_span == !a.stream_overlap);
    std::size_t seq3 = 0;
    for (const auto& op : c->collectives) {
      if (op.func != npkit::NcclFunc::kAllReduce || op.seq != 3) continue;
      ++seq3;
      CHECK(op.channels_stale == rec.seq3_channels_before_call);
      // A channel before the call is stale: the operation is untimed (its other channels alone
      // would understate it); otherwise its span is the recording's.
      if (rec.seq3_channels_before_call > 0) {
        CHECK_FALSE(op.has_gpu_span);
      } else {
        CHECK(static_cast<std::uint64_t>(op.gpu_duration_ns()) == rec.seq3_gpu_ns);
      }
    }
    if (c->dump.comm.comm_hash == 0x91acefead31e4828ull) continue;
    CHECK(seq3 == 1);
    CHECK(rec.seq3_gpu_ns > 0);
    // Channel 0 of seq 3 runs after the first all_to_all_single, whose copy to the rank itself
    // leaves the channel's timestamp ring out of step: it reads an earlier work's timestamps.
    CHECK(rec.seq3_channels_before_call == 1);
    // The default communicator ran all_to_all_single of 1 KiB, 64 KiB, 1 MiB and 16 MiB.
    std::set<std::uint64_t> sizes;
    for (const auto& a : c->alltoall.alltoalls) sizes.insert(a.bytes);
    CHECK(sizes == std::set<std::uint64_t>{1024, 65536, 1048576, 16777216});
  }

  std::vector<const npkit::RankCapture*> pointers;
  for (const auto& c : captures) pointers.push_back(c.get());
  npkit::Diagnostics diagnostics;
  const auto comms = npkit::join_communicators(pointers, diagnostics);
  REQUIRE(comms.size() == 2);
  for (const auto& comm : comms) {
    INFO("comm " << comm.comm_hash);
    CHECK(comm.ranks.size() == 2);
    CHECK(comm.instances_missing_ranks == 0);
    for (const auto& inst : comm.instances) CHECK(inst.members.size() == 2);
  }
  // The second communicator ran one all_reduce; the default one every collective, four
  // AlltoAll and one Send/Recv pair: 29 Coll + 4 + 1 instances.
  const bool second_first = comms[0].comm_hash == 0x91acefead31e4828ull;
  const npkit::Communicator& second = comms[second_first ? 0 : 1];
  const npkit::Communicator& first = comms[second_first ? 1 : 0];
  CHECK(second.instances.size() == 1);
  std::uint64_t colls = 0;
  for (const auto& [func, n] : recorded.at({"caea792a30b0954f", 0}).colls_by_func) colls += n;
  CHECK(first.instances.size() == colls + 4 + 1);
  // The summary's sync rows compare the collective instances with GPU spans on both ranks.
  std::uint64_t both_timed = 0;
  for (const auto& inst : first.instances) {
    if (inst.is_pair()) continue;
    both_timed += std::all_of(inst.members.begin(), inst.members.end(),
                              [](const auto& m) { return m.op->has_gpu_span; });
  }
  const npkit::Run run = npkit::npkt_run("", {first}, diagnostics);
  const npkit::PhaseAssignment phases =
      npkit::assign_phases(npkit::PhaseMap{}, npkit::EventTable{});
  const npkit::RunSummary summary = npkit::summarize_run(run, npkit::SummarySpanSink(phases));
  REQUIRE_FALSE(summary.sync.empty());
  for (const auto& s : summary.sync) CHECK(s.instances == both_timed);
}
