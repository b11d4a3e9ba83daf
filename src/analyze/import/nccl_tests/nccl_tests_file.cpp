#include "import/nccl_tests/nccl_tests_file.hpp"

#include <fmt/format.h>
#include <simdjson.h>

#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

#include "import/json/json_value_reader.hpp"
#include "run/nccl_names.hpp"
#include "util/file_io.hpp"
#include "util/out_of_memory.hpp"

namespace npkit {
namespace {

namespace od = simdjson::ondemand;
using Value = JsonValueReader::Value;

constexpr std::int64_t kInt32Max = std::numeric_limits<std::int32_t>::max();
constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();
constexpr double kNsPerUs = 1000.0;

class Reader : public JsonValueReader {
 public:
  using JsonValueReader::JsonValueReader;

  // A JSON number, or the string "nan" nccl-tests writes for NaN.
  Result<double> number(Value& v, const std::string& what) {
    od::json_type t;
    if (v.type().get(t) == simdjson::SUCCESS) {
      if (t == od::json_type::number) {
        double x = 0;
        if (v.get_double().get(x) == simdjson::SUCCESS) return x;
      } else if (t == od::json_type::string) {
        const std::size_t where = offset(v);
        NPKIT_ASSIGN(auto s, str(v, what));
        if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
        return at(where, fmt::format("{}: expected a number, got the string \"{}\"", what, s));
      }
    }
    return type_error(v, what, "a number");
  }

  // nccl-tests writes booleans as the strings "true" and "false".
  Result<bool> flag(Value& v, const std::string& what) {
    od::json_type t;
    if (v.type().get(t) == simdjson::SUCCESS && t == od::json_type::boolean) {
      bool b = false;
      if (v.get_bool().get(b) == simdjson::SUCCESS) return b;
    }
    const std::size_t where = offset(v);
    auto s = str(v, what);
    if (!s || (*s != "true" && *s != "false")) {
      return at(where, fmt::format("{}: expected \"true\" or \"false\"", what));
    }
    return *s == "true";
  }

  bool is_null(Value& v) {
    bool null = false;
    return v.is_null().get(null) == simdjson::SUCCESS && null;
  }

  Status strings(Value& v, const std::string& what, std::vector<std::string>& out) {
    return array(v, what, [&](Value& e) -> Status {
      NPKIT_ASSIGN(auto s, str(e, what + "[]"));
      out.push_back(std::move(s));
      return Ok{};
    });
  }

  Status config(Value& v, NcclTestsFile& f);
  Status device(Value& v, const std::string& what, NcclTestsDevice& d);
  Status placement(Value& v, const std::string& what, DriverTiming& t, bool& dropped);
  Status per_iteration(Value& v, const std::string& what, DriverTiming& t);
  Status result(Value& v, const std::string& what, DriverResult& r, NcclTestsFile& f);
  Status file(Value& v, NcclTestsFile& f);

  bool event_time_ = false;  // a placement held "time"
  bool cpu_time_ = false;    // a placement held "cpu_time"

