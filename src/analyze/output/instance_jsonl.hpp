// output/instance_jsonl.hpp — collective instance records (analysis/export/instance_records.hpp)
// as JSON lines: one object per line, schema npkit-analyze.instance v1 (docs/cli.md
// "instances").
// Contract: each line holds schema, schema_version, run, comm (16 hex digits), scope, nranks,
// clock, func, seq, label, bytes, count, type, algo, proto, tag (the user tag, run/run.hpp; 0 =
// untagged), channels (the most of any member), ranks_timed, missing_ranks, flags (what the
// instance's times rest on, run/time_quality.hpp instance_flags: "untimed", "stale",
// "host-disagree", "short rank R"), time_ns, algbw_gbps,
// busbw_gbps, true_time_ns, true_algbw_gbps, true_busbw_gbps (null where the record has none) and
// members [{rank, host, timed, stale, implausibly_short, start_ns, end_ns, time_ns (the three null
// when untimed), channels, and kernel_phases {initial_sync_ns, compute_ns, final_sync_ns} where the
// member has NCCL's kernel phases}]. Strings are JSON-escaped; "" where the input does not say.
#pragma once

#include <string>
#include <vector>

#include "analysis/export/instance_records.hpp"

namespace npkit {

void append_instance_jsonl(const std::vector<InstanceRecord>& records, const std::string& run_name,
                           std::string& out);

}  // namespace npkit
