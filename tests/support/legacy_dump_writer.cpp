#include "support/legacy_dump_writer.hpp"

#include <charconv>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace npkit::test {
namespace {

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t\r\n");
  return s.substr(first, last - first + 1);
}

std::vector<std::string> split_words(std::string_view s) {
  std::istringstream in{std::string(s)};
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

[[noreturn]] void fail(std::size_t line_no, const std::string& what) {
  throw std::invalid_argument("legacy dump spec line " + std::to_string(line_no) + ": " + what);
}

// Decimal or 0x-hex, at most `max`.
std::uint64_t number(std::string_view text, std::uint64_t max, std::size_t line_no) {
  int base = 10;
  std::string_view digits = text;
  if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
    base = 16;
    digits.remove_prefix(2);
  }
  std::uint64_t value = 0;
  const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value, base);
  if (digits.empty() || ec != std::errc() || ptr != digits.data() + digits.size() || value > max) {
    fail(line_no, "'" + std::string(text) + "' is not a number in 0.." + std::to_string(max));
  }
  return value;
}

RecordSpec parse_record(std::string_view text, std::size_t line_no) {
  const auto words = split_words(text);
  if (words.empty()) fail(line_no, "empty record between '|'");
  RecordSpec r;
  r.id = static_cast<std::uint8_t>(number(words[0], 0xFF, line_no));
  for (std::size_t i = 1; i < words.size(); ++i) {
    const auto eq = words[i].find('=');
    if (eq == std::string::npos) fail(line_no, "expected key=value, got '" + words[i] + "'");
    const std::string key = words[i].substr(0, eq);
    const std::string_view value = std::string_view(words[i]).substr(eq + 1);
    if (key == "size") {
      r.size = static_cast<std::uint32_t>(number(value, 0xFFFFFFFFu, line_no));
    } else if (key == "rsvd") {
      r.rsvd = static_cast<std::uint32_t>(number(value, 0xFFFFFFu, line_no));
    } else if (key == "ts") {
      r.ts = number(value, UINT64_MAX, line_no);
    } else if (key == "from") {
      r.sender = static_cast<std::uint8_t>(number(value, 0xFF, line_no));
    } else if (key == "to") {
      r.receiver = static_cast<std::uint8_t>(number(value, 0xFF, line_no));
    } else if (key == "step") {
      r.step = static_cast<std::uint32_t>(number(value, 0xFFFFFFFFu, line_no));
    } else {
      fail(line_no, "unknown record field '" + key + "'");
    }
  }
  return r;
}

void parse_records(std::string_view body, TrackSpec& track, std::size_t line_no) {
  if (trim(body).empty()) return;
  std::size_t start = 0;
  while (true) {
    const auto bar = body.find('|', start);
    track.records.push_back(parse_record(body.substr(start, bar - start), line_no));
    if (bar == std::string_view::npos) break;
    start = bar + 1;
  }
}

void parse_tail(std::string_view body, TrackSpec& track, std::size_t line_no) {
  for (const auto& w : split_words(body)) {
    track.tail.push_back(static_cast<char>(number("0x" + w, 0xFF, line_no)));
  }
}

void parse_clock(const std::vector<std::string>& words, ClockSpec& clock, std::size_t line_no) {
  for (std::size_t i = 3; i < words.size(); ++i) {
    const auto eq = words[i].find('=');
    if (eq == std::string::npos) fail(line_no, "expected key=value, got '" + words[i] + "'");
    const std::string key = words[i].substr(0, eq);
    std::string value = words[i].substr(eq + 1);
    if (key == "cpu_num") {
      clock.cpu_num = value;
    } else if (key == "cpu_den") {
      clock.cpu_den = value;
    } else if (key == "gpu_khz") {
      clock.gpu_khz = value;
    } else {
      fail(line_no, "unknown clock key '" + key + "'");
    }
  }
}

void parse_rank_line(LegacyDumpSpec& spec, const std::vector<std::string>& words,
                     std::string_view body, bool has_body, std::size_t line_no) {
  if (words.size() < 3) fail(line_no, "expected 'rank R clock ...' or 'rank R gpu|cpu I: ...'");
  const auto rank = static_cast<std::uint32_t>(number(words[1], 0xFFFFFFu, line_no));
  if (words[2] == "clock") {
    if (has_body) fail(line_no, "a clock line has no ':'");
    parse_clock(words, spec.clock(rank), line_no);
    return;
  }
  if ((words[2] != "gpu" && words[2] != "cpu") || words.size() < 4 || words.size() > 5 ||
      !has_body || (words.size() == 5 && words[4] != "tail")) {
    fail(line_no, "expected 'rank R gpu|cpu I[ tail]: ...'");
  }
  const auto index = static_cast<std::uint32_t>(number(words[3], 0xFFFFFFu, line_no));
  TrackSpec& track = words[2] == "gpu" ? spec.gpu_track(rank, index) : spec.cpu_track(rank, index);
  if (words.size() == 5) {
    parse_tail(body, track, line_no);
  } else {
    parse_records(body, track, line_no);
  }
}

void put_le(std::string& out, std::uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
}

void write_bytes(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

TrackSpec& find_or_add(std::vector<TrackSpec>& tracks, std::uint32_t rank, std::uint32_t index) {
  for (auto& t : tracks) {
    if (t.rank == rank && t.index == index) return t;
  }
  tracks.push_back(TrackSpec{rank, index, {}, {}});
  return tracks.back();
}

}  // namespace

