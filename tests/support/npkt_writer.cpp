#include "support/npkt_writer.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <stdexcept>

namespace npkit::test {
namespace {

constexpr std::size_t kFileHeaderSize = 64;
constexpr std::uint32_t kEndianMarker = 0x01020304u;
constexpr std::uint8_t kFillerByte = 0xA5;  // bytes of entries beyond the known size

// Known entry sizes of the fixed-entry sections; 0 for variable-size sections.
std::uint32_t known_entry_size(std::uint32_t kind) {
  switch (kind) {
    case NpktBuilder::kCommunicator:
      return 136;
    case NpktBuilder::kClockSamples:
      return 32;
    case NpktBuilder::kThreads:
      return 24;
    case NpktBuilder::kProfilerRecords:
      return 64;
    case NpktBuilder::kStreams:
      return 72;
    case NpktBuilder::kEventRecords:
      return 24;
    default:
      return 0;
  }
}

// Appends integers of a given width in the file's byte order.
class Encoder {
 public:
  explicit Encoder(bool big_endian) : big_endian_(big_endian) {}

  Encoder& u(std::uint64_t value, std::size_t size) {
    for (std::size_t i = 0; i < size; ++i) {
      const std::size_t shift = 8 * (big_endian_ ? size - 1 - i : i);
      out_.push_back(static_cast<char>((value >> shift) & 0xFF));
    }
    return *this;
  }
  Encoder& u8(std::uint64_t v) { return u(v, 1); }
  Encoder& u16(std::uint64_t v) { return u(v, 2); }
  Encoder& u32(std::uint64_t v) { return u(v, 4); }
  Encoder& u64(std::uint64_t v) { return u(v, 8); }
  Encoder& i32(std::int32_t v) { return u(static_cast<std::uint32_t>(v), 4); }
  Encoder& i64(std::int64_t v) { return u(static_cast<std::uint64_t>(v), 8); }
  Encoder& text(const std::string& s) {
    out_ += s;
    return *this;
  }
  Encoder& zeros(std::size_t n) {
    out_.append(n, '\0');
    return *this;
  }
  std::string take() { return std::move(out_); }

