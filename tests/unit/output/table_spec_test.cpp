// Table specs (output/table_spec.hpp): one column list rendered in the text, page, CSV and JSON
// views; expected strings written out by hand.
#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "output/table_spec.hpp"
#include "output/text_table.hpp"

using npkit::Cell;
using npkit::CellUnit;
using npkit::TableSpec;
using npkit::TextTable;

namespace {

struct Op {
  std::string name;
  std::uint64_t bytes = 0;
  std::optional<double> time_ns;
  double busbw_gbps = 0;
  std::int64_t rank = 0;
  std::optional<double> extra_ns;
  std::vector<std::string> flags;
};

TableSpec<Op> op_columns() {
  TableSpec<Op> spec(7);
  spec[0].header = "coll";
  spec[0].key = "collective";
  spec[0].value = [](const Op& o) { return Cell{o.name}; };
  spec[1].header = "size (B)";
  spec[1].key = "size_bytes";
  spec[1].value = [](const Op& o) { return Cell{o.bytes}; };
  spec[1].text = [](const Op& o) { return o.bytes > 0 ? Cell{o.bytes} : Cell{}; };
  spec[2].header = "time (us)";
  spec[2].key = "time_ns";
  spec[2].unit = CellUnit::kNanoseconds;
  spec[2].value = [](const Op& o) { return o.time_ns ? Cell{*o.time_ns} : Cell{}; };
  spec[3].header = "busbw (GB/s)";
  spec[3].key = "busbw_gbps";
  spec[3].unit = CellUnit::kGbps;
  spec[3].shown = npkit::kTextView | npkit::kDataViews;
  spec[3].value = [](const Op& o) { return o.time_ns ? Cell{o.busbw_gbps} : Cell{}; };
  spec[4].header = "rank";
  spec[4].key = "rank";
  spec[4].shown = npkit::kDataViews;
  spec[4].value = [](const Op& o) { return Cell{o.rank}; };
  spec[5].header = "extra (us)";
  spec[5].key = "extra_ns";
  spec[5].unit = CellUnit::kNanoseconds;
  spec[5].when_any = true;
  spec[5].value = [](const Op& o) { return o.extra_ns ? Cell{*o.extra_ns} : Cell{}; };
  spec[6].header = "flags";
  spec[6].key = "flags";
  spec[6].value = [](const Op& o) { return Cell{o.flags}; };
  return spec;
}

std::vector<Op> ops() {
  Op timed{"AllReduce", 1024, 1500.0, 0.682, -1, std::nullopt, {"few timed"}};
  Op untimed{"AllGather", 0, std::nullopt, 0, 3, std::nullopt, {"untimed", "2 stale"}};
  return {timed, untimed};
}

}  // namespace

TEST_CASE("table spec: the text view reads Column::text, dashes none, writes reals by unit",
          "[output]") {
  const TextTable t = npkit::spec_table(op_columns(), ops(), npkit::kTextView);
  CHECK(t.columns ==
        std::vector<std::string>{"coll", "size (B)", "time (us)", "busbw (GB/s)", "flags"});
  REQUIRE(t.rows.size() == 2);
  CHECK(t.rows[0] == std::vector<std::string>{"AllReduce", "1024", "1.500", "0.68", "few timed"});
  CHECK(t.rows[1] == std::vector<std::string>{"AllGather", "-", "-", "-", "untimed, 2 stale"});
  std::string out;
  npkit::render_text(t, out);
  CHECK(out ==
        "coll       size (B)  time (us)  busbw (GB/s)  flags\n"
        "AllReduce      1024      1.500          0.68  few timed\n"
        // A dash is not a number: it stays left in its column.
        "AllGather  -         -          -             untimed, 2 stale\n");
}

TEST_CASE("table spec: the CSV view uses keys, leaves none empty, keeps more decimals",
          "[output]") {
  std::string out;
  npkit::render_csv(npkit::spec_table(op_columns(), ops(), npkit::kCsvView), out);
  CHECK(out ==
        "collective,size_bytes,time_ns,busbw_gbps,rank,flags\n"
        "AllReduce,1024,1500.0,0.682000,-1,few timed\n"
        "AllGather,0,,,3,untimed; 2 stale\n");
}

