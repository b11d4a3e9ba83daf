// output/trace/instance_trace_writer.hpp — the trace (output/trace/trace_encoder.hpp) of a run's
// collective instances, for inputs that time whole operations and nothing inside them (NCCL
// Inspector logs, Chrome traces of profiler-plugin events), in the layout of
// run/trace_layout.hpp.
// Contract:
// - Only communicators with start times (RunCommunicator::no_start_times empty) are written; a
//   run without any is an Error that says why (the communicators' reason).
// - One process per (communicator, rank) on the host clock, communicators in the run's order and
//   ranks in rank order (process numbers 1, 2, ...), named "rank R, comm HASH (HOST)"; one thread
//   "collectives" (lanes keep overlapping operations apart, output/trace/trace_lanes.hpp).
// - One slice per timed member, category "collective", named after the function, args seq,
//   size (nccl-tests' S), time_ns and channels; times after otherData.time_origin_ns, the
//   earliest start written.
// - Each process has the busbw counter of its collectives (output/trace/busbw_counters.hpp).
#pragma once

#include <string>

#include "output/trace/trace_encoder.hpp"
#include "run/run.hpp"
#include "util/result.hpp"

namespace npkit {

Status write_instance_trace(const Run& run, TraceEncoder& encoder,
                            const std::string& path_for_messages);

}  // namespace npkit
