#include "real/onegpu_logs.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <sstream>

#include "support/test_data.hpp"

namespace npkit::test {

std::string onegpu_run_dir(const std::string& version, const std::string& run) {
  return require_path(source_path("samples/onegpu-h200/nccl-" + version + "/" + run));
}

std::vector<EventLine> events_of(const std::string& dir, int rank) {
  std::ifstream in(dir + "/calls/events_rank" + std::to_string(rank) + ".txt");
  std::vector<EventLine> out;
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    EventLine e;
    std::string who;
    fields >> e.ns >> who >> e.event;
    e.text = line;
    out.push_back(e);
  }
  return out;
}

std::optional<EventLine> event(const std::vector<EventLine>& events, const std::string& name) {
  for (const auto& e : events) {
    if (e.event == name) return e;
  }
  return std::nullopt;
}

std::int64_t call_of(const EventLine& e) {
  const auto at = e.text.find("call=");
  REQUIRE(at != std::string::npos);
  return std::stoll(e.text.substr(at + 5));
}

std::vector<CallRow> calls_of(const std::string& dir, int rank) {
  const std::string path = dir + "/calls/calls_rank" + std::to_string(rank) + ".csv";
  std::ifstream in(path);
  REQUIRE(in.good());
  std::vector<CallRow> out;
  std::map<std::int64_t, std::size_t> index;  // call -> its row in out
  std::string line;
  std::getline(in,
               line);  // rank,call,coll,size_bytes,count,phase,host_call_ns,host_return_ns,gpu_us
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::stringstream fields(line);
    for (std::string cell; std::getline(fields, cell, ',');) f.push_back(cell);
    INFO(path << ": " << line);
    REQUIRE(f.size() >= 8);
    CallRow row{std::stoi(f[0]),
                std::stoll(f[1]),
                f[2],
                std::stoull(f[3]),
                f[5],
                std::stoll(f[6]),
                std::stoll(f[7]),
                f.size() > 8 ? std::stod(f[8]) : -1.0};
    const auto seen = index.find(row.call);
    if (seen != index.end()) {
      out[seen->second] = row;  // the row written after the synchronize
      continue;
    }
    index[row.call] = out.size();
    out.push_back(row);
  }
  return out;
}

}  // namespace npkit::test
