// device_recorder/dump_event_names.hpp — the EventNames section of an event dump: what every id
// in the file is called.
//
// Contract: event_names_for_dump() returns, by ascending id, every entry of `table` (may be null)
// and, for each other id that occurs in `streams`' records, NPKit's NCCL name and phase hint
// (npkit/events.hpp) or, for an id named nowhere, the instant "UNNAMED_0x<id as 4 hex digits>"
// with no phase; *unnamed (may be null) gets how many ids were named that way.
#pragma once

#include <cstdint>
#include <vector>

#include "npkit/host.hpp"
#include "recorder/dump_writer.hpp"

namespace npkit::capture {

std::vector<EventName> event_names_for_dump(const EventNameTable* table,
                                            const std::vector<const CapturedStream*>& streams,
                                            uint32_t* unnamed);

}  // namespace npkit::capture
