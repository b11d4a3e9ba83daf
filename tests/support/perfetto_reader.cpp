#include "support/perfetto_reader.hpp"

#include <fmt/format.h>

#include <cstring>
#include <optional>
#include <string_view>

namespace npkit::test {
namespace {

struct Field {
  std::uint32_t number = 0;
  std::uint32_t wire = 0;
  std::uint64_t value = 0;  // varint or fixed64
  std::string_view bytes;   // length-delimited
};

// Iterates the fields of one message.
class Fields {
 public:
  explicit Fields(std::string_view data) : data_(data) {}
  bool next(Field& f, std::string& error) {
    if (pos_ >= data_.size()) return false;
    std::uint64_t key = 0;
    if (!varint(key)) return fail(error, "truncated key");
    f.number = static_cast<std::uint32_t>(key >> 3);
    f.wire = static_cast<std::uint32_t>(key & 7);
    switch (f.wire) {
      case 0:
        if (!varint(f.value)) return fail(error, "truncated varint");
        return true;
      case 1:
        if (data_.size() - pos_ < 8) return fail(error, "truncated fixed64");
        std::memcpy(&f.value, data_.data() + pos_, 8);
        pos_ += 8;
        return true;
      case 2: {
        std::uint64_t len = 0;
        if (!varint(len) || len > data_.size() - pos_) return fail(error, "bad length");
        f.bytes = data_.substr(pos_, len);
        pos_ += len;
        return true;
      }
      case 5:
        if (data_.size() - pos_ < 4) return fail(error, "truncated fixed32");
        pos_ += 4;
        return true;
      default:
        return fail(error, fmt::format("wire type {}", f.wire));
    }
  }

 private:
  bool varint(std::uint64_t& v) {
    v = 0;
    for (int shift = 0; shift < 64 && pos_ < data_.size(); shift += 7) {
      const auto b = static_cast<std::uint8_t>(data_[pos_++]);
      v |= std::uint64_t{b & 0x7Fu} << shift;
      if ((b & 0x80) == 0) return true;
    }
    return false;
  }
  bool fail(std::string& error, const std::string& what) {
    if (error.empty()) error = fmt::format("offset {}: {}", pos_, what);
    pos_ = data_.size();
    return false;
  }
  std::string_view data_;
  std::size_t pos_ = 0;
};

struct Open {
  PerfettoSlice slice;
};

struct Sequence {
  bool valid = false;
  std::map<std::uint64_t, std::string> names;       // event names
  std::map<std::uint64_t, std::string> categories;  // event categories
  std::map<std::uint64_t, std::string> arg_names;
  std::optional<std::uint64_t> clock_id;  // of TracePacketDefaults
  std::uint64_t default_track = 0;
  std::map<std::uint64_t, std::uint64_t> incremental_clocks;  // id → last timestamp
};

struct Track {
  std::int64_t pid = 0;
  std::int64_t tid = 0;
  bool counter = false;
  std::string name;  // a counter's
};

class Reader {
 public:
  PerfettoTrace read(std::string_view bytes) {
    Fields trace(bytes);
    Field f;
    while (trace.next(f, out_.error)) {
      if (f.number == 1 && f.wire == 2) packet(f.bytes);
    }
    for (const auto& [track, stack] : open_) {
      if (!stack.empty())
        error(fmt::format("{} slice(s) left open on track {}", stack.size(), track));
    }
    return std::move(out_);
  }

 private:
  void error(const std::string& what) {
    if (out_.error.empty()) out_.error = fmt::format("packet {}: {}", out_.packets, what);
  }

