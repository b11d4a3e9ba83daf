// recorder/clock_note.hpp — the "clock.note" metadata text: what GPU/clock information a dump
// lacks and why.
//
// Contract: clock_note_text() joins the notes in order as "<what>: <why>" separated by "; ",
// except that consecutive notes with the same reason share it: {A, r}, {B, r}, {C, s} gives
// "A, B: r; C: s". No notes gives "".
#pragma once

#include <string>
#include <vector>

namespace npkit::capture {

struct ClockNote {
  std::string what;  // e.g. "no clock sample at init"
  std::string why;   // e.g. "libcuda.so.1 not loadable: ..."
};

std::string clock_note_text(const std::vector<ClockNote>& notes);

}  // namespace npkit::capture
