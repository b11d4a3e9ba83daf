// The bandwidth rows' one column spec (output/bandwidth_columns.hpp) in each view; rows and
// expected cells written out by hand.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "output/bandwidth_columns.hpp"
#include "output/json_writer.hpp"

using npkit::BandwidthRow;
using npkit::TextTable;

namespace {

using Cells = std::vector<std::string>;

npkit::Run one_comm_run() {
  npkit::Run run;
  npkit::RunCommunicator comm;
  comm.hash = 0xc0ffee;
  comm.nranks = 2;
  run.comms.push_back(comm);
  return run;
}

// A timed AllReduce of 1 MiB on 2 ranks with a kernel compute time and one stale instance, and
// an untimed AllGather whose input names no size, type, algorithm or protocol.
std::vector<BandwidthRow> rows() {
  BandwidthRow reduce;
  reduce.comm_hash = 0xc0ffee;
  reduce.nranks = 2;
  reduce.func = "AllReduce";
  reduce.bytes = 1048576;
  reduce.count = 262144;
  reduce.type = "ncclFloat32";
  reduce.algo = "RING";
  reduce.proto = "SIMPLE";
  reduce.instances = 4;
  reduce.timed_instances = 4;
  reduce.stale_instances = 1;
  reduce.ranks = {npkit::RankMedian{0, 4, 100000}, npkit::RankMedian{1, 4, 100000}};
  reduce.time_ns = 100000;
  reduce.algbw_gbps = 10.48576;
  reduce.busbw_gbps = 10.48576;
  reduce.channels = 2;
  reduce.compute_ns = 80000;
  reduce.compute_busbw_gbps = 13.1072;
  BandwidthRow gather;
  gather.comm_hash = 0xc0ffee;
  gather.nranks = 2;
  gather.func = "AllGather";
  gather.instances = 2;
  return {reduce, gather};
}

}  // namespace

TEST_CASE("bandwidth columns: text shows the compute columns before the flags, dashes for none",
          "[output]") {
  const npkit::Run run = one_comm_run();
  const TextTable t = npkit::spec_table(npkit::bandwidth_columns(run), rows(), npkit::kTextView);
  CHECK(t.columns == Cells{"collective",  "size (B)",     "count",        "type",
                           "algo",        "proto",        "instances",    "timed",
                           "ranks",       "time (us)",    "algbw (GB/s)", "busbw (GB/s)",
                           "period (us)", "period algbw", "period busbw", "true time (us)",
                           "true algbw",  "true busbw",   "compute (us)", "compute busbw",
                           "flags"});
  REQUIRE(t.rows.size() == 2);
  CHECK(t.rows[0] == Cells{"AllReduce", "1048576", "262144", "float", "RING",   "SIMPLE", "4", "4",
                           "2/2",       "100.000", "10.49",  "10.49", "-",      "-",      "-", "-",
                           "-",         "-",       "80.000", "13.11", "1 stale"});
  CHECK(t.rows[1] == Cells{"AllGather", "0", "-", "-", "-", "-", "2", "0", "0/2", "-",      "-",
                           "-",         "-", "-", "-", "-", "-", "-", "-", "-",   "untimed"});
}

TEST_CASE("bandwidth columns: without a compute time among the rows shown, no compute column",
          "[output]") {
  const npkit::Run run = one_comm_run();
  const TextTable t =
      npkit::spec_table(npkit::bandwidth_columns(run), rows(), npkit::kTextView,
                        [](const BandwidthRow& r) { return !r.compute_ns.has_value(); });
  CHECK(t.columns.size() == 19);
  CHECK(t.columns[17] == "true busbw");
  CHECK(t.columns[18] == "flags");
}

TEST_CASE("bandwidth columns: CSV has every column under its key, in the JSON's order",
          "[output]") {
  const npkit::Run run = one_comm_run();
  const TextTable t = npkit::spec_table(npkit::bandwidth_columns(run), rows(), npkit::kCsvView);
  CHECK(t.columns == Cells{"comm",
                           "collective",
                           "size_bytes",
                           "count",
                           "type",
                           "algo",
                           "proto",
                           "nranks",
                           "instances",
                           "timed_instances",
                           "not_sampled_instances",
                           "stale_instances",
                           "host_disagree_instances",
                           "ranks_timed",
                           "time_ns",
                           "algbw_gbps",
                           "busbw_gbps",
                           "period_pairs",
                           "period_ns",
                           "period_algbw_gbps",
                           "period_busbw_gbps",
                           "true_instances",
                           "true_time_ns",
                           "true_algbw_gbps",
                           "true_busbw_gbps",
                           "channels",
                           "compute_ns",
                           "compute_busbw_gbps",
                           "flags"});
  REQUIRE(t.rows.size() == 2);
  CHECK(t.rows[0] == Cells{"0000000000c0ffee",
                           "AllReduce",
                           "1048576",
                           "262144",
                           "ncclFloat32",
                           "RING",
                           "SIMPLE",
                           "2",
                           "4",
                           "4",
                           "0",
                           "1",
                           "0",
                           "2",
                           "100000.0",
                           "10.485760",
                           "10.485760",
                           "0",
                           "",
                           "",
                           "",
                           "0",
                           "",
                           "",
                           "",
                           "2",
                           "80000.0",
                           "13.107200",
                           "1 stale"});
}

TEST_CASE(
    "bandwidth columns: the report page leaves out collective, the algbw of period and "
    "true time, compute and flags",
    "[output]") {
  const npkit::Run run = one_comm_run();
  const TextTable t = npkit::spec_table(npkit::bandwidth_columns(run), rows(), npkit::kPageView);
  CHECK(t.columns == Cells{"size (B)", "count", "type", "algo", "proto", "instances", "timed",
                           "ranks", "time (us)", "algbw (GB/s)", "busbw (GB/s)", "period (us)",
                           "period busbw", "true time (us)", "true busbw"});
}

TEST_CASE("bandwidth columns: JSON leaves out the times a row lacks", "[output]") {
  const npkit::Run run = one_comm_run();
  std::string out;
  npkit::JsonWriter w(out, npkit::JsonLayout::kOneLine);
  w.begin_object();
  npkit::write_spec_fields(w, npkit::bandwidth_columns(run), rows()[1]);
  w.end_object();
  CHECK(out ==
        "{\"comm\":\"0000000000c0ffee\",\"collective\":\"AllGather\",\"size_bytes\":0,"
        "\"count\":0,\"type\":\"\",\"algo\":\"\",\"proto\":\"\",\"nranks\":2,\"instances\":2,"
        "\"timed_instances\":0,\"not_sampled_instances\":0,\"stale_instances\":0,\"host_disagree_"
        "instances\":0,"
        "\"ranks_timed\":0,\"period_pairs\":0,\"true_instances\":0,\"channels\":0,"
        "\"flags\":[\"untimed\"]}\n");
}
