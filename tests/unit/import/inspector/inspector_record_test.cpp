// NCCL Inspector log lines of formats v4.1-v4.3 (import/inspector/inspector_record.hpp), written
// as the Inspector's JSON writer of NCCL 2.31 lays them out: dump_stats markers, coll_algo and
// coll_proto, and v4.3's records without header and metadata.
#include <catch2/catch.hpp>

#include <string>

#include "import/inspector/inspector_record.hpp"

using namespace npkit;
using npkit::InspectorRecordKind;

namespace {

const std::string kContext =
    R"("header":{"id":"0x1a2b","comm_name":"unknown","rank":1,"n_ranks":2,"nnodes":1},)"
    R"("metadata":{"inspector_output_format_version":"v4.3","git_rev":"","rec_mechanism":)"
    R"("nccl_profiler_interface","dump_timestamp_us":5,"hostname":"h","pid":7})";

InspectorRecord parsed(const std::string& line) {
  InspectorLineParser parser;
  InspectorRecord r;
  const Status ok = parser.parse(line, r);
  INFO((ok ? std::string() : ok.error().message));
  REQUIRE(ok);
  return r;
}

std::string error_of(const std::string& line) {
  InspectorLineParser parser;
  InspectorRecord r;
  const Status s = parser.parse(line, r);
  REQUIRE_FALSE(s);
  return s.error().message;
}

}  // namespace

TEST_CASE("inspector record: a dump_stats marker carries its dump's counts", "[inspector]") {
  const auto r = parsed(
      "{" + kContext +
      R"(,"dump_stats":{"coll_records":6,"coll_dropped_total":9,"coll_dropped_since_last_dump":4,)"
      R"("p2p_records":1,"p2p_dropped_total":2,"p2p_dropped_since_last_dump":2,)"
      R"("proxy_records":3,"proxy_dropped_total":5,"proxy_dropped_since_last_dump":1}})");
  CHECK(r.kind == InspectorRecordKind::kDumpStats);
  CHECK(r.has_context);
  CHECK(r.comm_hash == 0x1a2b);
  CHECK(r.comm_name.empty());  // "unknown"
  CHECK(r.minor == 3);
  CHECK(r.stats.coll_records == 6);
  CHECK(r.stats.coll_dropped_total == 9);
  CHECK(r.stats.coll_dropped_since_last_dump == 4);
  CHECK(r.stats.p2p_records == 1);
  CHECK(r.stats.p2p_dropped_total == 2);
  CHECK(r.stats.p2p_dropped_since_last_dump == 2);
  CHECK(r.stats.proxy_records == 3);
  CHECK(r.stats.proxy_dropped_total == 5);
  CHECK(r.stats.proxy_dropped_since_last_dump == 1);

  // Without proxy tracing the writer leaves the proxy counts out.
  const auto plain = parsed(
      "{" + kContext +
      R"(,"dump_stats":{"coll_records":0,"coll_dropped_total":0,"coll_dropped_since_last_dump":0,)"
      R"("p2p_records":0,"p2p_dropped_total":0,"p2p_dropped_since_last_dump":0}})");
  CHECK(plain.stats.proxy_records == 0);
  CHECK(error_of("{" + kContext + R"(,"dump_stats":{"coll_records":1}})") ==
        "dump_stats: missing member coll_dropped_total (expected an integer)");
}

TEST_CASE("inspector record: a v4.3 record without header and metadata parses without context",
          "[inspector]") {
  const auto r = parsed(
      R"({"coll_perf":{"coll":"AllReduce","coll_algo":"RING","coll_proto":"LL","coll_sn":3,)"
      R"("coll_msg_size_bytes":4096,"coll_exec_time_us":12,"coll_timing_source":"kernel_gpu",)"
      R"("coll_algobw_gbs":0.34,"coll_busbw_gbs":0.34}})");
  CHECK_FALSE(r.has_context);
  CHECK(r.kind == InspectorRecordKind::kColl);
  CHECK(r.func == "AllReduce");
  CHECK(r.algo == "RING");
  CHECK(r.proto == "LL");
  CHECK(r.seq == 3);
  CHECK(r.exec_time_us == 12);
  // "unknown" is the writer's word for no algorithm.
  const auto unknown =
      parsed(R"({"coll_perf":{"coll":"Broadcast","coll_algo":"unknown","coll_proto":"unknown",)"
             R"("coll_sn":0,"coll_msg_size_bytes":1,"coll_exec_time_us":1}})");
  CHECK(unknown.algo.empty());
  CHECK(unknown.proto.empty());
  // One of header and metadata without the other is not a record.
  CHECK(error_of(R"({"header":{"id":"0x1","rank":0,"n_ranks":1},"coll_perf":{}})") ==
        "record: missing member metadata (expected an object)");
  CHECK(error_of(R"({"something":{}})") ==
        "record: missing member coll_perf, p2p_perf, dump_stats or proxy_trace (expected an "
        "object)");
}

TEST_CASE("inspector record: proxy_trace steps and operations", "[inspector]") {
  // A flat send step (each phase present) and a nested recv operation holding two steps, the
  // second never stopped (no total_us) and missing its flush phase.
  const auto step =
      parsed(R"({"proxy_trace":{"record_type":"proxy_step","record_sn":0,"parent_type":"coll",)"
             R"("parent_sn":3,"proxy_op_sn":0,"channel_id":0,"peer":1,"direction":"send",)"
             R"("timing_source":"proxy_cpu","proxy_step_sn":0,"step":0,"trans_size_bytes":100,)"
             R"("total_us":40,"gpu_produce_us":10,"peer_credit_us":20,"wire_us":5,)"
             R"("event_trace_ts":{"proxy_step_start_ts":1}}})");
  CHECK(step.kind == InspectorRecordKind::kProxy);
  CHECK_FALSE(step.has_context);
  REQUIRE(step.proxy.steps.size() == 1);
  CHECK(step.proxy.send);
  CHECK(step.proxy.steps[0].total_us == 40u);
  CHECK(step.proxy.steps[0].phase_us[0] == 10u);
  CHECK(step.proxy.steps[0].phase_us[1] == 20u);
  CHECK(step.proxy.steps[0].phase_us[2] == 5u);

  const auto op =
      parsed(R"({"proxy_trace":{"record_type":"proxy_op","direction":"recv","n_steps_dropped":4,)"
             R"("steps":[{"total_us":30,"wire_us":20,"flush_us":2,"gpu_consume_us":7},)"
             R"({"wire_us":3,"gpu_consume_us":1}]}})");
  CHECK_FALSE(op.proxy.send);
  CHECK(op.proxy.steps_dropped == 4);
  REQUIRE(op.proxy.steps.size() == 2);
  CHECK(op.proxy.steps[0].phase_us[1] == 2u);
  CHECK_FALSE(op.proxy.steps[1].total_us);
  CHECK_FALSE(op.proxy.steps[1].phase_us[1]);

  CHECK(error_of(R"({"proxy_trace":{"record_type":"proxy_op","direction":"both"}})") ==
        "proxy_trace.direction 'both': expected send or recv");
  CHECK(error_of(R"({"proxy_trace":{"record_type":"proxy_op","direction":"send","steps":{}}})") ==
        "proxy_trace.steps: expected an array, found an object");
  CHECK(error_of(R"({"proxy_trace":{"record_type":"proxy_step","direction":"send",)"
                 R"("total_us":-1}})") ==
        "proxy_trace.total_us: expected an integer of 0 or more, found a negative one");
}
