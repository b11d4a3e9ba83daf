// run/summary/run_summary.hpp — a compact, mergeable summary of one run (schema "npkit-summary" v2,
// docs/cli.md): what `summarize` writes and what `diff` and `compare` read.
// Contract:
// - Collective rows are keyed by (collective, nranks, size, size kind, algo, proto, tag). The size
// is
//   nccl-tests' S in bytes ("exact") or, for a collective whose run had more than
//   kMaxExactSizes distinct sizes, the power of two at or below S ("pow2": S in [size, 2·size)).
//   Each rank's sample holds that rank's GPU time of every instance of the row where the member
//   is clean (timed, not implausibly short, its instance's host times agree: run/run.hpp
//   RunInstance::clean); flagged_instances counts the timed instances with a timed member that
//   is not clean (host_disagree_instances, short_instances: by which flag); bytes_sum adds S over
//   the instances, so bytes_sum / instances is the mean S. incomplete_instances counts the
//   instances of communicators with a rank whose log lost collective records
//   (RunCommunicator::collectives_incomplete()): the row may lack instances and samples. tag: the
//   instances' user tag (run/run.hpp RunInstance::tag; 0 = untagged).
//   analysis/summary/summarize_run.hpp makes one of any run.
// - Phase rows are keyed by (source, domain, phase): source "spans" (inputs with spans: the
//   exclusive time of every span, as `report` attributes it; domain gpu or cpu), "proxy"
//   (NET proxy steps, run/proxy_steps.hpp; domain net) or "kernel" (NCCL's kernel phases,
//   run/kernel_phases.hpp; domain gpu). Per rank: total
//   ns, the reference the share is of (GPU collective time, CPU span time, proxy step time), the
//   span, step or operation count and, for "spans" and "kernel", each span's exclusive time or
//   each operation's phase time.
// - Sync rows are keyed by (nranks, rank): per collective instance timed on at least two ranks,
//   the rank's GPU start minus the earliest (analysis/summary/summarize_run.hpp), and how
//   often it started last.
// - Config: value sets (NCCL versions, each NCCL_*/NPKIT_* variable's values, GPUs, hosts,
//   capture settings, input formats) and the ranks seen per communicator.
// - merge_into() adds one summary to another: rows with equal keys pool their samples and add
//   their counts, per rank; sets unite; inputs and file counts add up. It is associative and
//   commutative up to the order of `inputs` (kept in merge order), so summaries of nodes can be
//   merged in any grouping. Rows are kept sorted by key.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "run/run_config.hpp"
#include "run/summary/duration_sample.hpp"

namespace npkit {

inline constexpr const char* kSummarySchema = "npkit-summary";
inline constexpr int kSummaryVersion = 2;
inline constexpr std::size_t kMaxExactSizes = 64;

enum class SizeKind : std::uint8_t { kExact, kPow2 };

struct CollectiveKey {
  std::string collective;  // NCCL's name: AllReduce, AllGather, ..., SendRecv, AlltoAll
  std::int32_t nranks = 0;
  std::uint64_t size_bytes = 0;
  SizeKind size_kind = SizeKind::kExact;
  std::string algo;  // "" when the source does not say
  std::string proto;
  std::uint64_t tag = 0;  // the user tag (NCCL 2.31+ userProfilerTag); 0 = untagged

  auto operator<=>(const CollectiveKey&) const = default;
};

struct RankDurations {
  std::int32_t rank = 0;
  DurationSample time_ns;
  friend bool operator==(const RankDurations&, const RankDurations&) = default;
};

struct CollectiveRow {
  CollectiveKey key;
  std::uint64_t instances = 0;
  std::uint64_t untimed_instances = 0;        // no GPU time on any rank
  std::uint64_t not_sampled_instances = 0;    // of those: left out by a sampling capture
  std::uint64_t stale_instances = 0;          // a rank's GPU time lost to a stale channel event
  std::uint64_t incomplete_instances = 0;     // of a communicator whose log lost records (run.hpp)
  std::uint64_t flagged_instances = 0;        // timed, a timed member not clean (time_quality.hpp)
  std::uint64_t host_disagree_instances = 0;  // of those: times of one host disagree
  std::uint64_t short_instances = 0;          // of those: a member implausibly short
  std::uint64_t bytes_sum = 0;                // S summed over instances (saturating)
  std::vector<RankDurations> ranks;           // by rank

  // Every rank's durations pooled.
  DurationSample pooled() const;
  // `bandwidth`'s time of the row: each rank's median, averaged over ranks (0 without a sample).
  double time_ns() const;
  // The sample of `rank`, added in rank order when the row has none yet.
  DurationSample& rank_sample(std::int32_t rank);
  double mean_bytes() const;
  friend bool operator==(const CollectiveRow&, const CollectiveRow&) = default;
};

struct PhaseKey {
  std::string source;  // "spans" | "proxy" | "kernel"
  std::string domain;  // "gpu" | "cpu" | "net"
  std::string phase;
  auto operator<=>(const PhaseKey&) const = default;
};

struct RankPhase {
  std::int32_t rank = 0;
  std::int64_t ns = 0;
  std::int64_t reference_ns = 0;
  std::uint64_t count = 0;
  DurationSample span_ns;  // "spans" only

  double share() const;
  friend bool operator==(const RankPhase&, const RankPhase&) = default;
};

struct PhaseRow {
  PhaseKey key;
  std::vector<RankPhase> ranks;  // by rank
  friend bool operator==(const PhaseRow&, const PhaseRow&) = default;
};

struct SyncRank {
  std::int32_t nranks = 0;
  std::int32_t rank = 0;
  std::uint64_t instances = 0;
  std::uint64_t arrived_last = 0;
  DurationSample skew_ns;
  friend bool operator==(const SyncRank&, const SyncRank&) = default;
};

struct RunSummary {
  std::vector<std::string> inputs;
  RunConfig config;
  std::vector<CollectiveRow> collectives;  // by key
  std::vector<PhaseRow> phases;            // by key
  std::vector<SyncRank> sync;              // by (nranks, rank)
  std::uint64_t warnings = 0;              // warnings while reading the inputs

  friend bool operator==(const RunSummary&, const RunSummary&) = default;
};

void merge_into(RunSummary& into, const RunSummary& other);

// Whether any collective row has a user tag, and the rows with every tag folded to 0 (rows then
// equal pooled as merge_into pools them), for comparing a tagged run with an untagged one.
bool has_tags(const std::vector<CollectiveRow>& rows);
std::vector<CollectiveRow> untagged(std::vector<CollectiveRow> rows);

// "1048576" for an exact size, "1048576-2097151" for a power-of-two bucket.
std::string size_label(std::uint64_t size_bytes, SizeKind kind);
const char* size_kind_name(SizeKind kind);

// Each rank's median, averaged over the ranks that have a sample (0 when none has).
double mean_rank_median_ns(const std::vector<RankDurations>& ranks);

// nccl-tests' algbw and busbw (GB/s) of a row at time `ns`; 0 when the collective has no
// nccl-tests convention or ns is not positive.
double row_algbw_gbps(const CollectiveKey& key, double mean_bytes, double ns);
double row_busbw_gbps(const CollectiveKey& key, double mean_bytes, double ns);

}  // namespace npkit
