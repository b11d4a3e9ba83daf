// EventNameSet: pairing bases shared across files by name, phase hints, and the warnings for
// names that do not follow the _ENTRY / _EXIT convention or disagree on a hint.
#include "import/npkt/event_names.hpp"

#include <catch2/catch.hpp>

using npkit::EventKind;
using npkit::EventNameSet;
using npkit::NpktDump;
using npkit::NpktEventName;
namespace format = npkit::format;

namespace {

NpktDump names(const std::string& path, std::vector<NpktEventName> list) {
  NpktDump d;
  d.path = path;
  d.event_names = std::move(list);
  return d;
}

}  // namespace

TEST_CASE("event names: bases by name, not by id", "[model][events]") {
  npkit::Diagnostics diag;
  EventNameSet set;
  const NpktDump a = names("a.npkt", {{0x1000, format::kEventEntry, "RS_ENTRY", "reduce_scatter"},
                                      {0x1001, format::kEventExit, "RS_EXIT", "reduce_scatter"},
                                      {0x1200, format::kEventInstant, "MARK", ""}});
  // The second file numbers the same events differently.
  const NpktDump b = names("b.npkt", {{0x2001, format::kEventExit, "RS_EXIT", ""},
                                      {0x2000, format::kEventEntry, "RS_ENTRY", ""},
                                      {0x2002, format::kEventEntry, "AG_ENTRY", "all_gather"}});
  const std::size_t fa = set.add_file(a, diag);
  const std::size_t fb = set.add_file(b, diag);
  CHECK(diag.warnings().empty());
  CHECK(set.base_names() == std::vector<std::string>{"RS", "MARK", "AG"});
  CHECK(set.hints() == std::vector<std::string>{"reduce_scatter", "", "all_gather"});
  REQUIRE(set.find(fa, 0x1000) != nullptr);
  CHECK(set.find(fa, 0x1000)->base == 0);
  CHECK(set.find(fa, 0x1000)->kind == EventKind::kEntry);
  CHECK(set.find(fa, 0x1001)->kind == EventKind::kExit);
  CHECK(set.find(fa, 0x1200)->kind == EventKind::kInstant);
  CHECK(set.find(fa, 0x1200)->base == 1);
  CHECK(set.find(fa, 0x2000) == nullptr);  // named in b only
  CHECK(set.find(fb, 0x2000)->base == 0);
  CHECK(set.find(fb, 0x2001)->base == 0);
  CHECK(set.find(fb, 0x2002)->base == 2);
  CHECK(set.full_name(fb, 0x2001) == "RS_EXIT");
  CHECK(set.full_name(fb, 0x1234) == "UNNAMED_0x1234");
  CHECK(npkit::event_id_hex(0x0A) == "0x000A");
}

TEST_CASE("event names: suffixes and conflicting hints are warnings", "[model][events]") {
  npkit::Diagnostics diag;
  EventNameSet set;
  const NpktDump a = names("a.npkt", {{1, format::kEventEntry, "BEGIN", ""},
                                      {2, format::kEventExit, "X_EXIT", "sync"},
                                      {3, format::kEventEntry, "X_ENTRY", "wait"}});
  set.add_file(a, diag);
  CHECK(set.base_names() == std::vector<std::string>{"BEGIN", "X"});
  CHECK(set.hints() == std::vector<std::string>{"", "sync"});
  REQUIRE(diag.warnings().size() == 2);
  CHECK(diag.warnings()[0].category == "event name suffix");
  CHECK(diag.warnings()[0].examples.front() ==
        "a.npkt: id 0x0001 is an ENTRY named \"BEGIN\" (no _ENTRY suffix); it pairs under its "
        "whole name");
  CHECK(diag.warnings()[1].category == "phase hint conflict");
  CHECK(diag.warnings()[1].examples.front() ==
        "a.npkt: X_ENTRY carries the phase hint \"wait\", but \"sync\" was given for X first; "
        "\"sync\" is used");
  CHECK(set.full_name(0, 1) == "BEGIN");
}
