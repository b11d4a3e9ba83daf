#include "report.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <numeric>

namespace device_collectives {

double bus_factor(const std::string& coll, int nranks) {
  const double n = nranks;
  return coll == "allreduce" ? 2.0 * (n - 1) / n : (n - 1) / n;
}

Row summarize(const Measurement& m, int nranks) {
  Row row{m.coll, m.size_bytes, m.count, m.iters, 0, 0, 0, 0, m.wrong};
  if (!m.rank_time_us.empty()) {
    row.time_us = std::accumulate(m.rank_time_us.begin(), m.rank_time_us.end(), 0.0) /
                  static_cast<double>(m.rank_time_us.size());
    row.time_max_us = *std::max_element(m.rank_time_us.begin(), m.rank_time_us.end());
  }
  if (row.time_us > 0) {
    row.algbw_gbps = static_cast<double>(m.size_bytes) / (row.time_us * 1e-6) / 1e9;
    row.busbw_gbps = row.algbw_gbps * bus_factor(m.coll, nranks);
  }
  return row;
}

void print_table(std::FILE* out, const std::vector<Row>& rows, const std::string& build) {
  std::fprintf(out, "# build: %s\n", build.c_str());
  std::fprintf(out, "# %-10s %12s %12s %6s %12s %12s %10s %10s %8s\n", "coll", "size(B)", "count",
               "iters", "time(us)", "max(us)", "algbw", "busbw", "#wrong");
  for (const Row& r : rows) {
    std::fprintf(out, "  %-10s %12llu %12llu %6d %12.2f %12.2f %10.2f %10.2f %8llu\n",
                 r.coll.c_str(), static_cast<unsigned long long>(r.size_bytes),
                 static_cast<unsigned long long>(r.count), r.iters, r.time_us, r.time_max_us,
                 r.algbw_gbps, r.busbw_gbps, static_cast<unsigned long long>(r.wrong));
  }
}

bool write_csv(const std::string& path, const std::vector<Row>& rows, const std::string& build,
               std::string* error) {
  std::FILE* file = std::fopen(path.c_str(), "w");
  if (file == nullptr) {
    *error = path + ": " + std::strerror(errno);
    return false;
  }
  std::fprintf(file,
               "build,coll,size_bytes,count,iters,time_us,time_max_us,algbw_gbps,busbw_gbps,"
               "wrong\n");
  for (const Row& r : rows) {
    std::fprintf(file, "%s,%s,%llu,%llu,%d,%.3f,%.3f,%.3f,%.3f,%llu\n", build.c_str(),
                 r.coll.c_str(), static_cast<unsigned long long>(r.size_bytes),
                 static_cast<unsigned long long>(r.count), r.iters, r.time_us, r.time_max_us,
                 r.algbw_gbps, r.busbw_gbps, static_cast<unsigned long long>(r.wrong));
  }
  if (std::fclose(file) != 0) {
    *error = path + ": " + std::strerror(errno);
    return false;
  }
  return true;
}

}  // namespace device_collectives