TrackSpec& LegacyDumpSpec::gpu_track(std::uint32_t rank, std::uint32_t index) {
  return find_or_add(gpu, rank, index);
}

TrackSpec& LegacyDumpSpec::cpu_track(std::uint32_t rank, std::uint32_t index) {
  return find_or_add(cpu, rank, index);
}

ClockSpec& LegacyDumpSpec::clock(std::uint32_t rank) {
  for (auto& c : clocks) {
    if (c.rank == rank) return c;
  }
  clocks.push_back(ClockSpec{rank, {}, {}, {}});
  return clocks.back();
}

LegacyDumpSpec parse_legacy_dump_spec(std::string_view text) {
  LegacyDumpSpec spec;
  std::istringstream in{std::string(text)};
  std::string raw;
  std::size_t line_no = 0;
  while (std::getline(in, raw)) {
    ++line_no;
    std::string_view line = raw;
    if (const auto hash = line.find('#'); hash != std::string_view::npos)
      line = line.substr(0, hash);
    line = trim(line);
    if (line.empty()) continue;
    const auto colon = line.find(':');
    const bool has_body = colon != std::string_view::npos;
    const std::string_view head = has_body ? line.substr(0, colon) : line;
    const std::string_view body = has_body ? line.substr(colon + 1) : std::string_view{};
    const auto words = split_words(head);
    if (words[0] == "file") {
      if (words.size() != 2 || !has_body) fail(line_no, "expected 'file NAME: TEXT'");
      spec.extra_files.emplace_back(words[1], std::string(trim(body)));
    } else if (words[0] == "naming" && words.size() == 2 && !has_body) {
      if (words[1] != "buf" && words[1] != "channel") fail(line_no, "naming is buf or channel");
      spec.naming = words[1] == "buf" ? GpuNaming::kBuf : GpuNaming::kChannel;
    } else if (words[0] == "cpu_record_size" && words.size() == 2 && !has_body) {
      spec.cpu_record_size = static_cast<unsigned>(number(words[1], 22, line_no));
      if (spec.cpu_record_size != 16 && spec.cpu_record_size != 18 && spec.cpu_record_size != 22) {
        fail(line_no, "cpu_record_size is 16, 18 or 22");
      }
    } else if (words[0] == "rank") {
      parse_rank_line(spec, words, body, has_body, line_no);
    } else {
      fail(line_no, "unknown statement '" + std::string(line) + "'");
    }
  }
  return spec;
}

std::string encode_record(const RecordSpec& r, unsigned record_size) {
  if (record_size != 16 && record_size != 18 && record_size != 22) {
    throw std::invalid_argument("record size " + std::to_string(record_size));
  }
  std::string out;
  put_le(out, r.id, 1);
  put_le(out, r.size, 4);
  put_le(out, r.rsvd & 0xFFFFFFu, 3);
  put_le(out, r.ts, 8);
  if (record_size >= 18) {
    put_le(out, r.sender, 1);
    put_le(out, r.receiver, 1);
  }
  if (record_size == 22) put_le(out, r.step, 4);
  return out;
}

std::string gpu_file_name(GpuNaming naming, std::uint32_t rank, std::uint32_t index) {
  return "gpu_events_rank_" + std::to_string(rank) +
         (naming == GpuNaming::kBuf ? "_buf_" : "_channel_") + std::to_string(index);
}

std::string cpu_file_name(std::uint32_t rank, std::uint32_t channel) {
  return "cpu_events_rank_" + std::to_string(rank) + "_channel_" + std::to_string(channel);
}

void write_legacy_dump(const LegacyDumpSpec& spec, const std::string& dir) {
  const std::filesystem::path root(dir);
  std::filesystem::create_directories(root);
  const auto write_track = [&](const TrackSpec& t, const std::string& name, unsigned size) {
    std::string bytes;
    for (const auto& r : t.records) bytes += encode_record(r, size);
    write_bytes(root / name, bytes + t.tail);
  };
  for (const auto& t : spec.gpu) write_track(t, gpu_file_name(spec.naming, t.rank, t.index), 16);
  for (const auto& t : spec.cpu) {
    write_track(t, cpu_file_name(t.rank, t.index), spec.cpu_record_size);
  }
  for (const auto& c : spec.clocks) {
    const std::string r = std::to_string(c.rank);
    if (c.cpu_num) write_bytes(root / ("cpu_clock_period_num_rank_" + r), *c.cpu_num);
    if (c.cpu_den) write_bytes(root / ("cpu_clock_period_den_rank_" + r), *c.cpu_den);
    if (c.gpu_khz) write_bytes(root / ("gpu_clock_rate_rank_" + r), *c.gpu_khz);
  }
  for (const auto& [name, content] : spec.extra_files) write_bytes(root / name, content);
}

std::string write_legacy_dump(const TempDir& tmp, const LegacyDumpSpec& spec,
                              std::string_view subdir) {
  const std::string dir = tmp.file(subdir);
  write_legacy_dump(spec, dir);
  return dir;
}

std::string write_legacy_dump(const TempDir& tmp, std::string_view spec_text,
                              std::string_view subdir) {
  return write_legacy_dump(tmp, parse_legacy_dump_spec(spec_text), subdir);
}

}  // namespace npkit::test
