// v4.3 dumps (import/inspector/inspector_dumps.hpp): records after a dump_stats line take its
// header and metadata, count against its announced numbers, and a dump cut short is a shortfall.
#include <catch2/catch.hpp>

#include "import/inspector/inspector_dumps.hpp"

using namespace npkit;
using npkit::InspectorRecord;
using npkit::InspectorRecordKind;

namespace {

InspectorRecord dump(std::uint32_t minor, std::uint64_t colls, std::uint64_t proxies) {
  InspectorRecord r;
  r.kind = InspectorRecordKind::kDumpStats;
  r.comm_hash = 0xabc;
  r.comm_name = "world";
  r.rank = 1;
  r.nranks = 2;
  r.version = "v4." + std::to_string(minor);
  r.minor = minor;
  r.host = "h";
  r.pid = 7;
  r.stats.coll_records = colls;
  r.stats.proxy_records = proxies;
  return r;
}

InspectorRecord payload(InspectorRecordKind kind) {
  InspectorRecord r;
  r.has_context = false;
  r.kind = kind;
  return r;
}

// The message with which `dumps` refuses `r` at `line`.
std::string refused(InspectorDumps& dumps, InspectorRecord r, std::uint64_t line) {
  const Status s = dumps.on_record(r, line);
  REQUIRE_FALSE(s);
  return s.error().message;
}

}  // namespace

TEST_CASE("inspector dumps: a v4.3 dump's records take its context and its counts", "[inspector]") {
  InspectorDumps dumps;
  InspectorRecord marker = dump(3, 2, 1);
  REQUIRE(dumps.on_record(marker, 1));
  InspectorRecord coll = payload(InspectorRecordKind::kColl);
  REQUIRE(dumps.on_record(coll, 2));
  CHECK(coll.has_context);
  CHECK(coll.comm_hash == 0xabc);
  CHECK(coll.comm_name == "world");
  CHECK(coll.rank == 1);
  CHECK(coll.nranks == 2);
  CHECK(coll.version == "v4.3");
  CHECK(coll.minor == 3);
  CHECK(coll.host == "h");
  CHECK(coll.pid == 7);
  InspectorRecord proxy = payload(InspectorRecordKind::kProxy);
  REQUIRE(dumps.on_record(proxy, 3));
  // A record with its own context counts against no dump.
  InspectorRecord own = dump(3, 0, 0);
  own.kind = InspectorRecordKind::kColl;
  REQUIRE(dumps.on_record(own, 4));
  InspectorRecord second = payload(InspectorRecordKind::kColl);
  REQUIRE(dumps.on_record(second, 5));
  // The dump announced 2 coll_perf and 1 proxy_trace: all arrived.
  CHECK(refused(dumps, payload(InspectorRecordKind::kProxy), 6) ==
        "a proxy_trace record beyond the count that the dump at line 1 announced (dump_stats): "
        "expected a dump_stats line or no more proxy_trace records");
  dumps.finish();
  CHECK(dumps.shortfalls().empty());
}

TEST_CASE("inspector dumps: dumps cut short are shortfalls, v4.1 markers open no dump",
          "[inspector]") {
  InspectorDumps dumps;
  InspectorRecord first = dump(3, 3, 2);
  REQUIRE(dumps.on_record(first, 1));
  InspectorRecord coll = payload(InspectorRecordKind::kColl);
  REQUIRE(dumps.on_record(coll, 2));
  // A new dump before 2 coll_perf and 2 proxy_trace arrived.
  InspectorRecord next = dump(3, 1, 0);
  REQUIRE(dumps.on_record(next, 3));
  dumps.finish();  // the second dump's coll_perf never came either
  REQUIRE(dumps.shortfalls().size() == 2);
  CHECK(dumps.shortfalls()[0].line == 1);
  CHECK(dumps.shortfalls()[0].coll == 2);
  CHECK(dumps.shortfalls()[0].p2p == 0);
  CHECK(dumps.shortfalls()[0].proxy == 2);
  CHECK(dumps.shortfalls()[0].context.rank == 1);
  CHECK(dumps.shortfalls()[1].line == 3);
  CHECK(dumps.shortfalls()[1].coll == 1);

  InspectorDumps old;
  InspectorRecord v41 = dump(1, 4, 0);
  REQUIRE(old.on_record(v41, 1));
  CHECK(refused(old, payload(InspectorRecordKind::kColl), 2) ==
        "a coll_perf record without header and metadata: expected it inside a v4.3 dump (after "
        "a dump_stats line with header and metadata), or header and metadata on the line");
  old.finish();
  CHECK(old.shortfalls().empty());  // a v4.1 marker's counts are not checked
}
