// check_pattern.hpp — what a checked call must leave in each rank's receive buffer.
//
// Contract (pure, no CUDA, no NCCL): every rank's send buffer holds rank + 1 in every element, the
// receive buffer is zeroed, and one call of the collective runs. Then element i of rank r's
// receive buffer (0 <= i < received_elements(shape)) must equal expected_value(kind, r, n,
// shape.count, i):
//   AllReduce, ReduceScatter   n(n+1)/2
//   AllGather, AlltoAll        block j (elements j*count .. (j+1)*count - 1) holds j + 1
//   Broadcast (root 0)         1
//   SendRecv                   ((r-1+n) % n) + 1, the rank it receives from, plus one
// The values are small integers, exact in float for any rank count the driver allows.
#pragma once

#include <cstddef>
#include <cstdint>

#include "coll_shape.hpp"

namespace npkit::driver {

// Elements of the receive buffer one call writes (shape.recv_bytes / sizeof(float)).
std::size_t received_elements(const CollShape& shape);

float expected_value(CollKind kind, int rank, int nranks, std::size_t count, std::size_t index);

// Counts the elements values[0..n) — elements first .. first + n - 1 of the receive buffer — that
// differ from expected_value().
std::int64_t count_wrong(CollKind kind, int rank, int nranks, std::size_t count, std::size_t first,
                         const float* values, std::size_t n);

}  // namespace npkit::driver
