// npkt_writer.hpp — TEST-ONLY writer of npkit dump format v1 files (.npkt), valid or, on request,
// deliberately broken.
// Contract: a second implementation of the layout in include/npkit/format.hpp. Every integer is
// written byte by byte, little-endian, at offsets spelled out here (it never copies a format.hpp
// struct), so a reader test checks the reader against an independent reading of the contract.
// Nothing is validated: a builder writes exactly what it was told, which is how broken files are
// made. The bytes depend only on the calls made (no clock, no pid, no environment).
//
// File layout written (offsets in bytes; every section starts on a multiple of 8):
//   0    file header, 64 bytes: magic "NPKTDUMP", u16 major (1), u16 minor (0; 1 with event
//        sections), u32 header_size (64), u32 endian marker 0x01020304, u32 section_count, u64
//        file_size, u64 feature_bits, 24 zero bytes
//   64   sections, each a 16-byte header (u32 kind, u32 entry_size, u64 payload_size), the
//        payload, zero padding to a multiple of 8; in this order (last() moves one to the end):
//          1 Communicator (one 136-byte entry)     then any extra_section() in call order
//          2 Metadata (u32 key_size, u32 value_size, key, value; entry_size 0)
//          3 ClockSamples (i64 host_before, i64 host_after, u64 gpu, u32 when, u32 0: 32 bytes
//            each; written only when there is a sample)
//          4 Names (u32 domain, u32 id, u32 name_size, u32 0, name; entry_size 0)
//          5 Strings (u32 id, u32 size, text; entry_size 0)
//          6 Threads (u32 slot, i32 os_tid, 16-byte NUL-padded name: 24 bytes each)
//          7 ProfilerRecords (u64 host_ns, u64 event_id, u64 parent_id, u8 kind, u8 type,
//            u16 thread, u32 word, 32-byte payload: 64 bytes each)
//        and, only in a file given event names, streams or event records (format minor 1):
//          8 EventNames (u32 id, u32 kind, u32 name_size, u32 phase_size, name, phase;
//            entry_size 0)
//          9 Streams (u32 source, u32 clock, i32 cuda_device, u32 block, u32 warp, u32
//            name_string, u64 first_record, u64 records_written, u64 records_dropped, u64
//            capacity, u64 cycles_per_second, i32 os_tid, 4 zero bytes: 72 bytes each)
//         10 EventRecords (u64 timestamp, u64 size, u32 user, u16 id, u16 reserved: 24 bytes
//            each), stream after stream in the order the streams were added
// Feature bits default to bit 0 (records section present) plus bit 1 when clock samples exist,
// plus bit 2 when the event sections are written; the minor version defaults to 1 in a file with
// event sections, else 0.
// So the Communicator section's header is at 64, its payload at 80, the next section at 216.
// Fixtures described as text (golden tests): support/npkt_spec.hpp.
//
// Example:
//   NpktBuilder b;
//   b.comm(0x1234, 0, 2).meta("hostname", "h").string(1, "AllReduce");
//   b.start(1, 0, format::kTypeColl, 1000, CollStart{.seq = 1, .count = 1 << 20, .func = 1});
//   b.stop(1, format::kTypeColl, 2000);
//   std::string path = b.write(tmp);  // tmp/npkit_0000000000001234_rank0.npkt
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "support/temp_dir.hpp"

