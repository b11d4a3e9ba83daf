#include "import/summary/summary_json_reader.hpp"

#include <fmt/format.h>
#include <simdjson.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <set>
#include <vector>

#include "import/json/json_value_reader.hpp"
#include "run/summary/saturating_count.hpp"
#include "util/file_io.hpp"
#include "util/out_of_memory.hpp"

namespace npkit {
namespace {

namespace od = simdjson::ondemand;

// The bytes looks_like_summary needs to tell a summary.
constexpr std::size_t kSummaryPrefixBytes = 64;

class Reader : public JsonValueReader {
 public:
  using JsonValueReader::JsonValueReader;

  Status sample(od::value& v, std::string_view what, DurationSample& out);
  Status config(od::value& v, RunConfig& c);
  Status collective(od::value& v, CollectiveRow& row);
  Status phase(od::value& v, PhaseRow& row);
  Status sync(od::value& v, SyncRank& s);
  Status summary(od::value& v, RunSummary& s);
};

constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kInt32Max = std::numeric_limits<std::int32_t>::max();

Status Reader::sample(od::value& v, std::string_view what, DurationSample& out) {
  const std::size_t start = offset(v);
  std::uint64_t count = 0;
  std::int64_t min = 0;
  std::int64_t max = 0;
  std::uint64_t sum = 0;
  std::vector<std::int64_t> values;
  std::map<std::uint32_t, std::uint64_t> buckets;
  bool has_values = false;
  bool has_buckets = false;
  NPKIT_TRY(object(
      v, what, {"count", "min", "max", "sum"}, [&](std::string_view k, od::value& e) -> Status {
        if (k == "count") {
          NPKIT_ASSIGN(count, u64(e, "count"));
        } else if (k == "min" || k == "max") {
          NPKIT_ASSIGN(auto x, i64(e, k, 0, kInt64Max));
          (k == "min" ? min : max) = x;
        } else if (k == "sum") {
          NPKIT_ASSIGN(sum, u64(e, "sum"));
        } else if (k == "values") {
          has_values = true;
          return array(e, "values", [&](od::value& x) -> Status {
            NPKIT_ASSIGN(auto n, i64(x, "value", 0, kInt64Max));
            values.push_back(n);
            return Ok{};
          });
        } else if (k == "buckets") {
          has_buckets = true;
          std::int64_t previous = -1;
          return array(e, "buckets", [&](od::value& pair) -> Status {
            const std::size_t pair_at = offset(pair);
            std::vector<std::uint64_t> fields;
            NPKIT_TRY(array(pair, "bucket", [&](od::value& x) -> Status {
              NPKIT_ASSIGN(auto n, u64(x, "bucket"));
              fields.push_back(n);
              return Ok{};
            }));
            if (fields.size() != 2 || fields[0] > static_cast<std::uint64_t>(kInt64Max) ||
                fields[1] == 0) {
              return at(pair_at, "bucket: expected [lowest value, count ≥ 1]");
            }
            const auto low = static_cast<std::int64_t>(fields[0]);
            const std::uint32_t b = DurationSample::bucket_of(low);
            if (DurationSample::bucket_low(b) != low) {
              return at(pair_at,
                        fmt::format("bucket: {} is not the lowest value of a bucket", low));
            }
            if (low <= previous) return at(pair_at, "bucket: not in increasing order");
            previous = low;
            buckets[b] = fields[1];
            return Ok{};
          });
        }
        return Ok{};
      }));
  if (has_values == has_buckets) {
    return at(start, fmt::format("{}: expected exactly one of \"values\" and \"buckets\"", what));
  }
  if (has_values) {
    DurationSample s = DurationSample::from_values(values);
    if (s.count() != count || s.min() != min || s.max() != max || s.sum() != sum) {
      return at(start,
                fmt::format("{}: count/min/max/sum ({}/{}/{}/{}) do not match the values "
                            "({}/{}/{}/{})",
                            what, count, min, max, sum, s.count(), s.min(), s.max(), s.sum()));
    }
    out = std::move(s);
    return Ok{};
  }
  std::uint64_t total = 0;
  for (const auto& [b, n] : buckets) total = sat_add_count(total, n);
  if (total != count || buckets.empty()) {
    return at(start, fmt::format("{}: count {} does not match the bucket counts ({})", what, count,
                                 total));
  }
  const std::uint32_t first = buckets.begin()->first;
  const std::uint32_t last = buckets.rbegin()->first;
  if (DurationSample::bucket_of(min) != first || DurationSample::bucket_of(max) != last) {
    return at(start, fmt::format("{}: min {} / max {} lie outside the first / last bucket", what,
                                 min, max));
  }
  out = DurationSample::from_histogram(std::move(buckets), min, max, sum);
  return Ok{};
}

Status Reader::config(od::value& v, RunConfig& c) {
  return object(
      v, "config",
      {"formats", "nccl_versions", "gpus", "hosts", "env", "capture", "communicators", "files"},
      [&](std::string_view k, od::value& e) -> Status {
        if (k == "formats") return string_set(e, "formats", c.formats);
        if (k == "nccl_versions") return string_set(e, "nccl_versions", c.nccl_versions);
        if (k == "gpus") return string_set(e, "gpus", c.gpus);
        if (k == "hosts") return string_set(e, "hosts", c.hosts);
        if (k == "env") return set_map(e, "env", c.env);
        if (k == "env_files") return string_set(e, "env_files", c.env_files);
        if (k == "capture") return set_map(e, "capture", c.capture);
        if (k == "files") {
          NPKIT_ASSIGN(c.files, u64(e, "files"));
          return Ok{};
        }
        if (k != "communicators") return Ok{};
        return array(e, "communicators", [&](od::value& comm) -> Status {
          const std::size_t comm_at = offset(comm);
          std::string hash;
          CommunicatorRanks ranks;
          NPKIT_TRY(object(comm, "communicator", {"hash", "nranks", "ranks"},
                           [&](std::string_view ck, od::value& ce) -> Status {
                             if (ck == "hash") {
                               NPKIT_ASSIGN(hash, str(ce, "hash"));
                             } else if (ck == "nranks") {
                               NPKIT_ASSIGN(auto n, i64(ce, "nranks", 0, kInt32Max));
                               ranks.nranks = static_cast<std::int32_t>(n);
                             } else if (ck == "ranks") {
                               return array(ce, "ranks", [&](od::value& r) -> Status {
                                 NPKIT_ASSIGN(auto n, i64(r, "rank", 0, kInt32Max));
                                 ranks.ranks.insert(static_cast<std::int32_t>(n));
                                 return Ok{};
                               });
                             }
                             return Ok{};
                           }));
          if (!c.communicators.emplace(hash, std::move(ranks)).second) {
            return at(comm_at, fmt::format("communicator \"{}\" listed twice", hash));
          }
          return Ok{};
        });
      });
}

// stale_instances and incomplete_instances are optional (summaries written before they existed
// have none), and so are tag (written for tagged rows only) and the flagged counts (written for
// rows with a flagged instance).
Status Reader::collective(od::value& v, CollectiveRow& row) {
  return object(v, "collective row",
                {"collective", "nranks", "size_bytes", "size_kind", "algo", "proto", "instances",
                 "untimed_instances", "bytes_sum", "ranks"},
                [&](std::string_view k, od::value& e) -> Status {
                  if (k == "collective" || k == "algo" || k == "proto") {
                    NPKIT_ASSIGN(auto s, str(e, k));
                    (k == "collective" ? row.key.collective
                     : k == "algo"     ? row.key.algo
                                       : row.key.proto) = std::move(s);
                  } else if (k == "nranks") {
                    NPKIT_ASSIGN(auto n, i64(e, "nranks", 0, kInt32Max));
                    row.key.nranks = static_cast<std::int32_t>(n);
                  } else if (k == "size_bytes" || k == "instances" || k == "untimed_instances" ||
                             k == "stale_instances" || k == "incomplete_instances" ||
                             k == "bytes_sum" || k == "tag" || k == "flagged_instances" ||
                             k == "host_disagree_instances" || k == "short_instances" ||
                             k == "not_sampled_instances") {
                    NPKIT_ASSIGN(auto n, u64(e, k));
                    (k == "size_bytes"                ? row.key.size_bytes
                     : k == "instances"               ? row.instances
                     : k == "bytes_sum"               ? row.bytes_sum
                     : k == "stale_instances"         ? row.stale_instances
                     : k == "incomplete_instances"    ? row.incomplete_instances
                     : k == "tag"                     ? row.key.tag
                     : k == "flagged_instances"       ? row.flagged_instances
                     : k == "host_disagree_instances" ? row.host_disagree_instances
                     : k == "short_instances"         ? row.short_instances
                     : k == "not_sampled_instances"   ? row.not_sampled_instances
                                                      : row.untimed_instances) = n;
                  } else if (k == "size_kind") {
                    const std::size_t kind_at = offset(e);
                    NPKIT_ASSIGN(auto s, str(e, "size_kind"));
                    if (s != "exact" && s != "pow2") {
                      return at(kind_at, "size_kind: expected \"exact\" or \"pow2\"");
                    }
                    row.key.size_kind = s == "exact" ? SizeKind::kExact : SizeKind::kPow2;
                  } else if (k == "ranks") {
                    return array(e, "ranks", [&](od::value& r) -> Status {
                      RankDurations d;
                      NPKIT_TRY(object(r, "rank entry", {"rank", "time_ns"},
                                       [&](std::string_view rk, od::value& re) -> Status {
                                         if (rk == "rank") {
                                           NPKIT_ASSIGN(auto n, i64(re, "rank", -1, kInt32Max));
                                           d.rank = static_cast<std::int32_t>(n);
                                         } else if (rk == "time_ns") {
                                           return sample(re, "time_ns", d.time_ns);
                                         }
                                         return Ok{};
                                       }));
                      row.ranks.push_back(std::move(d));
                      return Ok{};
                    });
                  }
                  return Ok{};
                });
}

Status Reader::phase(od::value& v, PhaseRow& row) {
  return object(
      v, "phase row", {"source", "domain", "phase", "ranks"},
      [&](std::string_view k, od::value& e) -> Status {
        if (k == "source" || k == "domain" || k == "phase") {
          NPKIT_ASSIGN(auto s, str(e, k));
          (k == "source"   ? row.key.source
           : k == "domain" ? row.key.domain
                           : row.key.phase) = std::move(s);
        } else if (k == "ranks") {
          return array(e, "ranks", [&](od::value& r) -> Status {
            RankPhase p;
            NPKIT_TRY(object(r, "rank entry", {"rank", "ns", "reference_ns", "count", "span_ns"},
                             [&](std::string_view rk, od::value& re) -> Status {
                               if (rk == "rank") {
                                 NPKIT_ASSIGN(auto n, i64(re, "rank", -1, kInt32Max));
                                 p.rank = static_cast<std::int32_t>(n);
                               } else if (rk == "ns" || rk == "reference_ns") {
                                 NPKIT_ASSIGN(auto n, i64(re, rk, 0, kInt64Max));
                                 (rk == "ns" ? p.ns : p.reference_ns) = n;
                               } else if (rk == "count") {
                                 NPKIT_ASSIGN(p.count, u64(re, "count"));
                               } else if (rk == "span_ns") {
                                 return sample(re, "span_ns", p.span_ns);
                               }
                               return Ok{};
                             }));
            row.ranks.push_back(std::move(p));
            return Ok{};
          });
        }
        return Ok{};
      });
}

Status Reader::sync(od::value& v, SyncRank& s) {
  return object(v, "sync row", {"nranks", "rank", "instances", "arrived_last", "skew_ns"},
                [&](std::string_view k, od::value& e) -> Status {
                  if (k == "nranks" || k == "rank") {
                    NPKIT_ASSIGN(auto n, i64(e, k, 0, kInt32Max));
                    (k == "nranks" ? s.nranks : s.rank) = static_cast<std::int32_t>(n);
                  } else if (k == "instances" || k == "arrived_last") {
                    NPKIT_ASSIGN(auto n, u64(e, k));
                    (k == "instances" ? s.instances : s.arrived_last) = n;
                  } else if (k == "skew_ns") {
                    return sample(e, "skew_ns", s.skew_ns);
                  }
                  return Ok{};
                });
}

// Sorts `items` by key; two with one key are an error at the second's offset.
template <typename T, typename KeyOf>
Status sort_unique(const Reader& reader, std::vector<std::pair<T, std::size_t>>& items,
                   std::vector<T>& out, KeyOf key_of, std::string_view what) {
  std::stable_sort(items.begin(), items.end(),
                   [&](const auto& a, const auto& b) { return key_of(a.first) < key_of(b.first); });
  for (std::size_t i = 1; i < items.size(); ++i) {
    if (key_of(items[i].first) == key_of(items[i - 1].first)) {
      return reader.at(items[i].second, fmt::format("duplicate {}", what));
    }
  }
  for (auto& [item, at] : items) out.push_back(std::move(item));
  return Ok{};
}

template <typename Row, typename RankOf>
Status sort_ranks(const Reader& reader, std::vector<Row>& ranks, RankOf rank_of,
                  std::size_t row_at) {
  std::sort(ranks.begin(), ranks.end(),
            [&](const Row& a, const Row& b) { return rank_of(a) < rank_of(b); });
  for (std::size_t i = 1; i < ranks.size(); ++i) {
    if (rank_of(ranks[i]) == rank_of(ranks[i - 1])) {
      return reader.at(row_at, fmt::format("rank {} listed twice in one row", rank_of(ranks[i])));
    }
  }
  return Ok{};
}

Status Reader::summary(od::value& v, RunSummary& s) {
  std::string schema;
  std::size_t schema_at = 0;
  std::int64_t version = 0;
  std::size_t version_at = 0;
  std::vector<std::pair<CollectiveRow, std::size_t>> collectives;
  std::vector<std::pair<PhaseRow, std::size_t>> phases;
  std::vector<std::pair<SyncRank, std::size_t>> sync_rows;
  NPKIT_TRY(
      object(v, "summary",
             {"schema", "schema_version", "inputs", "config", "collectives", "phases", "sync"},
             [&](std::string_view k, od::value& e) -> Status {
               if (k == "schema") {
                 schema_at = offset(e);
                 NPKIT_ASSIGN(schema, str(e, "schema"));
               } else if (k == "schema_version") {
                 version_at = offset(e);
                 NPKIT_ASSIGN(version, i64(e, "schema_version", 1, kInt32Max));
               } else if (k == "inputs") {
                 return array(e, "inputs", [&](od::value& x) -> Status {
                   NPKIT_ASSIGN(auto in, str(x, "input"));
                   s.inputs.push_back(std::move(in));
                   return Ok{};
                 });
               } else if (k == "warnings") {
                 NPKIT_ASSIGN(s.warnings, u64(e, "warnings"));
               } else if (k == "config") {
                 return config(e, s.config);
               } else if (k == "collectives") {
                 return array(e, "collectives", [&](od::value& x) -> Status {
                   const std::size_t row_at = offset(x);
                   CollectiveRow row;
                   NPKIT_TRY(collective(x, row));
                   NPKIT_TRY(sort_ranks(
                       *this, row.ranks, [](const RankDurations& r) { return r.rank; }, row_at));
                   collectives.emplace_back(std::move(row), row_at);
                   return Ok{};
                 });
               } else if (k == "phases") {
                 return array(e, "phases", [&](od::value& x) -> Status {
                   const std::size_t row_at = offset(x);
                   PhaseRow row;
                   NPKIT_TRY(phase(x, row));
                   NPKIT_TRY(sort_ranks(
                       *this, row.ranks, [](const RankPhase& r) { return r.rank; }, row_at));
                   phases.emplace_back(std::move(row), row_at);
                   return Ok{};
                 });
               } else if (k == "sync") {
                 return array(e, "sync", [&](od::value& x) -> Status {
                   const std::size_t row_at = offset(x);
                   SyncRank row;
                   NPKIT_TRY(sync(x, row));
                   sync_rows.emplace_back(std::move(row), row_at);
                   return Ok{};
                 });
               }
               return Ok{};
             }));
  if (schema != kSummarySchema) {
    return at(schema_at, fmt::format("schema \"{}\" is not \"{}\"", schema, kSummarySchema));
  }
  if (version > kSummaryVersion) {
    return at(version_at, fmt::format("schema_version {} is newer than this npkit-analyze reads "
                                      "({}); use a newer npkit-analyze",
                                      version, kSummaryVersion));
  }
  NPKIT_TRY(sort_unique(
      *this, collectives, s.collectives, [](const CollectiveRow& r) { return r.key; },
      "collective row"));
  NPKIT_TRY(sort_unique(
      *this, phases, s.phases, [](const PhaseRow& r) { return r.key; }, "phase row"));
  NPKIT_TRY(sort_unique(
      *this, sync_rows, s.sync, [](const SyncRank& r) { return std::pair(r.nranks, r.rank); },
      "sync row"));
  return Ok{};
}

}  // namespace

Result<RunSummary> parse_summary(const std::string& name, std::string_view text) {
  const simdjson::padded_string padded(text);
  Reader reader(name, padded);
  RunSummary s;
  NPKIT_TRY(
      reader.parse("summary object", [&](od::value& root) { return reader.summary(root, s); }));
  return s;
}

Result<RunSummary> read_summary_file(const std::string& path) {
  return reading_guarded(path, [&]() -> Result<RunSummary> {
    std::vector<std::uint8_t> bytes;
    // docs/formats.md, "Limits": a summary of the largest runs is a few MB.
    NPKIT_TRY(io::read_file_into(path, bytes, {std::uint64_t{1} << 30, "an npkit summary"}));
    return parse_summary(
        path, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  });
}

bool looks_like_summary(std::string_view prefix) {
  JsonPrefix p(prefix);
  return p.take("{") && p.take("\"schema\"") && p.take(":") && p.take("\"npkit-summary\"");
}

bool is_summary_file(const std::string& path) {
  if (!io::path_exists(path) || io::is_directory(path) || io::is_special_file(path)) return false;
  std::vector<std::uint8_t> prefix;
  if (!io::read_prefix_into(path, kSummaryPrefixBytes, prefix)) return false;
  return looks_like_summary(
      std::string_view(reinterpret_cast<const char*>(prefix.data()), prefix.size()));
}

}  // namespace npkit