  void packet(std::string_view body) {
    ++out_.packets;
    std::optional<std::uint64_t> timestamp;
    std::optional<std::uint64_t> clock_id;
    std::uint64_t sequence_id = 0;
    std::uint64_t flags = 0;
    std::string_view event, interned, defaults, descriptor, snapshot;
    Fields fields(body);
    Field f;
    while (fields.next(f, out_.error)) {
      switch (f.number) {
        case 8:
          timestamp = f.value;
          break;
        case 58:
          clock_id = f.value;
          break;
        case 10:
          sequence_id = f.value;
          break;
        case 13:
          flags = f.value;
          break;
        case 11:
          event = f.bytes;
          break;
        case 12:
          interned = f.bytes;
          break;
        case 59:
          defaults = f.bytes;
          break;
        case 60:
          descriptor = f.bytes;
          break;
        case 6:
          snapshot = f.bytes;
          break;
        default:
          break;
      }
    }
    if (!descriptor.empty()) track_descriptor(descriptor);
    Sequence& seq = sequences_[sequence_id];
    if (flags & 1) {  // SEQ_INCREMENTAL_STATE_CLEARED
      seq = Sequence{};
      seq.valid = true;
    }
    if (!interned.empty()) interned_data(seq, interned);
    if (!defaults.empty()) packet_defaults(seq, defaults);
    if (!snapshot.empty()) clock_snapshot(seq, snapshot);
    if (event.empty()) return;
    // As Perfetto's trace processor: a packet uses its sequence's state whether or not it sets
    // SEQ_NEEDS_INCREMENTAL_STATE (2); the state must have been cleared (1) first.
    if (!seq.valid) return error("track event without incremental state");
    if (!timestamp) return error("track event without timestamp");
    const std::uint64_t clock = clock_id.value_or(seq.clock_id.value_or(6));
    std::uint64_t ts = *timestamp;
    if (auto it = seq.incremental_clocks.find(clock); it != seq.incremental_clocks.end()) {
      it->second += ts;
      ts = it->second;
    } else if (clock >= 64) {
      return error(fmt::format("clock {} never defined on sequence {}", clock, sequence_id));
    }
    track_event(seq, event, ts);
  }

  void track_descriptor(std::string_view body) {
    std::uint64_t uuid = 0;
    std::optional<std::uint64_t> parent;
    std::string_view process, thread, track_name;
    bool counter = false;
    Fields fields(body);
    Field f;
    while (fields.next(f, out_.error)) {
      if (f.number == 1) uuid = f.value;
      if (f.number == 2) track_name = f.bytes;
      if (f.number == 3) process = f.bytes;
      if (f.number == 4) thread = f.bytes;
      if (f.number == 5) parent = f.value;
      if (f.number == 8) counter = true;
    }
    Track t;
    if (counter) {
      const auto p = parent ? tracks_.find(*parent) : tracks_.end();
      if (p == tracks_.end() || p->second.counter) {
        return error(fmt::format("counter track {} not under a described process", uuid));
      }
      t.pid = p->second.pid;
      t.counter = true;
      t.name = track_name;
      tracks_[uuid] = t;
      return;
    }
    std::string name;
    const bool is_thread = !thread.empty();
    Fields d(is_thread ? thread : process);
    while (d.next(f, out_.error)) {
      if (f.number == 1) t.pid = static_cast<std::int64_t>(f.value);
      if (is_thread && f.number == 2) t.tid = static_cast<std::int64_t>(f.value);
      if ((is_thread && f.number == 5) || (!is_thread && f.number == 6)) name = f.bytes;
    }
    if (process.empty() && thread.empty()) return;  // e.g. the root track's ordering
    tracks_[uuid] = t;
    if (is_thread) {
      out_.thread_names[{t.pid, t.tid}] = name;
    } else {
      out_.process_names[t.pid] = name;
    }
  }

  void interned_data(Sequence& seq, std::string_view body) {
    Fields fields(body);
    Field f;
    while (fields.next(f, out_.error)) {
      std::map<std::uint64_t, std::string>* table = f.number == 1   ? &seq.categories
                                                    : f.number == 2 ? &seq.names
                                                    : f.number == 3 ? &seq.arg_names
                                                                    : nullptr;
      if (table == nullptr) continue;
      std::uint64_t iid = 0;
      std::string name;
      Fields entry(f.bytes);
      Field e;
      while (entry.next(e, out_.error)) {
        if (e.number == 1) iid = e.value;
        if (e.number == 2) name = e.bytes;
      }
      (*table)[iid] = name;
    }
  }

  void packet_defaults(Sequence& seq, std::string_view body) {
    Fields fields(body);
    Field f;
    while (fields.next(f, out_.error)) {
      if (f.number == 58) seq.clock_id = f.value;
      if (f.number != 11) continue;
      Fields te(f.bytes);
      Field e;
      while (te.next(e, out_.error)) {
        if (e.number == 11) seq.default_track = e.value;
      }
    }
  }

