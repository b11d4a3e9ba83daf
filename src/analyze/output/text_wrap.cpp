#include "output/text_wrap.hpp"

namespace npkit {

std::size_t text_columns(std::string_view s) {
  std::size_t n = 0;
  for (const char c : s) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
  }
  return n;
}

namespace {

// A place where a line may break without a space (written by breakable, never shown).
constexpr char kBreak = '\x01';
constexpr char kSeparators[] = {' ', kBreak, '\0'};

void wrap_line(std::string_view line, std::size_t width, std::size_t indent, std::string& out) {
  std::size_t used = 0;
  std::size_t pos = 0;
  bool line_start = true;  // nothing but the indent on the current output line
  while (pos < line.size()) {
    // A run of spaces (or one zero-width break), then a word; the run is kept as it is unless
    // the word breaks the line.
    std::size_t word = pos;
    while (word < line.size() && line[word] == ' ') ++word;
    std::size_t gap = word - pos;
    if (gap == 0 && word < line.size() && line[word] == kBreak) ++word;
    std::size_t end = line.find_first_of(kSeparators, word);
    if (end == std::string_view::npos) end = line.size();
    const std::size_t w = text_columns(line.substr(word, end - word));
    if (!line_start && used + gap + w > width) {
      out += '\n';
      out.append(indent, ' ');
      used = indent;
    } else {
      out.append(gap, ' ');
      used += gap;
    }
    out += line.substr(word, end - word);
    used += w;
    line_start = false;
    pos = end;
  }
}

// A word longer than a line that lists values ("a|b|c") may break after each '|'.
std::string breakable(std::string_view line, std::size_t longest) {
  std::string out;
  std::size_t pos = 0;
  while (pos < line.size()) {
    std::size_t end = line.find(' ', pos);
    if (end == std::string_view::npos) end = line.size();
    const std::string_view word = line.substr(pos, end - pos);
    if (text_columns(word) > longest) {
      for (std::size_t i = 0; i < word.size(); ++i) {
        out += word[i];
        if (word[i] == '|' && i + 1 < word.size()) out += kBreak;
      }
    } else {
      out += word;
    }
    if (end < line.size()) out += ' ';
    pos = end + 1;
  }
  return out;
}

}  // namespace

std::string wrap_text(std::string_view text, std::size_t width, std::size_t indent) {
  std::string out;
  std::size_t start = 0;
  while (true) {
    const std::size_t nl = text.find('\n', start);
    const std::string_view line =
        text.substr(start, nl == std::string_view::npos ? nl : nl - start);
    if (text_columns(line) > width) {
      wrap_line(breakable(line, width > indent ? width - indent : 1), width, indent, out);
    } else {
      wrap_line(line, width, indent, out);
    }
    if (nl == std::string_view::npos) break;
    out += '\n';
    start = nl + 1;
  }
  return out;
}

}  // namespace npkit