 private:
  template <typename T>
  Status integer(Value& v, const std::string& what, std::int64_t min, std::int64_t max, T& out) {
    NPKIT_ASSIGN(auto x, i64(v, what, min, max));
    out = static_cast<T>(x);
    return Ok{};
  }
  Status unsigned_integer(Value& v, const std::string& what, std::uint64_t& out) {
    NPKIT_ASSIGN(out, u64(v, what));
    return Ok{};
  }
};

Status Reader::device(Value& v, const std::string& what, NcclTestsDevice& d) {
  return object(v, what, {"rank", "hostname"}, [&](std::string_view k, Value& e) -> Status {
    const std::string key = what + "." + std::string(k);
    if (k == "rank") return integer(e, key, 0, kInt32Max, d.rank);
    if (k == "group") return integer(e, key, -kInt32Max, kInt32Max, d.group);
    if (k == "pid") return integer(e, key, 0, kInt64Max, d.pid);
    if (k == "device") return integer(e, key, -kInt32Max, kInt32Max, d.device);
    if (k == "hostname" || k == "device_hex" || k == "device_info") {
      NPKIT_ASSIGN(auto s, str(e, key));
      (k == "hostname"     ? d.hostname
       : k == "device_hex" ? d.device_hex
                           : d.device_info) = std::move(s);
    }
    return Ok{};
  });
}

Status Reader::config(Value& v, NcclTestsFile& f) {
  return object(v, "config",
                {"nthreads", "ngpus", "minimum_bytes", "maximum_bytes", "warmup_iters",
                 "iterations", "aggregated_iterations", "validation", "graph", "devices"},
                [&](std::string_view k, Value& e) -> Status {
                  const std::string key = "config." + std::string(k);
                  if (k == "nthreads") return integer(e, key, 1, kInt32Max, f.nthreads);
                  if (k == "ngpus") return integer(e, key, 1, kInt32Max, f.ngpus);
                  if (k == "minimum_bytes") return unsigned_integer(e, key, f.minimum_bytes);
                  if (k == "maximum_bytes") return unsigned_integer(e, key, f.maximum_bytes);
                  if (k == "step_factor" || k == "step_bytes") {
                    std::uint64_t x = 0;
                    NPKIT_TRY(unsigned_integer(e, key, x));
                    (k == "step_factor" ? f.step_factor : f.step_bytes) = x;
                    return Ok{};
                  }
                  if (k == "warmup_iters") return integer(e, key, 0, kInt32Max, f.warmup_iters);
                  if (k == "iterations") return integer(e, key, 0, kInt32Max, f.iterations);
                  if (k == "aggregated_iterations") {
                    return integer(e, key, 0, kInt32Max, f.aggregated_iterations);
                  }
                  if (k == "validation") return integer(e, key, 0, kInt32Max, f.validation);
                  if (k == "graph") return integer(e, key, 0, kInt32Max, f.graph);
                  if (k == "per_iter_timing") {
                    NPKIT_ASSIGN(f.per_iter_timing, flag(e, key));
                    return Ok{};
                  }
                  if (k != "devices") return Ok{};
                  return array(e, key, [&](Value& d) -> Status {
                    f.devices.emplace_back();
                    return device(d, fmt::format("{}[{}]", key, f.devices.size() - 1),
                                  f.devices.back());
                  });
                });
}

Status Reader::placement(Value& v, const std::string& what, DriverTiming& t, bool& dropped) {
  bool has_time = false;
  std::string nan_member;
  NPKIT_TRY(
      object(v, what, {"alg_bw", "bus_bw", "nwrong"}, [&](std::string_view k, Value& e) -> Status {
        const std::string key = what + "." + std::string(k);
        if (k == "time" || k == "cpu_time" || k == "alg_bw" || k == "bus_bw") {
          NPKIT_ASSIGN(auto x, number(e, key));
          if (std::isnan(x) && nan_member.empty()) nan_member = key;
          if (k == "time" || k == "cpu_time") {
            if (has_time) return at(offset(e), key + ": a placement holds one of time, cpu_time");
            has_time = true;
            t.time_ns = x * kNsPerUs;
            (k == "time" ? event_time_ : cpu_time_) = true;
          } else {
            (k == "alg_bw" ? t.algbw_gbps : t.busbw_gbps) = x;
          }
          return Ok{};
        }
        if (k != "nwrong") return Ok{};
        if (is_null(e)) return Ok{};
        const std::size_t where = offset(e);
        NPKIT_ASSIGN(auto x, number(e, key));
        if (!(x >= 0) || x != std::floor(x) || x > 9e18) {
          return at(where, key + ": expected a whole number of wrong elements ≥ 0");
        }
        t.wrong = static_cast<std::uint64_t>(x);
        return Ok{};
      }));
  if (!has_time) {
    return at(offset(v), what + ": missing field \"time\" (or \"cpu_time\")");
  }
  if (!nan_member.empty()) dropped = true;
  if (dropped) t.iteration_ns.clear();
  return Ok{};
}

Status Reader::per_iteration(Value& v, const std::string& what, DriverTiming& t) {
  return object(v, what, {"times_us"}, [&](std::string_view k, Value& e) -> Status {
    const std::string key = what + "." + std::string(k);
    if (k == "skipped_iterations") return integer(e, key, 0, kInt32Max, t.skipped_iterations);
    if (k != "times_us") return Ok{};
    return array(e, key, [&](Value& x) -> Status {
      const std::size_t where = offset(x);
      NPKIT_ASSIGN(auto us, number(x, key + "[]"));
      if (!(us >= 0)) return at(where, key + "[]: expected a time ≥ 0");
      t.iteration_ns.push_back(us * kNsPerUs);
      return Ok{};
    });
  });
}

// The integer nccl-tests prints into "root" with %6i.
Result<std::int32_t> parse_root(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  std::int32_t root = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), root);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return Error{};
  return root;
}

