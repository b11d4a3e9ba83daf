// npkit/format.hpp — the on-disk contract of npkit dump format v1 (".npkt" files), shared by the
// capture side (writer) and the analyzer (reader). docs/format.md is the prose specification.
//
// Contract:
// - A file is a FileHeader followed, from offset `header_size` (a multiple of 8), by
//   `section_count` sections; each section is a SectionHeader followed by `payload_size` bytes,
//   then zero padding so the next section starts at a file offset that is a multiple of 8.
// - Each section kind of v1 appears at most once.
// - All integers are little-endian, fixed width; there are no bitfields (flags are explicit masks).
// - Readers reject a `major` they do not know with a clear message, accept any `minor` of a known
//   major, and skip sections whose kind they do not know (minor versions only add sections, add
//   enum values or use reserved bytes that were zero).
// - `file_size` is the whole file's size: a shorter file is truncated, never half-parsed —
//   except a live file (kFeatureLiveFile), which may end anywhere inside its last section.
// Dependency-free (C++17), usable from host code of CUDA translation units.
#pragma once

#include <cstddef>
#include <cstdint>

namespace npkit::format {

inline constexpr char kMagic[8] = {'N', 'P', 'K', 'T', 'D', 'U', 'M', 'P'};
inline constexpr uint16_t kMajorVersion = 1;
// Minor 1 added the event-record sections (8..10); 2 added live files (kFeatureLiveFile); 3 added
// the copy-engine event types of NCCL profiler API v6 (12..14), their payloads and states, and
// detail records (kRecordDetail) for descriptor fields that do not fit a start record's payload; 4
// added NCCL profiler API v7 (NCCL 2.31): the KernelPhase event type (15), its payload and stop
// state (31), and the call-tag detail (user tag, kernel variant, symmetric kernel).
inline constexpr uint16_t kMinorVersion = 4;
// Written as a native uint32; a little-endian file reads back 0x01020304.
inline constexpr uint32_t kEndianMarker = 0x01020304u;
// File names: npkit_<comm hash, 16 lower-case hex digits>_rank<rank>.npkt; a live file is the same
// name with kLiveFileExtension in place of kFileExtension.
inline constexpr const char* kFileExtension = ".npkt";
inline constexpr const char* kLiveFileExtension = ".live.npkt";

struct FileHeader {
  char magic[8];           // kMagic
  uint16_t major;          // kMajorVersion
  uint16_t minor;          // kMinorVersion
  uint32_t header_size;    // sizeof(FileHeader)
  uint32_t endian_marker;  // kEndianMarker
  uint32_t section_count;  // sections that follow
  uint64_t file_size;      // total bytes in the file
  uint64_t feature_bits;   // FeatureBits; unknown bits are informational only
  uint8_t reserved[24];    // zero
};
static_assert(sizeof(FileHeader) == 64);
static_assert(offsetof(FileHeader, major) == 8);
static_assert(offsetof(FileHeader, section_count) == 20);
static_assert(offsetof(FileHeader, file_size) == 24);
static_assert(offsetof(FileHeader, feature_bits) == 32);

// FileHeader::feature_bits
inline constexpr uint64_t kFeatureProfilerRecords = 1ull << 0;   // a kProfilerRecords section
inline constexpr uint64_t kFeatureClockCalibration = 1ull << 1;  // calibration samples present
inline constexpr uint64_t kFeatureEventRecords = 1ull
                                                 << 2;  // kSectionStreams + kSectionEventRecords
// Minor 2. A live file: written while the capture runs, so that a process that dies without
// writing its dump (killed, crashed, _exit) leaves its records behind. Its sections are
// Communicator (end_reason kEndLive, capture_end_ns and the record counters 0: unknown), Metadata,
// ClockSamples (init), Names, LiveStrings, Threads and ProfilerRecords, in this order. The
// ProfilerRecords payload_size is the buffer's capacity and file_size the size the file would have
// with every record written; the file itself ends after the last records written (whole records
// or not). Records of kind 0 are unused or were being written. Threads entries with os_tid 0 are
// unused. Once the communicator's dump is written the live file is removed.
inline constexpr uint64_t kFeatureLiveFile = 1ull << 3;

struct SectionHeader {
  uint32_t kind;          // SectionKind
  uint32_t entry_size;    // bytes per entry for arrays of fixed entries; 0 for variable payloads
  uint64_t payload_size;  // bytes of payload after this header, before padding
};
static_assert(sizeof(SectionHeader) == 16);

enum SectionKind : uint32_t {
  kSectionCommunicator = 1,     // one CommunicatorInfo
  kSectionMetadata = 2,         // key/value text pairs (MetadataEntry + bytes)
  kSectionClockSamples = 3,     // array of ClockSample
  kSectionNames = 4,            // NameEntry + bytes: what event types and states are called
  kSectionStrings = 5,          // StringEntry + bytes: interned func/datatype/algo/proto strings
  kSectionThreads = 6,          // array of ThreadEntry
  kSectionProfilerRecords = 7,  // array of ProfilerRecord, by host_ns (live files: buffer order)
  // Minor 1: NPKit-style event records from the device recorder (npkit/device.cuh) and the host
  // recorder (npkit/host.hpp). A file may hold these, profiler records, or both.
  kSectionEventNames = 8,     // EventNameEntry + bytes: what each EventRecord::id is called
  kSectionStreams = 9,        // array of StreamInfo: one per GPU block/warp buffer or host thread
  kSectionEventRecords = 10,  // array of EventRecord, each stream's records contiguous
  // Minor 2, live files only (kFeatureLiveFile): the Strings section as a table of fixed entries.
  kSectionLiveStrings = 11,  // array of LiveStringEntry, entry i holding string id i + 1
};

// How a dump came to be written.
enum EndReason : uint32_t {
  kEndFinalize = 1,     // the communicator was finalized
  kEndProcessExit = 2,  // the process exited with the communicator alive
  kEndLive = 3,         // a live file: the dump was never written (kFeatureLiveFile)
};

// How GPU %globaltimer values relate to host time in this dump.
enum ClockMethod : uint32_t {
  kClockNone = 0,           // no samples: readers estimate from KernelCh observations
  kClockKernelBracket = 1,  // ClockSample pairs from a one-thread kernel bracketed by the host
};

struct CommunicatorInfo {
  uint64_t comm_hash;           // NCCL commHash: the same on every rank of the communicator
  int32_t rank;                 // rank in the communicator
  int32_t nranks;               // ranks in the communicator
  int32_t nnodes;               // nodes spanned
  int32_t pid;                  // the writing process
  int64_t capture_start_ns;     // host clock at communicator init
  int64_t capture_end_ns;       // host clock when the dump was taken
  uint32_t end_reason;          // EndReason
  uint32_t clock_method;        // ClockMethod
  uint32_t profiler_api;        // NCCL profiler API the plugin was driven through (4 to 7)
  uint32_t host_clock;          // HostClock of every host_ns in the file
  uint64_t event_mask;          // activation mask the plugin asked NCCL for
  uint64_t records_capacity;    // records the buffer could hold
  uint64_t records_attempted;   // records the plugin tried to write (written + dropped)
  uint64_t records_dropped;     // records lost because the buffer was full
  uint64_t records_incomplete;  // records claimed but not finished when the dump was taken
  uint64_t events_after_dump;   // callbacks that arrived after the dump was taken (not in file)
  uint8_t reserved[32];         // zero
};
static_assert(sizeof(CommunicatorInfo) == 136);
static_assert(offsetof(CommunicatorInfo, capture_start_ns) == 24);
static_assert(offsetof(CommunicatorInfo, end_reason) == 40);
static_assert(offsetof(CommunicatorInfo, event_mask) == 56);
static_assert(offsetof(CommunicatorInfo, events_after_dump) == 96);

enum HostClock : uint32_t {
  kHostClockRealtime = 1,  // CLOCK_REALTIME, ns since the UNIX epoch
};

// kSectionMetadata: repeated {MetadataEntry, key bytes, value bytes}, no padding between entries.
// Keys in v1 (values are UTF-8 text): hostname, comm_name, gpu.name, gpu.uuid, gpu.pci_bus_id,
// gpu.cuda_device, nccl.version, capture.events, capture.buffer_size_mb, capture.dump_dir,
// capture.plugin_version, clock.note, and env.<NAME> for each NCCL_* / NPKIT_* variable in effect.
struct MetadataEntry {
  uint32_t key_size;
  uint32_t value_size;
};
static_assert(sizeof(MetadataEntry) == 8);

// One host/GPU clock correspondence: the GPU read %globaltimer (gpu_ns) at a host instant that lies
// in [host_before_ns, host_after_ns]. Offset = gpu_ns - midpoint, uncertainty = half the bracket.
struct ClockSample {
  int64_t host_before_ns;
  int64_t host_after_ns;
  uint64_t gpu_ns;
  uint32_t when;  // ClockSampleTime
  uint32_t reserved;
};
static_assert(sizeof(ClockSample) == 32);

enum ClockSampleTime : uint32_t {
  kSampleAtInit = 0,
  kSampleAtEnd = 1,
};

// kSectionNames: repeated {NameEntry, name bytes}. Names every event type bit and state value that
// can occur in this file, so readers need no copy of the NCCL headers.
struct NameEntry {
  uint32_t domain;     // NameDomain
  uint32_t id;         // event type bit index (0..63) or state number
  uint32_t name_size;  // bytes of name that follow
  uint32_t reserved;
};
static_assert(sizeof(NameEntry) == 16);

enum NameDomain : uint32_t {
  kNameEventType = 1,  // id = bit index in the NCCL profiler event mask (Coll = 1, KernelCh = 6)
  kNameState = 2,      // id = ncclProfilerEventState value
};

// kSectionStrings: repeated {StringEntry, bytes}. Id 0 is never listed and means "none"; ids are
// at most 65535 (payloads refer to strings with u16 fields).
struct StringEntry {
  uint32_t id;
  uint32_t size;
};
static_assert(sizeof(StringEntry) == 8);

// kSectionLiveStrings: one entry per string id; id 0 marks an entry not written (yet). `text` holds
// `size` bytes (at most 255), NUL-padded.
struct LiveStringEntry {
  uint32_t id;
  uint32_t size;
  char text[256];
};
static_assert(sizeof(LiveStringEntry) == 264);
static_assert(offsetof(LiveStringEntry, text) == 8);

// kSectionThreads: the process's threads that wrote records (ProfilerRecord::thread indexes it).
struct ThreadEntry {
  uint32_t slot;   // value of ProfilerRecord::thread
  int32_t os_tid;  // Linux thread id
  char name[16];   // thread name when first seen, NUL-padded
};
static_assert(sizeof(ThreadEntry) == 24);

// Event types: bit indexes of the NCCL profiler event mask (type value = 1 << index).
enum EventType : uint8_t {
  kTypeGroup = 0,
  kTypeColl = 1,
  kTypeP2p = 2,
  kTypeProxyOp = 3,
  kTypeProxyStep = 4,
  kTypeProxyCtrl = 5,
  kTypeKernelCh = 6,
  kTypeNetPlugin = 7,
  kTypeGroupApi = 8,
  kTypeCollApi = 9,
  kTypeP2pApi = 10,
  kTypeKernelLaunch = 11,
  // Minor 3: copy-engine (CE) collectives, NCCL profiler API v6 (NCCL 2.29+).
  kTypeCeColl = 12,   // one CE collective: its copies and syncs are enqueued between start and stop
  kTypeCeSync = 13,   // one synchronisation of the ranks of a CE collective (child of CeColl)
  kTypeCeBatch = 14,  // one batch of copies of a CE collective (child of CeColl)
  // Minor 4: NCCL profiler API v7 (NCCL 2.31+).
  kTypeKernelPhase = 15,  // one phase of a KernelCh's work on the GPU (child of KernelCh)
};
// The highest event type a file of this minor version can hold.
inline constexpr uint8_t kLastEventType = kTypeKernelPhase;

enum RecordKind : uint8_t {
  kRecordNone = 0,  // slot claimed but never finished (counted in records_incomplete)
  kRecordStart = 1,
  kRecordStop = 2,
  kRecordState = 3,
  // Minor 3: more of an event's description, written by the thread that started it right after
  // its start record. event_id and type are the event's, parent_id 0, word a DetailKind; the
  // payload is that kind's struct below. Readers that do not know the kind skip the record.
  kRecordDetail = 4,
};

// ProfilerRecord::word for detail records.
enum DetailKind : uint32_t {
  kDetailCeColl = 1,       // CeCollDetail of a CeColl event
  kDetailParentGroup = 2,  // ParentGroupDetail of a Coll or P2p event (API v5, v6, v7)
  kDetailCallTag = 3,      // minor 4: CallTagDetail of a CollApi, P2pApi, Coll, P2p or CeColl
                           // event (API v7), written only when one of its fields is not zero
};

// ProfilerRecord::word for start records.
inline constexpr uint32_t kStartParentNull = 1u << 0;     // NCCL passed parentObj == NULL
inline constexpr uint32_t kStartParentForeign = 1u << 1;  // parent from another process (PXN)
inline constexpr uint32_t kStartParentOtherComm = 1u
                                                  << 2;   // parent belongs to another communicator
inline constexpr uint32_t kStartParentUnknown = 1u << 3;  // parent is not a handle of this plugin

// ProfilerRecord::word for state records is the state number; the payload is a StatePayload.

// One profiler callback. Event ids are per communicator, start at 1, and are what NCCL holds as
// the event handle; a stop or state record names the event it belongs to by id.
struct ProfilerRecord {
  uint64_t host_ns;     // host clock when the callback ran (CommunicatorInfo::host_clock)
  uint64_t event_id;    // the event this record is about
  uint64_t parent_id;   // start records: the parent's event id in this dump, 0 = none (see word)
  uint8_t kind;         // RecordKind; written last, so 0 means "not finished"
  uint8_t type;         // EventType of the event
  uint16_t thread;      // ThreadEntry::slot of the calling thread
  uint32_t word;        // start: kStart* flags; state: the state number; stop: 0
  uint8_t payload[32];  // start: the type's payload struct below; state: StatePayload; stop: 0
};
static_assert(sizeof(ProfilerRecord) == 64);
static_assert(offsetof(ProfilerRecord, kind) == 24);
static_assert(offsetof(ProfilerRecord, word) == 28);
static_assert(offsetof(ProfilerRecord, payload) == 32);

// Payloads of start records. String ids (func, datatype, algo, proto) refer to kSectionStrings.
struct GroupApiPayload {
  int32_t group_depth;
  uint8_t graph_captured;
  uint8_t reserved[27];
};
struct CollApiPayload {
  uint64_t count;  // user element count
  uint64_t stream;
  int32_t root;
  uint16_t func;
  uint16_t datatype;
  uint8_t graph_captured;
  uint8_t reserved[7];
};
struct P2pApiPayload {
  uint64_t count;
  uint64_t stream;
  uint16_t func;
  uint16_t datatype;
  uint8_t graph_captured;
  uint8_t reserved[11];
};
struct KernelLaunchPayload {
  uint64_t stream;
  uint8_t reserved[24];
};
struct CollPayload {
  uint64_t seq;    // per-communicator, per-func sequence number
  uint64_t count;  // as NCCL reports it: bytes for AllGather/Broadcast (datatype ncclInt8)
  int32_t root;
  uint16_t func;
  uint16_t datatype;
  uint16_t algo;
  uint16_t proto;
  uint8_t n_channels;
  uint8_t n_warps;
  uint8_t reserved[2];
};
struct P2pPayload {
  uint64_t count;
  int32_t peer;
  uint16_t func;
  uint16_t datatype;
  uint8_t n_channels;  // API v4: NCCL 2.27's value; 0 when NCCL 2.28+ drives API v4 (its adapter
                       // leaves the member uninitialised)
  uint8_t reserved[15];
};
struct ProxyOpPayload {
  int32_t pid;  // process that created the op (differs from CommunicatorInfo::pid under PXN)
  int32_t peer;
  int32_t n_steps;
  int32_t chunk_size;
  int32_t rank;
  uint8_t channel;
  uint8_t is_send;
  uint8_t reserved[10];
};
struct ProxyStepPayload {
  int32_t step;
  int32_t rank;
  uint8_t reserved[24];
};
struct KernelChPayload {
  uint64_t gpu_start_ns;  // %globaltimer at kernel start of this work on this channel
  uint8_t channel;
  uint8_t reserved[23];
};
struct NetPluginPayload {
  int64_t plugin_id;  // low 16 bits: descriptor version; next 16 bits: 1 = IB, 2 = socket
  uint8_t reserved[24];
};
// Minor 3, copy-engine events (API v6). `seq` is NCCL's ceColl.seqNumber; ce_seq its ceSeqNum.
struct CeCollPayload {
  uint64_t seq;
  uint64_t count;  // elements (ceColl.count)
  int32_t root;
  uint16_t func;
  uint16_t datatype;
  uint16_t sync_strategy;    // string id: "MC" (multicast) or "UC" (unicast) in NCCL 2.30
  uint8_t intra_batch_sync;  // ceColl.intraBatchSync
  uint8_t reserved;
  uint32_t ce_seq;
};
struct CeSyncPayload {
  int32_t n_ranks;
  uint8_t is_complete;  // ceCollSync.isComplete: the completion (not the ready) flags
  uint8_t reserved[27];
};
struct CeBatchPayload {
  uint64_t total_bytes;
  int32_t num_ops;
  uint8_t use_intra_sync;
  uint8_t reserved[19];
};
// Minor 4, API v7: one phase of a kernel channel's work. NCCL's kernel stamps four instants per
// work item and channel (begin, after the opening sync, before the closing sync, end); phase i runs
// from instant i to instant i + 1, so the phases of one KernelCh tile its GPU span. The stop
// %globaltimer is the value of state 31 (kStateKernelPhaseStop).
struct KernelPhasePayload {
  uint64_t gpu_start_ns;  // %globaltimer at the phase's start (kernelPhase.pTimer)
  uint8_t channel;
  uint8_t phase_id;     // 0 initial_sync, 1 compute, 2 final_sync
  uint16_t phase_name;  // string id of NCCL's name for it
  uint8_t reserved[20];
};
// Detail payloads (kRecordDetail).
struct CeCollDetail {
  uint64_t send_buff;  // addresses, as numbers
  uint64_t recv_buff;
  uint64_t stream;
  uint32_t batch_size;
  uint32_t num_batches;
};
// The legacy Group event above a Coll or P2p (descriptor member parentGroup), resolved like a
// start record's parent: group_id is its event id in this dump (0 = none, see flags); flags are
// kStartParent* values.
struct ParentGroupDetail {
  uint64_t group_id;
  uint32_t flags;
  uint8_t reserved[20];
};
// Minor 4, API v7: the per-call fields of an API, Coll, P2p or CeColl event.
struct CallTagDetail {
  uint64_t user_tag;        // userTag: ncclCollConfig_t.userProfilerTag of the call (0 = untagged)
  uint16_t kernel_variant;  // Coll: string id of kernelVariant ("AGxLL_R"), 0 when NULL
  uint8_t is_sym_coll;      // Coll: isSymColl (a symmetric kernel: algo is the variant's
                            // algorithm part, proto "")
  uint8_t reserved[21];
};
struct StatePayload {
  uint64_t value;    // transSize (ProxyStep), appendedProxyOps (ProxyCtrl), pTimer (KernelCh
                     // stop, state 22; KernelPhase stop, state 31), data pointer (NetPlugin)
  uint8_t has_args;  // 0 when NCCL passed NULL state args, and (writers of minor 3) for the states
                     // that carry none: 19, 23, 24, 25..30 (value 0 then)
  uint8_t reserved[23];
};
static_assert(sizeof(GroupApiPayload) == 32);
static_assert(sizeof(CollApiPayload) == 32);
static_assert(sizeof(P2pApiPayload) == 32);
static_assert(sizeof(KernelLaunchPayload) == 32);
static_assert(sizeof(CollPayload) == 32);
static_assert(offsetof(CollPayload, root) == 16);
static_assert(offsetof(CollPayload, n_channels) == 28);
static_assert(sizeof(P2pPayload) == 32);
static_assert(sizeof(ProxyOpPayload) == 32);
static_assert(offsetof(ProxyOpPayload, channel) == 20);
static_assert(sizeof(ProxyStepPayload) == 32);
static_assert(sizeof(KernelChPayload) == 32);
static_assert(sizeof(NetPluginPayload) == 32);
static_assert(sizeof(StatePayload) == 32);
static_assert(sizeof(CeCollPayload) == 32);
static_assert(offsetof(CeCollPayload, root) == 16);
static_assert(offsetof(CeCollPayload, sync_strategy) == 24);
static_assert(offsetof(CeCollPayload, intra_batch_sync) == 26);
static_assert(offsetof(CeCollPayload, ce_seq) == 28);
static_assert(sizeof(CeSyncPayload) == 32);
static_assert(sizeof(CeBatchPayload) == 32);
static_assert(offsetof(CeBatchPayload, num_ops) == 8);
static_assert(sizeof(CeCollDetail) == 32);
static_assert(offsetof(CeCollDetail, batch_size) == 24);
static_assert(sizeof(ParentGroupDetail) == 32);
static_assert(offsetof(ParentGroupDetail, flags) == 8);
static_assert(sizeof(KernelPhasePayload) == 32);
static_assert(offsetof(KernelPhasePayload, channel) == 8);
static_assert(offsetof(KernelPhasePayload, phase_id) == 9);
static_assert(offsetof(KernelPhasePayload, phase_name) == 10);
static_assert(sizeof(CallTagDetail) == 32);
static_assert(offsetof(CallTagDetail, kernel_variant) == 8);
static_assert(offsetof(CallTagDetail, is_sym_coll) == 10);

// State numbers (ncclProfilerEventState, identical in NCCL profiler APIs v1..v7).
enum StateNumber : uint32_t {
  kStateProxyStepSendGpuWait = 8,
  kStateProxyStepSendWait = 9,
  kStateProxyStepRecvWait = 10,
  kStateProxyStepRecvFlushWait = 11,
  kStateProxyStepRecvGpuWait = 12,
  kStateProxyCtrlIdle = 13,
  kStateProxyCtrlActive = 14,
  kStateProxyCtrlSleep = 15,
  kStateProxyCtrlWakeup = 16,
  kStateProxyCtrlAppend = 17,
  kStateProxyCtrlAppendEnd = 18,
  kStateProxyOpInProgress = 19,
  kStateProxyStepSendPeerWait = 20,
  kStateNetPluginUpdate = 21,
  kStateKernelChStop = 22,
  kStateGroupStartApiStop = 23,
  kStateGroupEndApiStart = 24,
  // Minor 3: defined by API v6 for CE events (NCCL 2.30 records none: CE events only start/stop).
  kStateCeCollStart = 25,
  kStateCeCollComplete = 26,
  kStateCeSyncStart = 27,
  kStateCeSyncComplete = 28,
  kStateCeBatchStart = 29,
  kStateCeBatchComplete = 30,
  // Minor 4: API v7. The stop of a KernelPhase; its value is the stop %globaltimer.
  kStateKernelPhaseStop = 31,
};

// ---- Event records (minor 1) ----------------------------------------------------------------
// Event ids (EventRecord::id):
//   0x0001..0x00FF  the NPKit NCCL event table's ids and meanings, so kernels instrumented the
//                   NPKit way port directly
//   0x0100..0x0FFF  reserved for ids the project defines
//   0x1000..0xFFFE  user events
// Every id that occurs in a file is named in kSectionEventNames. ENTRY/EXIT events pair by name:
// "<X>_ENTRY" opens and "<X>_EXIT" closes the innermost open "<X>" of the same stream.
inline constexpr uint16_t kFirstNpkitEventId = 0x0001;
inline constexpr uint16_t kFirstReservedEventId = 0x0100;
inline constexpr uint16_t kFirstUserEventId = 0x1000;
inline constexpr uint16_t kLastUserEventId = 0xFFFE;

enum EventKind : uint32_t {
  kEventEntry = 1,
  kEventExit = 2,
  kEventInstant = 3,
};

// kSectionEventNames: repeated {EventNameEntry, name bytes, phase bytes}, no padding in between.
// The phase hint (e.g. "reduce_scatter", "all_gather", "sync") is what the analyzer's phase rules
// use when no --phase-map rule matches; empty means "no hint".
struct EventNameEntry {
  uint32_t id;          // EventRecord::id
  uint32_t kind;        // EventKind
  uint32_t name_size;   // bytes of the name that follow
  uint32_t phase_size;  // bytes of the phase hint that follow the name
};
static_assert(sizeof(EventNameEntry) == 16);

enum StreamSource : uint32_t {
  kStreamGpuBlock = 1,    // one thread of a block records (NPKit's model)
  kStreamGpuWarp = 2,     // one lane of a warp records
  kStreamHostThread = 3,  // host code of one thread
};

enum StreamClock : uint32_t {
  kStreamClockGlobalTimer = 1,  // GPU %globaltimer, ns; converts to host time like KernelCh
  kStreamClockCycles = 2,       // GPU clock64 cycles; cycles_per_second was measured
  kStreamClockHost = 3,         // CommunicatorInfo::host_clock, ns
};

// One record stream (one buffer). A GPU stream collects across kernel launches: the buffer of
// block b (or warp w of block b) is reused by every instrumented launch until the dump.
struct StreamInfo {
  uint32_t source;             // StreamSource
  uint32_t clock;              // StreamClock of every timestamp in the stream
  int32_t cuda_device;         // CUDA device ordinal; -1 for host streams
  uint32_t block;              // linear block index (GPU); 0 for host streams
  uint32_t warp;               // warp index in the block (kStreamGpuWarp); else 0
  uint32_t name_string;        // kSectionStrings id naming the stream (kernel, thread); 0 none
  uint64_t first_record;       // index of the stream's first record in kSectionEventRecords
  uint64_t records_written;    // records of this stream in the file
  uint64_t records_dropped;    // records lost because the buffer was full
  uint64_t capacity;           // records the buffer holds
  uint64_t cycles_per_second;  // measured clock64 rate for kStreamClockCycles; else 0
  int32_t os_tid;              // Linux thread id of a host stream; else 0
  uint8_t reserved[4];         // zero
};
static_assert(sizeof(StreamInfo) == 72);
static_assert(offsetof(StreamInfo, first_record) == 24);
static_assert(offsetof(StreamInfo, cycles_per_second) == 56);

// One NPKit-style event, written by one thread of a block (or lane of a warp).
struct EventRecord {
  uint64_t timestamp;  // in the stream's StreamClock units
  uint64_t size;       // bytes the event covers, as the instrumented code reported it
  uint32_t user;       // free for the instrumented code (a step, a peer, a channel)
  uint16_t id;         // event id (see above)
  uint16_t reserved;   // zero
};
static_assert(sizeof(EventRecord) == 24);
static_assert(offsetof(EventRecord, user) == 16);
static_assert(offsetof(EventRecord, id) == 20);

}  // namespace npkit::format
