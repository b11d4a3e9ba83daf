// import/npkt/event_names.hpp — the names of .npkt event records (EventNames sections) of several
// files, merged into one set of pairing bases so that phases mean the same on every rank. Contract:
// - A name's base: an ENTRY name without its "_ENTRY" suffix, an EXIT name without "_EXIT", an
//   instant's whole name. "<X>_ENTRY" and "<X>_EXIT" share the base "<X>" and pair by it (never
//   by id). Bases are numbered in order of first appearance over the files added, so the same
//   name has the same base in every file whatever ids the files use.
// - Each base keeps one phase hint: the first non-empty hint given for it. A base given two
//   different non-empty hints (by its ENTRY and EXIT, or by two files) keeps the first, and the
//   conflict is a "phase hint conflict" warning; an ENTRY or EXIT name without its suffix is an
//   "event name suffix" warning (it pairs under its whole name).
// - find(file, id) returns the id's base and kind in that file, or nullptr for an id the file
//   does not name.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "import/npkt/npkt_dump.hpp"
#include "run/event_table.hpp"
#include "util/diagnostics.hpp"

namespace npkit {

struct EventIdName {
  std::uint16_t id = 0;
  std::string name;        // as the file names it
  std::uint16_t base = 0;  // index into EventNameSet::base_names()
  EventKind kind = EventKind::kInstant;
};

class EventNameSet {
 public:
  // Adds the names of `dump`; returns the file's index for find().
  std::size_t add_file(const NpktDump& dump, Diagnostics& diagnostics);

  const EventIdName* find(std::size_t file, std::uint16_t id) const;
  const std::vector<std::string>& base_names() const { return bases_; }
  const std::vector<std::string>& hints() const { return hints_; }  // parallel to base_names()
  // The name of `id` in `file` ("UNNAMED_0x1234" when the file does not name it).
  std::string full_name(std::size_t file, std::uint16_t id) const;

 private:
  std::uint16_t intern(const std::string& base);

  std::vector<std::string> bases_;
  std::vector<std::string> hints_;
  std::vector<std::vector<EventIdName>> files_;  // per file, sorted by id
};

// "0x1234".
std::string event_id_hex(std::uint16_t id);

}  // namespace npkit