 private:
  bool big_endian_;
  std::string out_;
};

}  // namespace

const std::vector<std::string>& standard_event_type_names() {
  static const std::vector<std::string> kNames = {
      "Group",    "Coll",      "P2p",      "ProxyOp", "ProxyStep", "ProxyCtrl",
      "KernelCh", "NetPlugin", "GroupApi", "CollApi", "P2pApi",    "KernelLaunch"};
  return kNames;
}

const std::vector<std::string>& standard_state_names() {
  static const std::vector<std::string> kNames = {
      "ProxyOpSendPosted",      "ProxyOpSendRemFifoWait", "ProxyOpSendTransmitted",
      "ProxyOpSendDone",        "ProxyOpRecvPosted",      "ProxyOpRecvReceived",
      "ProxyOpRecvTransmitted", "ProxyOpRecvDone",        "ProxyStepSendGPUWait",
      "ProxyStepSendWait",      "ProxyStepRecvWait",      "ProxyStepRecvFlushWait",
      "ProxyStepRecvGPUWait",   "ProxyCtrlIdle",          "ProxyCtrlActive",
      "ProxyCtrlSleep",         "ProxyCtrlWakeup",        "ProxyCtrlAppend",
      "ProxyCtrlAppendEnd",     "ProxyOpInProgress",      "ProxyStepSendPeerWait",
      "NetPluginUpdate",        "KernelChStop",           "GroupStartApiStop",
      "GroupEndApiStart"};
  return kNames;
}

// ---- Payload ----

void Payload::put(std::size_t offset, std::uint64_t value, std::size_t size) {
  for (std::size_t i = 0; i < size; ++i) {
    bytes_[offset + i] = static_cast<std::uint8_t>((value >> (8 * i)) & 0xFF);
  }
}

Payload::Payload(const GroupApiStart& p) {
  put(0, static_cast<std::uint32_t>(p.group_depth), 4);
  put(4, p.graph_captured, 1);
}

Payload::Payload(const CollApiStart& p) {
  put(0, p.count, 8);
  put(8, p.stream, 8);
  put(16, static_cast<std::uint32_t>(p.root), 4);
  put(20, p.func, 2);
  put(22, p.datatype, 2);
  put(24, p.graph_captured, 1);
}

Payload::Payload(const P2pApiStart& p) {
  put(0, p.count, 8);
  put(8, p.stream, 8);
  put(16, p.func, 2);
  put(18, p.datatype, 2);
  put(20, p.graph_captured, 1);
}

Payload::Payload(const KernelLaunchStart& p) {
  put(0, p.stream, 8);
}

Payload::Payload(const CollStart& p) {
  put(0, p.seq, 8);
  put(8, p.count, 8);
  put(16, static_cast<std::uint32_t>(p.root), 4);
  put(20, p.func, 2);
  put(22, p.datatype, 2);
  put(24, p.algo, 2);
  put(26, p.proto, 2);
  put(28, p.n_channels, 1);
  put(29, p.n_warps, 1);
}

Payload::Payload(const P2pStart& p) {
  put(0, p.count, 8);
  put(8, static_cast<std::uint32_t>(p.peer), 4);
  put(12, p.func, 2);
  put(14, p.datatype, 2);
  put(16, p.n_channels, 1);
}

Payload::Payload(const ProxyOpStart& p) {
  put(0, static_cast<std::uint32_t>(p.pid), 4);
  put(4, static_cast<std::uint32_t>(p.peer), 4);
  put(8, static_cast<std::uint32_t>(p.n_steps), 4);
  put(12, static_cast<std::uint32_t>(p.chunk_size), 4);
  put(16, static_cast<std::uint32_t>(p.rank), 4);
  put(20, p.channel, 1);
  put(21, p.is_send, 1);
}

Payload::Payload(const ProxyStepStart& p) {
  put(0, static_cast<std::uint32_t>(p.step), 4);
  put(4, static_cast<std::uint32_t>(p.rank), 4);
}

Payload::Payload(const KernelChStart& p) {
  put(0, p.gpu_start_ns, 8);
  put(8, p.channel, 1);
}

Payload::Payload(const NetPluginStart& p) {
  put(0, static_cast<std::uint64_t>(p.plugin_id), 8);
}

Payload::Payload(const CeCollStart& p) {
  put(0, p.seq, 8);
  put(8, p.count, 8);
  put(16, static_cast<std::uint32_t>(p.root), 4);
  put(20, p.func, 2);
  put(22, p.datatype, 2);
  put(24, p.sync_strategy, 2);
  put(26, p.intra_batch_sync, 1);
  put(28, p.ce_seq, 4);
}

Payload::Payload(const CeSyncStart& p) {
  put(0, static_cast<std::uint32_t>(p.n_ranks), 4);
  put(4, p.is_complete, 1);
}

Payload::Payload(const CeBatchStart& p) {
  put(0, p.total_bytes, 8);
  put(8, static_cast<std::uint32_t>(p.num_ops), 4);
  put(12, p.use_intra_sync, 1);
}

Payload::Payload(const CeCollDetailSpec& p) {
  put(0, p.send_buff, 8);
  put(8, p.recv_buff, 8);
  put(16, p.stream, 8);
  put(24, p.batch_size, 4);
  put(28, p.num_batches, 4);
}

Payload::Payload(const ParentGroupDetailSpec& p) {
  put(0, p.group_id, 8);
  put(8, p.flags, 4);
}

Payload Payload::state(std::uint64_t value, bool has_args) {
  Payload p;
  p.put(0, value, 8);
  p.put(8, has_args ? 1 : 0, 1);
  return p;
}

Payload Payload::raw(const std::array<std::uint8_t, 32>& bytes) {
  Payload p;
  p.bytes_ = bytes;
  return p;
}

// ---- Content ----

NpktBuilder& NpktBuilder::comm(std::uint64_t comm_hash, std::int32_t rank, std::int32_t nranks) {
  comm_.comm_hash = comm_hash;
  comm_.rank = rank;
  comm_.nranks = nranks;
  return *this;
}

NpktBuilder& NpktBuilder::meta(const std::string& key, const std::string& value) {
  metadata_.push_back({0, 0, key, value});
  return *this;
}

NpktBuilder& NpktBuilder::clock_sample(std::int64_t host_before_ns, std::int64_t host_after_ns,
                                       std::uint64_t gpu_ns, std::uint32_t when) {
  samples_.push_back({host_before_ns, host_after_ns, gpu_ns, when});
  return *this;
}

NpktBuilder& NpktBuilder::name(std::uint32_t domain, std::uint32_t id, const std::string& text) {
  names_.push_back({domain, id, "", text});
  return *this;
}

NpktBuilder& NpktBuilder::event_type_name(std::uint32_t bit, const std::string& text) {
  return name(1, bit, text);
}

NpktBuilder& NpktBuilder::state_name(std::uint32_t state, const std::string& text) {
  return name(2, state, text);
}

NpktBuilder& NpktBuilder::standard_names() {
  const auto& types = standard_event_type_names();
  const auto& states = standard_state_names();
  for (std::uint32_t i = 0; i < types.size(); ++i) event_type_name(i, types[i]);
  for (std::uint32_t i = 0; i < states.size(); ++i) state_name(i, states[i]);
  return *this;
}

NpktBuilder& NpktBuilder::string(std::uint32_t id, const std::string& text) {
  strings_.push_back({id, 0, "", text});
  return *this;
}

NpktBuilder& NpktBuilder::thread(std::uint32_t slot, std::int32_t os_tid, const std::string& name) {
  threads_.push_back({slot, os_tid, name});
  return *this;
}

NpktBuilder& NpktBuilder::on_thread(std::uint16_t slot) {
  current_thread_ = slot;
  return *this;
}

NpktBuilder& NpktBuilder::start(std::uint64_t id, std::uint64_t parent, std::uint8_t type,
                                std::uint64_t host_ns, const Payload& payload,
                                std::uint32_t flags) {
  return record({host_ns, id, parent, 1, type, current_thread_, flags, payload});
}

NpktBuilder& NpktBuilder::state(std::uint64_t id, std::uint8_t type, std::uint64_t host_ns,
                                std::uint32_t state, std::uint64_t value, bool has_args) {
  return record({host_ns, id, 0, 3, type, current_thread_, state, Payload::state(value, has_args)});
}

NpktBuilder& NpktBuilder::stop(std::uint64_t id, std::uint8_t type, std::uint64_t host_ns) {
  return record({host_ns, id, 0, 2, type, current_thread_, 0, Payload()});
}

NpktBuilder& NpktBuilder::detail(std::uint64_t id, std::uint8_t type, std::uint64_t host_ns,
                                 std::uint32_t detail_kind, const Payload& payload) {
  return record({host_ns, id, 0, 4, type, current_thread_, detail_kind, payload});
}

NpktBuilder& NpktBuilder::record(const RecordSpec& r) {
  records_.push_back(r);
  return *this;
}

// ---- Header fields and corruption options ----

NpktBuilder& NpktBuilder::major(std::uint16_t v) {
  major_ = v;
  return *this;
}
NpktBuilder& NpktBuilder::minor(std::uint16_t v) {
  minor_ = v;
  return *this;
}
NpktBuilder& NpktBuilder::header_size(std::uint32_t v) {
  header_size_ = v;
  return *this;
}
NpktBuilder& NpktBuilder::feature_bits(std::uint64_t v) {
  feature_bits_ = v;
  return *this;
}
NpktBuilder& NpktBuilder::magic(const std::string& eight_bytes) {
  magic_ = eight_bytes;
  return *this;
}
NpktBuilder& NpktBuilder::big_endian() {
  big_endian_ = true;
  return *this;
}
NpktBuilder& NpktBuilder::file_size(std::uint64_t v) {
  file_size_ = v;
  return *this;
}
NpktBuilder& NpktBuilder::section_count(std::uint32_t v) {
  section_count_ = v;
  return *this;
}
NpktBuilder& NpktBuilder::entry_size(std::uint32_t kind, std::uint32_t size) {
  entry_size_[kind] = size;
  return *this;
}
NpktBuilder& NpktBuilder::payload_size(std::uint32_t kind, std::uint64_t v) {
  payload_size_[kind] = v;
  return *this;
}
NpktBuilder& NpktBuilder::omit(std::uint32_t kind) {
  omitted_.insert(kind);
  return *this;
}
NpktBuilder& NpktBuilder::duplicate(std::uint32_t kind) {
  duplicated_.insert(kind);
  return *this;
}
NpktBuilder& NpktBuilder::last(std::uint32_t kind) {
  last_ = kind;
  return *this;
}
NpktBuilder& NpktBuilder::extra_section(std::uint32_t kind, std::uint32_t entry_size,
                                        const std::string& payload) {
  extras_.push_back({kind, entry_size, payload});
  return *this;
}
NpktBuilder& NpktBuilder::padding_byte(std::uint8_t v) {
  padding_byte_ = v;
  return *this;
}
NpktBuilder& NpktBuilder::trailing(const std::string& bytes) {
  trailing_ = bytes;
  return *this;
}
NpktBuilder& NpktBuilder::truncate_at(std::size_t size) {
  truncate_at_ = size;
  return *this;
}

NpktBuilder& NpktBuilder::event_name(std::uint32_t id, std::uint32_t kind, const std::string& name,
                                     const std::string& phase) {
  event_names_.push_back({id, kind, name, phase});
  return *this;
}

NpktBuilder& NpktBuilder::stream(const StreamSpec& s) {
  streams_.push_back({s, {}});
  return *this;
}

NpktBuilder& NpktBuilder::event(std::uint64_t timestamp, std::uint16_t id, std::uint64_t size,
                                std::uint32_t user) {
  if (streams_.empty()) throw std::invalid_argument("npkt writer: event() before any stream()");
  streams_.back().events.push_back({timestamp, size, user, id});
  return *this;
}

bool NpktBuilder::has_event_sections() const {
  return !event_names_.empty() || !streams_.empty();
}

// ---- Output ----

// The payload of section `kind`: fixed entries reshaped to the requested entry size.
std::string NpktBuilder::section_entries(std::uint32_t kind) const {
  std::vector<std::string> entries;
  auto encoder = [&] { return Encoder(big_endian_); };
  switch (kind) {
    case kCommunicator: {
      const CommSpec& c = comm_;
      entries.push_back(encoder()
                            .u64(c.comm_hash)
                            .i32(c.rank)
                            .i32(c.nranks)
                            .i32(c.nnodes)
                            .i32(c.pid)
                            .i64(c.capture_start_ns)
                            .i64(c.capture_end_ns)
                            .u32(c.end_reason)
                            .u32(c.clock_method)
                            .u32(c.profiler_api)
                            .u32(c.host_clock)
                            .u64(c.event_mask)
                            .u64(c.records_capacity)
                            .u64(c.records_attempted)
                            .u64(c.records_dropped)
                            .u64(c.records_incomplete)
                            .u64(c.events_after_dump)
                            .zeros(32)
                            .take());
      break;
    }
    case kMetadata: {
      Encoder e = encoder();
      for (const auto& m : metadata_) {
        e.u32(m.key.size()).u32(m.value.size()).text(m.key).text(m.value);
      }
      return e.take();
    }
    case kClockSamples:
      for (const auto& s : samples_) {
        entries.push_back(
            encoder().i64(s.before).i64(s.after).u64(s.gpu).u32(s.when).u32(0).take());
      }
      break;
    case kNames: {
      Encoder e = encoder();
      for (const auto& n : names_) e.u32(n.a).u32(n.b).u32(n.value.size()).u32(0).text(n.value);
      return e.take();
    }
    case kStrings: {
      Encoder e = encoder();
      for (const auto& s : strings_) e.u32(s.a).u32(s.value.size()).text(s.value);
      return e.take();
    }
    case kThreads:
      for (const auto& t : threads_) {
        std::string name = t.name.substr(0, 16);
        name.resize(16, '\0');
        entries.push_back(encoder().u32(t.slot).i32(t.tid).text(name).take());
      }
      break;
    case kProfilerRecords:
      for (const auto& r : records_) {
        const auto& p = r.payload.bytes();
        entries.push_back(encoder()
                              .u64(r.host_ns)
                              .u64(r.event_id)
                              .u64(r.parent_id)
                              .u8(r.kind)
                              .u8(r.type)
                              .u16(r.thread)
                              .u32(r.word)
                              .text(std::string(p.begin(), p.end()))
                              .take());
      }
      break;
    case kEventNames: {
      Encoder e = encoder();
      for (const auto& n : event_names_) {
        e.u32(n.id).u32(n.kind).u32(n.name.size()).u32(n.phase.size()).text(n.name).text(n.phase);
      }
      return e.take();
    }
    case kStreams: {
      std::uint64_t next = 0;
      for (const auto& st : streams_) {
        const StreamSpec& i = st.info;
        entries.push_back(encoder()
                              .u32(i.source)
                              .u32(i.clock)
                              .i32(i.cuda_device)
                              .u32(i.block)
                              .u32(i.warp)
                              .u32(i.name_string)
                              .u64(i.first_record.value_or(next))
                              .u64(i.records_written.value_or(st.events.size()))
                              .u64(i.records_dropped)
                              .u64(i.capacity)
                              .u64(i.cycles_per_second)
                              .i32(i.os_tid)
                              .zeros(4)
                              .take());
        next += st.events.size();
      }
      break;
    }
    case kEventRecords:
      for (const auto& st : streams_) {
        for (const auto& ev : st.events) {
          entries.push_back(
              encoder().u64(ev.timestamp).u64(ev.size).u32(ev.user).u16(ev.id).u16(0).take());
        }
      }
      break;
    default:
      throw std::invalid_argument("npkt writer: no section of kind " + std::to_string(kind));
  }
  const auto size = entry_size_.find(kind);
  std::string payload;
  for (std::string& entry : entries) {
    if (size != entry_size_.end()) entry.resize(size->second, static_cast<char>(kFillerByte));
    payload += entry;
  }
  return payload;
}

std::string NpktBuilder::section(std::uint32_t kind) const {
  if (omitted_.count(kind) != 0) return "";
  const std::string payload = section_entries(kind);
  const auto entry_size = entry_size_.find(kind);
  const auto payload_size = payload_size_.find(kind);
  Encoder e(big_endian_);
  e.u32(kind)
      .u32(entry_size != entry_size_.end() ? entry_size->second : known_entry_size(kind))
      .u64(payload_size != payload_size_.end() ? payload_size->second : payload.size())
      .text(payload);
  std::string bytes = e.take();
  bytes.append((8 - payload.size() % 8) % 8, static_cast<char>(padding_byte_));
  return duplicated_.count(kind) != 0 ? bytes + bytes : bytes;
}

std::string NpktBuilder::bytes() const {
  std::vector<std::uint32_t> order = {kCommunicator, kMetadata};
  if (!samples_.empty()) order.push_back(kClockSamples);
  for (std::uint32_t k : {kNames, kStrings, kThreads, kProfilerRecords}) order.push_back(k);
  if (has_event_sections()) {
    for (std::uint32_t k : {kEventNames, kStreams, kEventRecords}) order.push_back(k);
  }
  if (last_) {
    std::erase(order, *last_);
    order.push_back(*last_);
  }

  std::string sections;
  std::uint32_t count = 0;
  auto add = [&](const std::string& s, std::uint32_t kind) {
    if (s.empty()) return;
    sections += s;
    count += duplicated_.count(kind) != 0 ? 2 : 1;
  };
  for (std::uint32_t kind : order) {
    add(section(kind), kind);
    if (kind != kCommunicator) continue;
    for (const auto& x : extras_) {
      Encoder e(big_endian_);
      std::string s = e.u32(x.kind).u32(x.entry_size).u64(x.payload.size()).text(x.payload).take();
      s.append((8 - x.payload.size() % 8) % 8, static_cast<char>(padding_byte_));
      sections += s;
      ++count;
    }
  }

  const std::size_t header_len = std::max<std::size_t>(kFileHeaderSize, header_size_);
  const std::uint64_t total = header_len + sections.size() + trailing_.size();
  std::uint64_t features = 0;
  if (omitted_.count(kProfilerRecords) == 0) features |= 1;
  if (!samples_.empty()) features |= 2;
  if (has_event_sections()) features |= 4;
  std::string magic = magic_.substr(0, 8);
  magic.resize(8, '\0');
  Encoder header(big_endian_);
  header.text(magic)
      .u16(major_)
      .u16(minor_.value_or(has_event_sections() ? 1 : 0))
      .u32(header_size_)
      .u32(kEndianMarker)
      .u32(section_count_.value_or(count))
      .u64(file_size_.value_or(total))
      .u64(feature_bits_.value_or(features))
      .zeros(header_len - 40);
  std::string image = header.take() + sections + trailing_;
  if (truncate_at_ && *truncate_at_ < image.size()) image.resize(*truncate_at_);
  return image;
}

std::string NpktBuilder::file_name() const {
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(comm_.comm_hash));
  return std::string("npkit_") + hash + "_rank" + std::to_string(comm_.rank) + ".npkt";
}

void NpktBuilder::write(const std::string& path) const {
  const std::string image = bytes();
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(image.data(), static_cast<std::streamsize>(image.size()));
  if (!out) throw std::runtime_error("npkt writer: cannot write " + path);
}

std::string NpktBuilder::write(const TempDir& tmp, const std::string& relative) const {
  return tmp.write_file(relative.empty() ? file_name() : relative, bytes());
}

}  // namespace npkit::test
