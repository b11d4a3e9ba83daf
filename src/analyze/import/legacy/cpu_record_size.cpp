// CPU record size detection: 16 bytes everywhere except the NCCL 2.20 port (18 or 22 bytes).
// A size is possible only if it divides every non-empty CPU file; among the possible sizes the
// one whose timestamps read as a plausible, non-decreasing clock wins. A wrong stride shifts
// the u64 timestamp into other fields and produces wildly jumping values.
#include <algorithm>
#include <array>

#include "import/legacy/legacy_dump.hpp"
#include "import/legacy/legacy_record.hpp"
#include "util/file_io.hpp"

namespace npkit {
namespace {

constexpr std::array<unsigned, 3> kCandidates = {kLegacyRecordSize, kLegacyCpuRecordSize18,
                                                 kLegacyCpuRecordSize22};
constexpr std::size_t kSampleBytes = 64 * 1024;
// Consecutive CPU timestamps (ns) further apart than this count as implausible.
constexpr std::uint64_t kMaxPlausibleStep = 3600ull * 1000000000ull;

struct Score {
  std::uint64_t plausible = 0;
  std::uint64_t total = 0;
};

void score_sample(const std::vector<std::uint8_t>& bytes, unsigned size, Score& score) {
  const std::size_t n = bytes.size() / size;
  std::uint64_t prev = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const LegacyRecord r = decode_legacy_record(bytes.data() + i * size, size);
    if (i > 0) {
      ++score.total;
      if (r.timestamp >= prev && r.timestamp - prev <= kMaxPlausibleStep) ++score.plausible;
    }
    prev = r.timestamp;
  }
}

}  // namespace

Result<unsigned> detect_cpu_record_size(const DumpLayout& layout, std::string& reason,
                                        Diagnostics& diagnostics) {
  std::array<bool, kCandidates.size()> possible{};
  possible.fill(true);
  std::array<Score, kCandidates.size()> scores{};
  std::vector<std::uint8_t> sample;
  std::size_t nonempty = 0;
  for (const auto& rank : layout.ranks) {
    for (const auto& f : rank.cpu) {
      if (f.bytes == 0) continue;
      ++nonempty;
      for (std::size_t c = 0; c < kCandidates.size(); ++c) {
        if (f.bytes % kCandidates[c] != 0) possible[c] = false;
      }
      if (nonempty > 64) continue;  // enough evidence
      NPKIT_TRY(io::read_prefix_into(f.path, kSampleBytes, sample));
      for (std::size_t c = 0; c < kCandidates.size(); ++c)
        score_sample(sample, kCandidates[c], scores[c]);
    }
  }
  if (nonempty == 0) {
    reason = "16 bytes (no non-empty CPU event file)";
    return kLegacyRecordSize;
  }
  const auto count = std::count(possible.begin(), possible.end(), true);
  if (count == 0) {
    diagnostics.warn("cpu record size", layout.dir +
                                            ": CPU event file sizes are not all multiples of "
                                            "16, 18 or 22 bytes; reading 16-byte records, "
                                            "trailing bytes are dropped");
    reason = "16 bytes (file sizes fit no known record size)";
    return kLegacyRecordSize;
  }
  std::size_t best = kCandidates.size();
  double best_ratio = -1;
  for (std::size_t c = 0; c < kCandidates.size(); ++c) {
    if (!possible[c]) continue;
    const double ratio =
        scores[c].total == 0 ? 1.0 : double(scores[c].plausible) / double(scores[c].total);
    if (ratio > best_ratio) {
      best_ratio = ratio;
      best = c;
    }
  }
  const unsigned size = kCandidates[best];
  reason = std::to_string(size) + " bytes (" +
           (count == 1 ? std::string("the only size dividing every CPU file")
                       : "timestamps plausible in " + std::to_string(scores[best].plausible) +
                             " of " + std::to_string(scores[best].total) + " record steps") +
           ")";
  return size;
}

}  // namespace npkit