TEST_CASE("table spec: the page view leaves out the columns not shown there", "[output]") {
  const TextTable t = npkit::spec_table(op_columns(), ops(), npkit::kPageView);
  CHECK(t.columns == std::vector<std::string>{"coll", "size (B)", "time (us)", "flags"});
  REQUIRE(t.rows.size() == 2);
  CHECK(t.rows[1] == std::vector<std::string>{"AllGather", "-", "-", "untimed, 2 stale"});
}

TEST_CASE("table spec: keep picks the rows, a when_any column shows where a kept row has it",
          "[output]") {
  std::vector<Op> rows = ops();
  rows[1].extra_ns = 250.0;
  const auto timed = [](const Op& o) { return o.time_ns.has_value(); };
  const TextTable only_timed = npkit::spec_table(op_columns(), rows, npkit::kTextView, timed);
  CHECK(only_timed.columns ==
        std::vector<std::string>{"coll", "size (B)", "time (us)", "busbw (GB/s)", "flags"});
  CHECK(only_timed.rows ==
        std::vector<std::vector<std::string>>{{"AllReduce", "1024", "1.500", "0.68", "few timed"}});
  const TextTable all = npkit::spec_table(op_columns(), rows, npkit::kTextView);
  CHECK(all.columns == std::vector<std::string>{"coll", "size (B)", "time (us)", "busbw (GB/s)",
                                                "extra (us)", "flags"});
  CHECK(all.rows[0][4] == "-");
  CHECK(all.rows[1][4] == "0.250");
}

TEST_CASE("table spec: JSON writes each row's fields by key, none left out, lists as arrays",
          "[output]") {
  std::string out;
  npkit::JsonWriter w(out, npkit::JsonLayout::kOneLine);
  const TableSpec<Op> spec = op_columns();
  w.begin_array();
  for (const Op& o : ops()) {
    w.begin_object();
    npkit::write_spec_fields(w, spec, o);
    w.end_object();
  }
  w.end_array();
  CHECK(out ==
        "[{\"collective\":\"AllReduce\",\"size_bytes\":1024,\"time_ns\":1500,"
        "\"busbw_gbps\":0.682,\"rank\":-1,\"flags\":[\"few timed\"]},"
        "{\"collective\":\"AllGather\",\"size_bytes\":0,\"rank\":3,"
        "\"flags\":[\"untimed\",\"2 stale\"]}]\n");
}

TEST_CASE(
    "table spec: durations, sizes and shares read as a person reads them in text, plain in CSV",
    "[output]") {
  struct Wait {
    std::uint64_t bytes;
    double ns;
    double share;
  };
  TableSpec<Wait> spec(3);
  spec[0].header = "size";
  spec[0].key = "size_bytes";
  spec[0].unit = CellUnit::kSize;
  spec[0].value = [](const Wait& w) { return Cell{w.bytes}; };
  spec[1].header = "wait";
  spec[1].key = "wait_ns";
  spec[1].unit = CellUnit::kDuration;
  spec[1].value = [](const Wait& w) { return Cell{w.ns}; };
  spec[2].header = spec[2].key = "share";
  spec[2].unit = CellUnit::kShare;
  spec[2].value = [](const Wait& w) { return Cell{w.share}; };
  const std::vector<Wait> rows = {{4096, 1500.0, 0.125}, {1000, 2500000.0, 1.0}};
  const TextTable text = npkit::spec_table(spec, rows, npkit::kTextView);
  CHECK(text.rows == std::vector<std::vector<std::string>>{{"4 KiB", "1.500 us", "12.5%"},
                                                           {"1000 B", "2.500 ms", "100.0%"}});
  const TextTable csv = npkit::spec_table(spec, rows, npkit::kCsvView);
  CHECK(csv.rows == std::vector<std::vector<std::string>>{{"4096", "1500.0", "0.125000"},
                                                          {"1000", "2500000.0", "1.000000"}});
}