namespace npkit::test {

// What the capture plugin calls the event types (index = type bit, Group .. KernelLaunch) and the
// states 0..24 (NCCL's names without the ncclProfiler prefix, e.g. 8 ProxyStepSendGPUWait).
const std::vector<std::string>& standard_event_type_names();
const std::vector<std::string>& standard_state_names();

// Start-record payloads (format.hpp *Payload), one struct per event type; reserved bytes are 0.
struct GroupApiStart {
  std::int32_t group_depth = 0;
  std::uint8_t graph_captured = 0;
};
struct CollApiStart {
  std::uint64_t count = 0;
  std::uint64_t stream = 0;
  std::int32_t root = 0;
  std::uint16_t func = 0;
  std::uint16_t datatype = 0;
  std::uint8_t graph_captured = 0;
};
struct P2pApiStart {
  std::uint64_t count = 0;
  std::uint64_t stream = 0;
  std::uint16_t func = 0;
  std::uint16_t datatype = 0;
  std::uint8_t graph_captured = 0;
};
struct KernelLaunchStart {
  std::uint64_t stream = 0;
};
struct CollStart {
  std::uint64_t seq = 0;
  std::uint64_t count = 0;
  std::int32_t root = 0;
  std::uint16_t func = 0;
  std::uint16_t datatype = 0;
  std::uint16_t algo = 0;
  std::uint16_t proto = 0;
  std::uint8_t n_channels = 0;
  std::uint8_t n_warps = 0;
};
struct P2pStart {
  std::uint64_t count = 0;
  std::int32_t peer = 0;
  std::uint16_t func = 0;
  std::uint16_t datatype = 0;
  std::uint8_t n_channels = 0;
};
struct ProxyOpStart {
  std::int32_t pid = 0;
  std::int32_t peer = 0;
  std::int32_t n_steps = 0;
  std::int32_t chunk_size = 0;
  std::int32_t rank = 0;
  std::uint8_t channel = 0;
  std::uint8_t is_send = 0;
};
struct ProxyStepStart {
  std::int32_t step = 0;
  std::int32_t rank = 0;
};
struct KernelChStart {
  std::uint64_t gpu_start_ns = 0;
  std::uint8_t channel = 0;
};
struct NetPluginStart {
  std::int64_t plugin_id = 0;
};
// Minor 3: copy-engine events and detail payloads (kRecordDetail).
struct CeCollStart {
  std::uint64_t seq = 0;
  std::uint64_t count = 0;
  std::int32_t root = 0;
  std::uint16_t func = 0;
  std::uint16_t datatype = 0;
  std::uint16_t sync_strategy = 0;
  std::uint8_t intra_batch_sync = 0;
  std::uint32_t ce_seq = 0;
};
struct CeSyncStart {
  std::int32_t n_ranks = 0;
  std::uint8_t is_complete = 0;
};
struct CeBatchStart {
  std::uint64_t total_bytes = 0;
  std::int32_t num_ops = 0;
  std::uint8_t use_intra_sync = 0;
};
struct CeCollDetailSpec {
  std::uint64_t send_buff = 0;
  std::uint64_t recv_buff = 0;
  std::uint64_t stream = 0;
  std::uint32_t batch_size = 0;
  std::uint32_t num_batches = 0;
};
struct ParentGroupDetailSpec {
  std::uint64_t group_id = 0;
  std::uint32_t flags = 0;
};

// The 32 payload bytes of a record, encoded field by field (little-endian) from one of the
// structs above; default-constructed = 32 zero bytes (Group, ProxyCtrl, stop records).
class Payload {
 public:
  Payload() = default;
  Payload(const GroupApiStart& p);
  Payload(const CollApiStart& p);
  Payload(const P2pApiStart& p);
  Payload(const KernelLaunchStart& p);
  Payload(const CollStart& p);
  Payload(const P2pStart& p);
  Payload(const ProxyOpStart& p);
  Payload(const ProxyStepStart& p);
  Payload(const KernelChStart& p);
  Payload(const NetPluginStart& p);
  Payload(const CeCollStart& p);
  Payload(const CeSyncStart& p);
  Payload(const CeBatchStart& p);
  Payload(const CeCollDetailSpec& p);
  Payload(const ParentGroupDetailSpec& p);
  // StatePayload: u64 value, u8 has_args.
  static Payload state(std::uint64_t value, bool has_args);
  static Payload raw(const std::array<std::uint8_t, 32>& bytes);

  const std::array<std::uint8_t, 32>& bytes() const { return bytes_; }

