// output/hang_output.hpp — "where it stopped" (analysis/hang/stall.hpp) as text, CSV, Markdown
// and JSON, for `hang` and for `report` when a capture ends with work in flight.
// Contract:
// - hang_rank_table: the rank table of one communicator (for the HTML report too).
// - append_hang_text: per judged communicator a heading line (its size, "k of n ranks with data"
//   where ranks lack data; STALLED at <label>, "cannot tell" or "nothing stuck"), its verdict,
//   and a table of its ranks (state, last completed operation — "last enqueued" without kernel
//   events —, how long before the end of the rank's capture it entered that state, detail). CSV:
//   the rank tables only, a `comm` column first.
// - write_hang_json: the object members of schema npkit-analyze.hang v1 into the object `w` has
//   open (docs/cli.md, "hang"): stalled, cannot_tell, communicators[] {comm, nranks, stalled,
//   cannot_tell, ranks_without_data, completion_known, completion_unknown, func, seq, label,
//   ranks_missing, ranks_in_flight, ranks_completed, last_completed, typical_ns, alignment,
//   verdict, ranks[] {rank, state, detail, other, last_completed, since_ns, since_aligned_ns,
//   before_end_ns}}; unknown times are left out.
#pragma once

#include <string>

#include "analysis/hang/stall.hpp"
#include "output/json_writer.hpp"
#include "output/render.hpp"
#include "output/text_table.hpp"

namespace npkit {

void append_hang_text(const HangAnalysis& hang, OutputFormat format, std::string& out);
// One communicator's ranks: rank, state, last completed, since (before end), detail.
TextTable hang_rank_table(const CommunicatorStall& stall);
void write_hang_json(const HangAnalysis& hang, JsonWriter& w);

}  // namespace npkit