Status Reader::result(Value& v, const std::string& what, DriverResult& r, NcclTestsFile& f) {
  DriverTiming placements[2];
  bool present[2] = {false, false};
  bool dropped[2] = {false, false};
  DriverTiming per_iter[2];
  bool has_per_iter[2] = {false, false};
  NPKIT_TRY(object(
      v, what,
      {"size", "count", "type", "redop", "root", "out_of_place", "in_place", "actual_iterations"},
      [&](std::string_view k, Value& e) -> Status {
        const std::string key = what + "." + std::string(k);
        if (k == "size") return unsigned_integer(e, key, r.bytes);
        if (k == "count") return unsigned_integer(e, key, r.count);
        if (k == "actual_iterations") return integer(e, key, 0, kInt32Max, r.iterations);
        if (k == "type" || k == "redop") {
          NPKIT_ASSIGN(auto s, str(e, key));
          (k == "type" ? r.type : r.redop) = std::move(s);
          return Ok{};
        }
        if (k == "root") {
          const std::size_t where = offset(e);
          NPKIT_ASSIGN(auto s, str(e, key));
          auto root = parse_root(s);
          if (!root) return at(where, key + ": expected an integer (as \"    -1\")");
          r.root = *root;
          return Ok{};
        }
        const int p = k == "out_of_place" || k == "out_of_place_per_iter" ? 0 : 1;
        if (k == "out_of_place" || k == "in_place") {
          if (is_null(e)) return Ok{};
          present[p] = true;
          return placement(e, key, placements[p], dropped[p]);
        }
        if (k == "out_of_place_per_iter" || k == "in_place_per_iter") {
          if (is_null(e)) return Ok{};
          has_per_iter[p] = true;
          return per_iteration(e, key, per_iter[p]);
        }
        return Ok{};
      }));
  const auto known = nccl_type_of_tests_name(r.type);
  if (known.empty()) {
    f.notes.push_back(fmt::format("{}.type \"{}\" is not a type nccl-tests prints: kept as written",
                                  what, r.type));
  } else {
    r.type = std::string(known);
  }
  const char* names[2] = {"out_of_place", "in_place"};
  for (int p = 0; p < 2; ++p) {
    if (!present[p]) continue;
    if (dropped[p]) {
      f.notes.push_back(
          fmt::format("{}.{} holds \"nan\": the placement was left out", what, names[p]));
      continue;
    }
    if (has_per_iter[p]) {
      placements[p].iteration_ns = std::move(per_iter[p].iteration_ns);
      placements[p].skipped_iterations = per_iter[p].skipped_iterations;
    }
    (p == 0 ? r.out_of_place : r.in_place) = std::move(placements[p]);
  }
  return Ok{};
}