 private:
  void put(std::size_t offset, std::uint64_t value, std::size_t size);
  std::array<std::uint8_t, 32> bytes_{};
};

// One ProfilerRecord, field by field.
struct RecordSpec {
  std::uint64_t host_ns = 0;
  std::uint64_t event_id = 0;
  std::uint64_t parent_id = 0;
  std::uint8_t kind = 0;  // 0 none (unfinished), 1 start, 2 stop, 3 state, 4 detail
  std::uint8_t type = 0;  // event type bit index (format.hpp EventType)
  std::uint16_t thread = 0;
  std::uint32_t word = 0;  // start flags, state number, 0 for stop
  Payload payload;
};

// StreamInfo, field by field. first_record and records_written default to where the stream's
// records land in the EventRecords section and how many event() calls it got; set them to write
// inconsistent files.
struct StreamSpec {
  std::uint32_t source = 1;  // 1 GPU block, 2 GPU warp, 3 host thread
  std::uint32_t clock = 1;   // 1 %globaltimer, 2 clock64 cycles, 3 host clock
  std::int32_t cuda_device = 0;
  std::uint32_t block = 0;
  std::uint32_t warp = 0;
  std::uint32_t name_string = 0;
  std::optional<std::uint64_t> first_record = std::nullopt;
  std::optional<std::uint64_t> records_written = std::nullopt;
  std::uint64_t records_dropped = 0;
  std::uint64_t capacity = 0;
  std::uint64_t cycles_per_second = 0;
  std::int32_t os_tid = 0;
};

// CommunicatorInfo, field by field; the defaults are those of a plugin dump at finalize.
struct CommSpec {
  std::uint64_t comm_hash = 0;
  std::int32_t rank = 0;
  std::int32_t nranks = 1;
  std::int32_t nnodes = 1;
  std::int32_t pid = 4242;
  std::int64_t capture_start_ns = 0;
  std::int64_t capture_end_ns = 0;
  std::uint32_t end_reason = 1;    // finalize
  std::uint32_t clock_method = 0;  // none
  std::uint32_t profiler_api = 5;
  std::uint32_t host_clock = 1;  // CLOCK_REALTIME
  std::uint64_t event_mask = 0;
  std::uint64_t records_capacity = 0;
  std::uint64_t records_attempted = 0;
  std::uint64_t records_dropped = 0;
  std::uint64_t records_incomplete = 0;
  std::uint64_t events_after_dump = 0;
};

class NpktBuilder {
 public:
  // Section kinds (format.hpp SectionKind), for the corruption options.
  enum Section : std::uint32_t {
    kCommunicator = 1,
    kMetadata = 2,
    kClockSamples = 3,
    kNames = 4,
    kStrings = 5,
    kThreads = 6,
    kProfilerRecords = 7,
    kEventNames = 8,
    kStreams = 9,
    kEventRecords = 10,
  };

  // ---- Content ----
  NpktBuilder& comm(std::uint64_t comm_hash, std::int32_t rank, std::int32_t nranks);
  CommSpec& comm_info() { return comm_; }
  const CommSpec& comm_info() const { return comm_; }
  NpktBuilder& meta(const std::string& key, const std::string& value);
  NpktBuilder& clock_sample(std::int64_t host_before_ns, std::int64_t host_after_ns,
                            std::uint64_t gpu_ns, std::uint32_t when);
  // Names section entries: domain 1 (event type bit index) or 2 (state number); any domain for
  // forward-compatibility tests.
  NpktBuilder& name(std::uint32_t domain, std::uint32_t id, const std::string& text);
  NpktBuilder& event_type_name(std::uint32_t bit, const std::string& text);
  NpktBuilder& state_name(std::uint32_t state, const std::string& text);
  // Every standard_event_type_names() and standard_state_names() entry, as the plugin writes them.
  NpktBuilder& standard_names();
  NpktBuilder& string(std::uint32_t id, const std::string& text);
  NpktBuilder& thread(std::uint32_t slot, std::int32_t os_tid, const std::string& name);
  // The ProfilerRecord::thread slot of the records added after this call (default 0).
  NpktBuilder& on_thread(std::uint16_t slot);
  // start: word = `flags` (kStartParent*); state: word = state number, StatePayload{value,
  // has_args}; stop: word 0, zero payload.
  NpktBuilder& start(std::uint64_t id, std::uint64_t parent, std::uint8_t type,
                     std::uint64_t host_ns, const Payload& payload = {}, std::uint32_t flags = 0);
  NpktBuilder& state(std::uint64_t id, std::uint8_t type, std::uint64_t host_ns,
                     std::uint32_t state, std::uint64_t value = 0, bool has_args = true);
  NpktBuilder& stop(std::uint64_t id, std::uint8_t type, std::uint64_t host_ns);
  // detail (minor 3): word = `detail_kind` (format::DetailKind), parent_id 0.
  NpktBuilder& detail(std::uint64_t id, std::uint8_t type, std::uint64_t host_ns,
                      std::uint32_t detail_kind, const Payload& payload);
  // Any record, e.g. kind 0 (unfinished) or an out-of-range kind or type.
  NpktBuilder& record(const RecordSpec& r);
  // One EventNames entry: kind 1 ENTRY, 2 EXIT, 3 instant (any value for forward-compatibility
  // tests); `phase` is the phase hint.
  NpktBuilder& event_name(std::uint32_t id, std::uint32_t kind, const std::string& name,
                          const std::string& phase = "");
  // Starts a stream; the event() calls that follow are its records.
  NpktBuilder& stream(const StreamSpec& s);
  // One EventRecord of the current stream (a stream() call must come first).
  NpktBuilder& event(std::uint64_t timestamp, std::uint16_t id, std::uint64_t size = 0,
                     std::uint32_t user = 0);

