// The timeline of channel spans (output/html/channel_timeline.hpp): rows per rank and kind,
// categories, labels and tooltips. The expected texts are worked out by hand from the spans:
// 1 MiB over a 100 us GPU span is 1048576 / 100000 = 10.49 GB/s algbw; AllReduce's busbw factor
// on 4 ranks is 2 × 3 / 4 = 1.5, so 15.73 GB/s (shown with one decimal from 10 up).

#include <catch2/catch.hpp>

#include "output/html/channel_timeline.hpp"

using namespace npkit;
using namespace npkit::html;

namespace {

ChannelSpan span(std::int32_t rank, ChannelSpanKind kind, std::uint32_t channel, std::int64_t start,
                 std::int64_t end) {
  ChannelSpan s;
  s.rank = rank;
  s.kind = kind;
  s.channel = channel;
  s.start_ns = start;
  s.end_ns = end;
  return s;
}

ChannelOperation all_reduce(std::int64_t gpu_span_ns) {
  ChannelOperation op;
  op.func = NcclFunc::kAllReduce;
  op.func_name = "AllReduce";
  op.label = "AllReduce seq 5";
  op.bytes = 1 << 20;
  op.algo = "Ring";
  op.proto = "Simple";
  op.gpu_span_ns = gpu_span_ns;
  return op;
}

const TimelineSpan* find_span(const Timeline& t, const std::string& row_label) {
  for (const auto& s : t.spans) {
    const auto& row = t.rows[s.row];
    if (t.groups[row.group] + ": " + row.label == row_label) return &s;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("channel timeline: rows, categories and tooltips of GPU and proxy spans", "[html]") {
  std::vector<ChannelSpan> spans;
  spans.push_back(span(1, ChannelSpanKind::kGpu, 0, 1000, 101000));
  spans.back().op = all_reduce(100000);
  spans.push_back(span(0, ChannelSpanKind::kGpu, 2, 2000, 3000));
  spans.push_back(span(0, ChannelSpanKind::kProxyRecv, 1, 500, 9000));
  spans.back().peer = 3;
  spans.back().steps = 8;
  spans.back().chunk_bytes = 512 * 1024;
  const InstanceWindow window{400, 120000};
  const Timeline t = channel_timeline(spans, 4, window, "title", "chosen.");

  CHECK(t.title == "title");
  CHECK(t.origin_ns == 400);
  CHECK(t.note.rfind("chosen. Drawn: every KernelCh", 0) == 0);
  REQUIRE(t.groups == std::vector<std::string>{"rank 0", "rank 1"});
  REQUIRE(t.spans.size() == 3);

  const TimelineSpan* gpu = find_span(t, "rank 1: GPU ch 0");
  REQUIRE(gpu != nullptr);
  CHECK(gpu->category == "AllReduce");
  CHECK(gpu->label == "AllReduce seq 5");
  CHECK(gpu->tooltip ==
        "rank 1, GPU channel 0\nAllReduce seq 5, 1 MiB, Ring/Simple\noperation GPU span 100 us, "
        "algbw 10.5 GB/s, busbw 15.7 GB/s");

  const TimelineSpan* unowned = find_span(t, "rank 0: GPU ch 2");
  REQUIRE(unowned != nullptr);
  CHECK(unowned->category == "KernelCh");
  CHECK(unowned->label == "KernelCh");
  CHECK(unowned->tooltip == "rank 0, GPU channel 2");

  const TimelineSpan* proxy = find_span(t, "rank 0: proxy ch 1");
  REQUIRE(proxy != nullptr);
  CHECK(proxy->category == "proxy recv");
  CHECK(proxy->label.empty());
  CHECK(proxy->tooltip == "rank 0, proxy channel 1, peer 3, 8 step(s) of 512 KiB");
  CHECK(proxy->start_ns == 500);
  CHECK(proxy->end_ns == 9000);
}

TEST_CASE("channel timeline: an operation without a GPU span shows no bandwidth", "[html]") {
  std::vector<ChannelSpan> spans{span(0, ChannelSpanKind::kGpu, 0, 0, 10)};
  spans.back().op = all_reduce(0);
  const Timeline t = channel_timeline(spans, 2, InstanceWindow{0, 10}, "t", "c.");
  REQUIRE(t.spans.size() == 1);
  CHECK(t.spans[0].tooltip == "rank 0, GPU channel 0\nAllReduce seq 5, 1 MiB, Ring/Simple");
}
