#include "recorder/clock_note.hpp"

namespace npkit::capture {

std::string clock_note_text(const std::vector<ClockNote>& notes) {
  std::string text;
  for (size_t i = 0; i < notes.size(); ++i) {
    const bool shares_next = i + 1 < notes.size() && notes[i + 1].why == notes[i].why;
    text += notes[i].what;
    if (shares_next) {
      text += ", ";
      continue;
    }
    text += ": " + notes[i].why;
    if (i + 1 < notes.size()) text += "; ";
  }
  return text;
}

}  // namespace npkit::capture
