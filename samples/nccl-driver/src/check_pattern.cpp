#include "check_pattern.hpp"

namespace npkit::driver {

std::size_t received_elements(const CollShape& shape) {
  return shape.recv_bytes / sizeof(float);
}

float expected_value(CollKind kind, int rank, int nranks, std::size_t count, std::size_t index) {
  switch (kind) {
    case CollKind::kAllReduce:
    case CollKind::kReduceScatter:
      return static_cast<float>(nranks) * static_cast<float>(nranks + 1) / 2;
    case CollKind::kAllGather:
    case CollKind::kAlltoAll:
      return count == 0 ? 0.0f : static_cast<float>(index / count + 1);
    case CollKind::kBroadcast:
      return 1.0f;
    case CollKind::kSendRecv:
      return static_cast<float>((rank - 1 + nranks) % nranks + 1);
  }
  return 0.0f;
}

std::int64_t count_wrong(CollKind kind, int rank, int nranks, std::size_t count, std::size_t first,
                         const float* values, std::size_t n) {
  std::int64_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (values[i] != expected_value(kind, rank, nranks, count, first + i)) ++wrong;
  }
  return wrong;
}

}  // namespace npkit::driver