  // ---- Header fields (defaults: those of a valid v1.0 file) ----
  NpktBuilder& major(std::uint16_t v);
  NpktBuilder& minor(std::uint16_t v);
  // header_size field; a value above 64 also pads the header with zeros up to it.
  NpktBuilder& header_size(std::uint32_t v);
  NpktBuilder& feature_bits(std::uint64_t v);

  // ---- Corruption and forward-compatibility options ----
  NpktBuilder& magic(const std::string& eight_bytes);
  // Writes every integer outside record payloads big-endian (marker bytes 01 02 03 04).
  NpktBuilder& big_endian();
  NpktBuilder& file_size(std::uint64_t v);      // the file_size field, bytes unchanged
  NpktBuilder& section_count(std::uint32_t v);  // the section_count field, sections unchanged
  // Fixed-entry section `kind` written with `size`-byte entries: the first min(size, known size)
  // bytes of each entry, then 0xA5 filler bytes (a newer minor's fields) up to `size`.
  NpktBuilder& entry_size(std::uint32_t kind, std::uint32_t size);
  // The payload_size field of section `kind`, its bytes unchanged.
  NpktBuilder& payload_size(std::uint32_t kind, std::uint64_t v);
  NpktBuilder& omit(std::uint32_t kind);
  NpktBuilder& duplicate(std::uint32_t kind);  // the section written twice in a row
  NpktBuilder& last(std::uint32_t kind);       // the section written after all the others
  // A section written after the Communicator section: header {kind, entry_size,
  // payload.size()}, the payload bytes, zero padding.
  NpktBuilder& extra_section(std::uint32_t kind, std::uint32_t entry_size,
                             const std::string& payload);
  NpktBuilder& padding_byte(std::uint8_t v);        // padding filled with `v` instead of 0
  NpktBuilder& trailing(const std::string& bytes);  // after the last section, counted in file_size
  NpktBuilder& truncate_at(std::size_t size);       // the image cut to `size` bytes at the end

  // ---- Output ----
  std::string bytes() const;
  // npkit_<comm hash, 16 lower-case hex digits>_rank<rank>.npkt
  std::string file_name() const;
  void write(const std::string& path) const;
  // Writes tmp/`relative` (default: file_name()) and returns its path.
  std::string write(const TempDir& tmp, const std::string& relative = "") const;

 private:
  struct Text {
    std::uint32_t a = 0;  // metadata: unused; names: domain; strings: id
    std::uint32_t b = 0;  // names: id
    std::string key;      // metadata key
    std::string value;
  };
  struct Extra {
    std::uint32_t kind = 0;
    std::uint32_t entry_size = 0;
    std::string payload;
  };
  struct Sample {
    std::int64_t before = 0;
    std::int64_t after = 0;
    std::uint64_t gpu = 0;
    std::uint32_t when = 0;
  };
  struct Thread {
    std::uint32_t slot = 0;
    std::int32_t tid = 0;
    std::string name;
  };

  std::string section_entries(std::uint32_t kind) const;
  std::string section(std::uint32_t kind) const;

  CommSpec comm_;
  std::vector<Text> metadata_;
  std::vector<Sample> samples_;
  std::vector<Text> names_;
  std::vector<Text> strings_;
  std::vector<Thread> threads_;
  std::vector<RecordSpec> records_;
  std::uint16_t current_thread_ = 0;
  struct EventNameSpec {
    std::uint32_t id = 0;
    std::uint32_t kind = 0;
    std::string name;
    std::string phase;
  };
  struct EventSpec {
    std::uint64_t timestamp = 0;
    std::uint64_t size = 0;
    std::uint32_t user = 0;
    std::uint16_t id = 0;
  };
  struct Stream {
    StreamSpec info;
    std::vector<EventSpec> events;
  };
  bool has_event_sections() const;
  std::vector<EventNameSpec> event_names_;
  std::vector<Stream> streams_;

  std::uint16_t major_ = 1;
  std::optional<std::uint16_t> minor_;
  std::uint32_t header_size_ = 64;
  std::optional<std::uint64_t> feature_bits_;
  std::string magic_ = "NPKTDUMP";
  bool big_endian_ = false;
  std::optional<std::uint64_t> file_size_;
  std::optional<std::uint32_t> section_count_;
  std::map<std::uint32_t, std::uint32_t> entry_size_;
  std::map<std::uint32_t, std::uint64_t> payload_size_;
  std::set<std::uint32_t> omitted_;
  std::set<std::uint32_t> duplicated_;
  std::optional<std::uint32_t> last_;
  std::vector<Extra> extras_;
  std::uint8_t padding_byte_ = 0;
  std::string trailing_;
  std::optional<std::size_t> truncate_at_;
};

}  // namespace npkit::test
