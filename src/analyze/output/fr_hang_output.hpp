// output/fr_hang_output.hpp — `hang` on PyTorch Flight Recorder dumps alone
// (analysis/hang/fr_hang.hpp) as text, CSV, Markdown and JSON.
// Contract:
// - append_fr_hang_text: per process group a heading ("process group 0 (default_pg), 4 ranks:
//   STALLED at all_reduce #62", "nothing stuck", "cannot tell"), its verdict (who never called
//   the collective, who waits in it and in what state, its sizes, where it was called from, the
//   mismatches, the ranks without a dump) and a table of its member ranks (global rank, last
//   collective_seq_id, operation, state, input sizes); then one line saying what the dumps
//   cannot show and an npkit capture would add. CSV: the rank tables only, a `group` column first.
// - write_fr_hang_json: the members of schema npkit-analyze.hang v1 for this source into the
//   object `w` has open: source "flight_recorder", stalled, cannot_tell, process_groups[] {name,
//   desc, global_ranks, stalled, cannot_tell, seq, operation, input_sizes, input_dtypes,
//   called_from, ranks_missing, ranks_waiting, ranks_without_dump, mismatches, verdict, ranks[]
//   {global_rank, has_dump, last_seq, operation, state}}.
#pragma once

#include <string>

#include "analysis/hang/fr_hang.hpp"
#include "output/json_writer.hpp"
#include "output/render.hpp"

namespace npkit {

// The verdict of one group, a sentence.
std::string fr_group_verdict(const FrGroupHang& g);
void append_fr_hang_text(const FrHangAnalysis& hang, OutputFormat format, std::string& out);
void write_fr_hang_json(const FrHangAnalysis& hang, JsonWriter& w);

}  // namespace npkit