  void clock_snapshot(Sequence& seq, std::string_view body) {
    Fields fields(body);
    Field f;
    while (fields.next(f, out_.error)) {
      if (f.number == 2) out_.primary_clock = f.value;
      if (f.number != 1) continue;
      std::uint64_t id = 0, ts = 0;
      bool incremental = false;
      Fields c(f.bytes);
      Field e;
      while (c.next(e, out_.error)) {
        if (e.number == 1) id = e.value;
        if (e.number == 2) ts = e.value;
        if (e.number == 3) incremental = e.value != 0;
      }
      if (incremental) {
        seq.incremental_clocks[id] = ts;
      } else {
        out_.snapshot_clocks.insert(id);
      }
    }
  }

  std::string lookup(const std::map<std::uint64_t, std::string>& table, std::uint64_t iid,
                     const char* what) {
    auto it = table.find(iid);
    if (it == table.end()) {
      error(fmt::format("{} iid {} not interned", what, iid));
      return "";
    }
    return it->second;
  }

  std::string annotation_value(const Field& f) {
    switch (f.number) {
      case 3:
        return std::to_string(f.value);
      case 4:
        return std::to_string(static_cast<std::int64_t>(f.value));
      case 5: {
        double d = 0;
        std::memcpy(&d, &f.value, 8);
        return fmt::format("{:.3f}", d);
      }
      case 6:
        return std::string(f.bytes);
      default:
        return "";
    }
  }

  void track_event(Sequence& seq, std::string_view body, std::uint64_t ts) {
    std::uint64_t type = 0, track = seq.default_track;
    std::optional<double> counter_value;
    PerfettoSlice s;
    Fields fields(body);
    Field f;
    while (fields.next(f, out_.error)) {
      switch (f.number) {
        case 9:
          type = f.value;
          break;
        case 11:
          track = f.value;
          break;
        case 10:
          s.name = lookup(seq.names, f.value, "event name");
          break;
        case 23:
          s.name = f.bytes;
          break;
        case 30:
          counter_value = static_cast<double>(static_cast<std::int64_t>(f.value));
          break;
        case 44: {
          double d = 0;
          std::memcpy(&d, &f.value, 8);
          counter_value = d;
          break;
        }
        case 3:
          s.category = lookup(seq.categories, f.value, "category");
          break;
        case 22:
          s.category = f.bytes;
          break;
        case 4: {
          std::string key, value;
          std::vector<std::string> array;
          Fields a(f.bytes);
          Field e;
          while (a.next(e, out_.error)) {
            if (e.number == 1) key = lookup(seq.arg_names, e.value, "annotation name");
            if (e.number == 10) key = e.bytes;
            if (e.number >= 3 && e.number <= 6) value = annotation_value(e);
            if (e.number == 12) {
              Fields item(e.bytes);
              Field v;
              while (item.next(v, out_.error)) {
                if (v.number >= 3 && v.number <= 6) array.push_back(annotation_value(v));
              }
            }
          }
          if (!array.empty()) {
            value = "[";
            for (std::size_t i = 0; i < array.size(); ++i) value += (i ? "," : "") + array[i];
            value += "]";
          }
          s.args[key] = value;
          break;
        }
        default:
          break;
      }
    }
    auto t = tracks_.find(track);
    if (t == tracks_.end()) return error(fmt::format("event on undescribed track {}", track));
    if (t->second.counter != (type == 4)) {
      return error(fmt::format("event type {} on track {}", type, track));
    }
    if (type == 4) {
      if (!counter_value) return error("counter event without a value");
      out_.counters.push_back({t->second.pid, t->second.name, ts, *counter_value});
      return;
    }
    s.pid = t->second.pid;
    s.tid = t->second.tid;
    auto& stack = open_[track];
    if (type == 1) {
      s.start_ns = ts;
      stack.push_back(Open{s});
    } else if (type == 2) {
      if (stack.empty()) return error("SLICE_END without SLICE_BEGIN");
      PerfettoSlice done = std::move(stack.back().slice);
      stack.pop_back();
      if (ts < done.start_ns) return error("slice ends before it begins");
      done.end_ns = ts;
      out_.slices.push_back(std::move(done));
    } else if (type == 3) {
      s.instant = true;
      s.start_ns = s.end_ns = ts;
      out_.slices.push_back(std::move(s));
    } else {
      error(fmt::format("event type {}", type));
    }
  }

  PerfettoTrace out_;
  std::map<std::uint64_t, Sequence> sequences_;
  std::map<std::uint64_t, Track> tracks_;
  std::map<std::uint64_t, std::vector<Open>> open_;
};

}  // namespace

PerfettoTrace read_perfetto_trace(const std::string& bytes) {
  return Reader().read(bytes);
}

}  // namespace npkit::test
