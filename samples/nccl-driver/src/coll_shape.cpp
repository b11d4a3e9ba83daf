#include "coll_shape.hpp"

#include <algorithm>
#include <cctype>
#include <limits>
#include <string>

namespace npkit::driver {
namespace {

// nccl-tests aligns per-rank counts of AllGather, ReduceScatter and AlltoAll to 16 bytes.
constexpr std::size_t kPerRankAlignBytes = 16;

std::size_t aligned_per_rank_count(std::size_t count, std::size_t type_size, int nranks) {
  const std::size_t per_rank = count / static_cast<std::size_t>(nranks);
  const std::size_t align = std::max<std::size_t>(1, kPerRankAlignBytes / type_size);
  return per_rank / align * align;
}

}  // namespace

const std::vector<CollKind>& default_colls() {
  static const std::vector<CollKind> kDefault = {CollKind::kAllReduce, CollKind::kAllGather,
                                                 CollKind::kReduceScatter, CollKind::kAlltoAll,
                                                 CollKind::kBroadcast};
  return kDefault;
}

const std::vector<CollKind>& known_colls() {
  static const std::vector<CollKind> kKnown = {CollKind::kAllReduce,     CollKind::kAllGather,
                                               CollKind::kReduceScatter, CollKind::kAlltoAll,
                                               CollKind::kBroadcast,     CollKind::kSendRecv};
  return kKnown;
}

std::string_view coll_name(CollKind kind) {
  switch (kind) {
    case CollKind::kAllReduce:
      return "allreduce";
    case CollKind::kAllGather:
      return "allgather";
    case CollKind::kReduceScatter:
      return "reducescatter";
    case CollKind::kAlltoAll:
      return "alltoall";
    case CollKind::kBroadcast:
      return "broadcast";
    case CollKind::kSendRecv:
      return "sendrecv";
  }
  return "unknown";
}

std::optional<CollKind> parse_coll(std::string_view name) {
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (CollKind kind : known_colls()) {
    if (coll_name(kind) == lower) return kind;
  }
  return std::nullopt;
}

std::string_view redop_name(CollKind kind) {
  return kind == CollKind::kAllReduce || kind == CollKind::kReduceScatter ? "sum" : "none";
}

int root_rank(CollKind kind) {
  return kind == CollKind::kBroadcast ? 0 : -1;
}

CollShape shape_for(CollKind kind, std::size_t bytes, std::size_t type_size, int nranks) {
  const std::size_t count = bytes / type_size;
  const std::size_t n = static_cast<std::size_t>(nranks);
  CollShape shape;
  switch (kind) {
    case CollKind::kAllReduce:
    case CollKind::kBroadcast:
    case CollKind::kSendRecv:
      shape.count = count;
      shape.send_bytes = count * type_size;
      shape.recv_bytes = count * type_size;
      break;
    case CollKind::kAllGather:
      shape.count = aligned_per_rank_count(count, type_size, nranks);
      shape.send_bytes = shape.count * type_size;
      shape.recv_bytes = shape.count * type_size * n;
      break;
    case CollKind::kReduceScatter:
      shape.count = aligned_per_rank_count(count, type_size, nranks);
      shape.send_bytes = shape.count * type_size * n;
      shape.recv_bytes = shape.count * type_size;
      break;
    case CollKind::kAlltoAll:
      shape.count = aligned_per_rank_count(count, type_size, nranks);
      shape.send_bytes = shape.count * type_size * n;
      shape.recv_bytes = shape.count * type_size * n;
      break;
  }
  shape.size_bytes = std::max(shape.send_bytes, shape.recv_bytes);
  return shape;
}

double busbw_factor(CollKind kind, int nranks) {
  const double n = nranks;
  switch (kind) {
    case CollKind::kAllReduce:
      return 2.0 * (n - 1.0) / n;
    case CollKind::kAllGather:
    case CollKind::kReduceScatter:
    case CollKind::kAlltoAll:
      return (n - 1.0) / n;
    case CollKind::kBroadcast:
    case CollKind::kSendRecv:
      return 1.0;
  }
  return 1.0;
}

std::vector<std::size_t> size_sweep(std::size_t min_bytes, std::size_t max_bytes,
                                    std::size_t factor) {
  std::vector<std::size_t> sizes;
  for (std::size_t size = min_bytes; size <= max_bytes; size *= factor) {
    sizes.push_back(size);
    if (size > std::numeric_limits<std::size_t>::max() / factor) break;
  }
  return sizes;
}

}  // namespace npkit::driver
