#include "report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace npkit::driver {
namespace {

template <typename... Args>
std::string format(const char* fmt, Args... args) {
  const int length = std::snprintf(nullptr, 0, fmt, args...);
  std::string text(static_cast<std::size_t>(length) + 1, '\0');
  std::snprintf(text.data(), text.size(), fmt, args...);
  text.pop_back();
  return text;
}

// nccl-tests prints fewer decimals as the time grows.
std::string time_text(double time_us) {
  if (time_us >= 10000.0) return format("%9.0f", time_us);
  if (time_us >= 100.0) return format("%9.1f", time_us);
  return format("%9.2f", time_us);
}

}  // namespace

double algbw_gbps(const Row& row) {
  if (row.time_us <= 0.0) return 0.0;
  return static_cast<double>(row.shape.size_bytes) / (row.time_us * 1e-6) / 1e9;
}

double busbw_gbps(const Row& row) {
  return algbw_gbps(row) * busbw_factor(row.kind, row.nranks);
}

std::string table_header(CollKind kind, int nranks) {
  std::string text =
      format("# %s: %d ranks, %s\n", std::string(coll_name(kind)).c_str(), nranks, kTypeName);
  text += format("#%11s %15s %6s %6s %5s %9s %11s %11s %6s\n", "size(B)", "count(elements)", "type",
                 "redop", "root", "time(us)", "algbw(GB/s)", "busbw(GB/s)", "#wrong");
  return text;
}

std::string table_row(const Row& row) {
  const std::string wrong = row.wrong ? std::to_string(*row.wrong) : "N/A";
  return format("%12zu %15zu %6s %6s %5d %s %11.2f %11.2f %6s\n", row.shape.size_bytes,
                row.shape.count, kTypeName, std::string(redop_name(row.kind)).c_str(),
                root_rank(row.kind), time_text(row.time_us).c_str(), algbw_gbps(row),
                busbw_gbps(row), wrong.c_str());
}

std::string table_footer(double avg_busbw_gbps, std::optional<std::int64_t> total_wrong) {
  std::string text;
  if (total_wrong) {
    text += format("# Out of bounds values : %lld %s\n", static_cast<long long>(*total_wrong),
                   *total_wrong == 0 ? "OK" : "FAILED");
  }
  text += format("# Avg bus bandwidth    : %g\n#\n", avg_busbw_gbps);
  return text;
}

std::string csv_header() {
  return "coll,size_bytes,count,type,nranks,time_us,algbw_gbps,busbw_gbps\n";
}

std::string csv_row(const Row& row) {
  return format("%s,%zu,%zu,%s,%d,%.3f,%.4f,%.4f\n", std::string(coll_name(row.kind)).c_str(),
                row.shape.size_bytes, row.shape.count, kTypeName, row.nranks, row.time_us,
                algbw_gbps(row), busbw_gbps(row));
}

double percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const double position = p / 100.0 * static_cast<double>(values.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, values.size() - 1);
  return values[below] + (values[above] - values[below]) * (position - static_cast<double>(below));
}

std::string cost_table_header(CollKind kind, int nranks, int calls_per_rank) {
  std::string text = format(
      "# launch cost: %s, %d ranks, %d calls per rank and size, each followed by a stream "
      "synchronize; call-to-return time on the host (steady clock) over all ranks' calls\n",
      std::string(coll_name(kind)).c_str(), nranks, calls_per_rank);
  text += format("#%11s %15s %6s %10s %10s %10s\n", "size(B)", "count(elements)", "calls",
                 "median(us)", "p10(us)", "p90(us)");
  return text;
}

std::string cost_table_row(const CostRow& row) {
  return format("%12zu %15zu %6d %10.2f %10.2f %10.2f\n", row.shape.size_bytes, row.shape.count,
                row.calls, row.median_us, row.p10_us, row.p90_us);
}

std::string cost_csv_header() {
  return "coll,size_bytes,count,nranks,calls,median_us,p10_us,p90_us\n";
}

std::string cost_csv_row(const CostRow& row) {
  return format("%s,%zu,%zu,%d,%d,%.3f,%.3f,%.3f\n", std::string(coll_name(row.kind)).c_str(),
                row.shape.size_bytes, row.shape.count, row.nranks, row.calls, row.median_us,
                row.p10_us, row.p90_us);
}

}  // namespace npkit::driver