Status Reader::file(Value& v, NcclTestsFile& f) {
  NPKIT_TRY(object(
      v, "nccl-tests results", {"version", "nccl_version", "config", "results"},
      [&](std::string_view k, Value& e) -> Status {
        const std::string key(k);
        if (k == "version") {
          const std::size_t where = offset(e);
          NPKIT_ASSIGN(auto x, i64(e, key, 1, kInt64Max));
          if (x > kNcclTestsNewestVersion) {
            return at(where, fmt::format("version {} is newer than the nccl-tests results "
                                         "versions this reader knows (1 to {})",
                                         x, kNcclTestsNewestVersion));
          }
          f.version = x;
          return Ok{};
        }
        if (k == "start_time" || k == "end_time") {
          NPKIT_ASSIGN(auto s, str(e, key));
          (k == "start_time" ? f.start_time : f.end_time) = std::move(s);
          return Ok{};
        }
        if (k == "args") return strings(e, key, f.args);
        if (k == "env") return strings(e, key, f.env);
        if (k == "nccl_version") return integer(e, key, 0, kInt32Max, f.nccl_version);
        if (k == "config") return config(e, f);
        if (k == "results") {
          return array(e, key, [&](Value& x) -> Status {
            f.results.rows.emplace_back();
            return result(x, fmt::format("results[{}]", f.results.rows.size() - 1),
                          f.results.rows.back(), f);
          });
        }
        if (k == "out_of_bounds") {
          return object(e, key, {"count"}, [&](std::string_view ok, Value& oe) -> Status {
            if (ok != "count") return Ok{};
            std::int64_t n = 0;
            NPKIT_TRY(integer(oe, key + ".count", 0, kInt64Max, n));
            f.out_of_bounds = n;
            return Ok{};
          });
        }
        if (k == "average_bus_bandwidth") {
          return object(e, key, {"bandwidth"}, [&](std::string_view bk, Value& be) -> Status {
            if (bk == "bandwidth") {
              NPKIT_ASSIGN(auto x, number(be, key + ".bandwidth"));
              if (!std::isnan(x)) f.average_busbw_gbps = x;
            } else if (bk == "okay") {
              od::json_type t;
              if (be.type().get(t) == simdjson::SUCCESS && t == od::json_type::string) {
                NPKIT_ASSIGN(f.average_busbw_check, str(be, key + ".okay"));
              } else {
                NPKIT_ASSIGN(auto b, flag(be, key + ".okay"));
                f.average_busbw_check = b ? "true" : "false";
              }
            }
            return Ok{};
          });
        }
        if (k == "errors") {
          std::vector<std::string> errors;
          NPKIT_TRY(strings(e, key, errors));
          for (auto& s : errors) {
            if (!s.empty()) f.errors.push_back(std::move(s));
          }
        }
        return Ok{};
      }));
  // The collective, the time's kind and the pass over the sizes of every row.
  f.results.program = f.args.empty() ? "" : f.args.front();
  const std::size_t slash = f.results.program.find_last_of('/');
  if (slash != std::string::npos) f.results.program.erase(0, slash + 1);
  const NcclFunc func = nccl_func_of_tests_program(f.results.program);
  const std::string name =
      func == NcclFunc::kOther ? f.results.program : std::string(nccl_func_name(func));
  f.results.nranks = static_cast<std::int32_t>(std::min<std::int64_t>(
      kInt32Max, static_cast<std::int64_t>(std::max<std::size_t>(1, f.devices.size())) *
                     f.nthreads * f.ngpus));
  std::map<std::tuple<std::uint64_t, std::string, std::string, std::int32_t>, std::uint32_t> passes;
  f.results.time_kind = cpu_time_ && !event_time_ ? "cpu_time" : "time";
  for (auto& r : f.results.rows) {
    r.func = name;
    r.cycle = passes[{r.bytes, r.type, r.redop, r.root}]++;
  }
  return Ok{};
}

}  // namespace

Result<NcclTestsFile> parse_nccl_tests(const std::string& name, std::string_view text) {
  const simdjson::padded_string padded(text);
  Reader reader(name, padded);
  NcclTestsFile f;
  NPKIT_TRY(reader.parse("results object", [&](Value& root) { return reader.file(root, f); }));
  return f;
}

Result<NcclTestsFile> read_nccl_tests_file(const std::string& path) {
  auto f = reading_guarded(path, [&]() -> Result<NcclTestsFile> {
    std::vector<std::uint8_t> bytes;
    // docs/formats.md, "Limits": nccl-tests writes a few KB per size.
    NPKIT_TRY(
        io::read_file_into(path, bytes, {std::uint64_t{64} << 20, "an nccl-tests results file"}));
    return parse_nccl_tests(
        path, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  });
  if (f && f->results.rows.empty()) {
    return Error{path + ": the results array is empty (nccl-tests ended before its first size?)"};
  }
  return f;
}

bool looks_like_nccl_tests(std::string_view prefix) {
  JsonPrefix p(prefix);
  return p.take("{") && p.take("\"version\"") && p.take(":") && p.digits() && p.take(",") &&
         p.take("\"start_time\"");
}

std::string nccl_version_text(std::int64_t code) {
  if (code >= 20900) return fmt::format("{}.{}.{}", code / 10000, code / 100 % 100, code % 100);
  return fmt::format("{}.{}.{}", code / 1000, code / 100 % 10, code % 100);
}

}  // namespace npkit
