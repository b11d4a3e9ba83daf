// output/kernel_phase_output.hpp — NCCL's kernel phases per rank
// (analysis/phases/kernel_phase_summary.hpp) as a table and as JSON, for `report`.
// Contract:
// - kernel_phase_table: title naming the source (KernelPhase events, profiler API v7) and, when
//   `comm` is not empty, the communicator; columns tag (with by_tag), rank, operations, one
//   column per phase in NCCL's order (us, and the share of the operations' GPU time), GPU time
//   (us) and the timed operations without phases.
// - write_kernel_phases_json: a "kernel_phases" array, one object per row (rank, tag with
//   by_tag, operations, without_phases, initial_sync_ns, compute_ns, final_sync_ns, gpu_ns).
#pragma once

#include <string>
#include <vector>

#include "analysis/phases/kernel_phase_summary.hpp"
#include "output/json_writer.hpp"
#include "output/text_table.hpp"

namespace npkit {

TextTable kernel_phase_table(const std::vector<KernelPhaseRow>& rows, const std::string& comm,
                             bool by_tag);

void write_kernel_phases_json(JsonWriter& w, const std::vector<KernelPhaseRow>& rows, bool by_tag);

}  // namespace npkit
