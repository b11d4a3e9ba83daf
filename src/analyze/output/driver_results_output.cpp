#include "output/driver_results_output.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "run/nccl_names.hpp"

namespace npkit {
namespace {

std::string gbps(double v, bool csv) {
  return csv ? fmt::format("{:.6f}", v) : fmt::format("{:.2f}", v);
}

std::string type_name(const std::string& type) {
  return type.empty() ? "-" : std::string(nccl_tests_type_name(type));
}

std::string wrong_text(const DriverTiming& t) {
  return t.wrong ? std::to_string(*t.wrong) : "n/a";
}

void add_timing(const std::optional<DriverTiming>& t, bool csv, std::vector<std::string>& row) {
  if (!t) {
    row.insert(row.end(), {csv ? "" : "-", csv ? "" : "-", csv ? "" : "-", csv ? "" : "-"});
    return;
  }
  row.push_back(csv ? fmt::format("{:.1f}", t->time_ns) : us(t->time_ns));
  row.push_back(gbps(t->algbw_gbps, csv));
  row.push_back(gbps(t->busbw_gbps, csv));
  row.push_back(csv && !t->wrong ? "" : wrong_text(*t));
}

void write_timing_json(JsonWriter& w, std::string_view key, const std::optional<DriverTiming>& t) {
  w.key(key);
  if (!t) {
    w.null_value();
    return;
  }
  w.begin_object();
  w.field("time_ns", t->time_ns);
  w.field("algbw_gbps", t->algbw_gbps);
  w.field("busbw_gbps", t->busbw_gbps);
  w.key("wrong");
  if (t->wrong) {
    w.value(*t->wrong);
  } else {
    w.null_value();
  }
  w.field("iterations_recorded", static_cast<std::uint64_t>(t->iteration_ns.size()));
  w.end_object();
}

std::string our_label(const BandwidthRow& r) {
  return fmt::format(
      "{} {} B {}{}", r.func, r.bytes, type_name(r.type),
      r.algo.empty() ? "" : fmt::format(" ({}/{})", r.algo, r.proto.empty() ? "-" : r.proto));
}

}  // namespace

TextTable driver_results_table(const DriverResults& driver, std::string_view coll,
                               OutputFormat format) {
  const bool csv = format == OutputFormat::kCsv;
  TextTable t;
  if (csv) {
    t.columns = {"collective", "size_bytes", "count",         "type",           "redop",
                 "root",       "pass",       "oop_time_ns",   "oop_algbw_gbps", "oop_busbw_gbps",
                 "oop_wrong",  "ip_time_ns", "ip_algbw_gbps", "ip_busbw_gbps",  "ip_wrong"};
  } else {
    t.columns = {"collective", "size (B)",     "count",         "type",      "redop",
                 "root",       "pass",         "oop time (us)", "oop algbw", "oop busbw",
                 "oop #wrong", "ip time (us)", "ip algbw",      "ip busbw",  "ip #wrong"};
    t.title = fmt::format(
        "nccl-tests results of {} (as written; time = {} per operation, mean over the "
        "iterations and over ranks; GB/s; oop = out-of-place, ip = in-place)",
        driver.program.empty() ? "an unnamed program" : driver.program,
        driver.time_kind == "cpu_time" ? "CPU time of the launch loop"
                                       : "wall time of the timed loop");
  }
  for (const auto& r : driver.rows) {
    if (!driver_row_selected(coll, r)) continue;
    std::vector<std::string> row = {r.func,
                                    std::to_string(r.bytes),
                                    std::to_string(r.count),
                                    csv ? r.type : type_name(r.type),
                                    r.redop,
                                    std::to_string(r.root),
                                    std::to_string(r.cycle + 1)};
    add_timing(r.out_of_place, csv, row);
    add_timing(r.in_place, csv, row);
    t.add_row(std::move(row));
  }
  return t;
}

TextTable driver_comparison_table(const DriverComparison& c, OutputFormat f) {
  const bool csv = f == OutputFormat::kCsv;
  TextTable t;
  t.title = fmt::format(
      "Beside the driver's results ({}): its out-of-place time and busbw, mean over its rows of "
      "the size; ratio = driver time / our time, / our period",
      c.path);
  t.columns = {"collective",       "size (B)",     "type",        "algo",         "proto",
               "time (us)",        "busbw (GB/s)", "period (us)", "period busbw", "driver rows",
               "driver time (us)", "driver busbw", "driver/time", "driver/period"};
  if (csv) {
    t.columns = {"collective",  "size_bytes",     "type",
                 "algo",        "proto",          "time_ns",
                 "busbw_gbps",  "period_ns",      "period_busbw_gbps",
                 "driver_rows", "driver_time_ns", "driver_busbw_gbps",
                 "time_ratio",  "period_ratio"};
  }
  const std::string none = csv ? "" : "-";
  auto time = [&](double ns) { return csv ? fmt::format("{:.1f}", ns) : us(ns); };
  auto ratio = [&](double r) {
    if (r <= 0) return none;
    return csv ? fmt::format("{:.6f}", r) : fmt::format("{:.2f}", r);
  };
  for (const auto& m : c.matches) {
    const BandwidthRow& r = *m.ours;
    const bool timed = !r.ranks.empty();
    const bool matched = m.driver_rows > 0;
    t.add_row({r.func, std::to_string(r.bytes),
               csv ? r.type : type_name(r.type) + (m.type_assumed ? "?" : std::string()),
               r.algo.empty() ? none : r.algo, r.proto.empty() ? none : r.proto,
               timed ? time(r.time_ns) : none, timed ? gbps(r.busbw_gbps, csv) : none,
               r.period_ns ? time(*r.period_ns) : none,
               r.period_ns ? gbps(r.period_busbw_gbps, csv) : none, std::to_string(m.driver_rows),
               matched ? time(m.driver_time_ns) : none,
               matched ? gbps(m.driver_busbw_gbps, csv) : none, ratio(m.time_ratio),
               ratio(m.period_ratio)});
  }
  return t;
}

void render_driver_comparison(const DriverComparison& c, OutputFormat f, std::string& out) {
  const TextTable t = driver_comparison_table(c, f);
  std::vector<std::string> ours_alone;
  for (const auto& m : c.matches) {
    if (m.driver_rows == 0) ours_alone.push_back(our_label(*m.ours));
  }
  if (t.rows.empty()) {
    render_section_line("Beside the driver's results (" + c.path + "): no row of ours to match", f,
                        out);
  } else {
    render_block(t, f, out);
  }
  if (std::any_of(c.matches.begin(), c.matches.end(),
                  [](const DriverMatch& m) { return m.type_assumed; })) {
    render_line("type? = the input records no data type: matched on collective and size alone", f,
                out);
  }
  std::string lines;
  for (const auto& s : ours_alone) lines += (lines.empty() ? "" : "; ") + s;
  render_line("Rows of ours without a driver row: " + (lines.empty() ? "none" : lines), f, out);
  lines.clear();
  for (const auto& k : c.unmatched_driver) {
    lines +=
        (lines.empty() ? "" : "; ") + fmt::format("{} {} B {}", k.func, k.bytes, type_name(k.type));
  }
  render_line("Driver sizes without a row of ours: " + (lines.empty() ? "none" : lines), f, out);
  if (c.in_place_only > 0) {
    render_line(fmt::format("{} driver row(s) ran in place only: not compared", c.in_place_only), f,
                out);
  }
}

void write_driver_results_json(JsonWriter& w, const DriverResults& driver, std::string_view coll) {
  w.object("driver", [&] {
    w.field("program", driver.program);
    w.field("time_kind", driver.time_kind);
    w.field("nranks", driver.nranks);
    w.key("rows");
    w.begin_array();
    for (const auto& r : driver.rows) {
      if (!driver_row_selected(coll, r)) continue;
      w.begin_object();
      w.field("collective", r.func);
      w.field("size_bytes", r.bytes);
      w.field("count", r.count);
      w.field("type", r.type);
      w.field("redop", r.redop);
      w.field("root", r.root);
      w.field("pass", r.cycle + 1);
      w.field("iterations", r.iterations);
      write_timing_json(w, "out_of_place", r.out_of_place);
      write_timing_json(w, "in_place", r.in_place);
      w.end_object();
    }
    w.end_array();
  });
}

void write_driver_comparison_json(JsonWriter& w, const DriverComparison& c) {
  w.object("driver_comparison", [&] {
    w.field("path", c.path);
    w.key("rows");
    w.begin_array();
    for (const auto& m : c.matches) {
      const BandwidthRow& r = *m.ours;
      w.begin_object();
      w.field("collective", r.func);
      w.field("size_bytes", r.bytes);
      w.field("type", r.type);
      w.field("algo", r.algo);
      w.field("proto", r.proto);
      w.field("type_assumed", m.type_assumed);
      w.field("driver_rows", m.driver_rows);
      if (m.driver_rows > 0) {
        w.field("driver_time_ns", m.driver_time_ns);
        w.field("driver_busbw_gbps", m.driver_busbw_gbps);
      }
      if (m.time_ratio > 0) w.field("time_ratio", m.time_ratio);
      if (m.period_ratio > 0) w.field("period_ratio", m.period_ratio);
      w.end_object();
    }
    w.end_array();
    w.objects("unmatched_driver", c.unmatched_driver, [&](const auto& k) {
      w.field("collective", k.func);
      w.field("size_bytes", k.bytes);
      w.field("type", k.type);
    });
    w.field("in_place_only", c.in_place_only);
  });
}

}  // namespace npkit
