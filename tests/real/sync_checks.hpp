// sync_checks.hpp — the real tests' check of a report's cross-rank block against plain::sync
// (support/npkt_plain.hpp), shared by the plugin captures' report (per communicator) and the
// device capture's event records (event_phases.cross_rank).
// Contract: check_sync(holder, s) CHECKs holder's alignment (same-host violations), join_gaps
// (none) and sync (instances compared; per collective: instances, spread median and max, true
// duration median, wait; per rank: instances, arrivals last, skew median and max, wait, busy,
// wait share, margin median and max; the straggler order), times within 2 ns per instance of the
// plain recount (each side rounds converted timestamps on its own).
#pragma once

#include <simdjson.h>

#include "support/npkt_plain.hpp"

namespace npkit::test {

void check_sync(simdjson::dom::element holder, const plain::Sync& s);

}  // namespace npkit::test
