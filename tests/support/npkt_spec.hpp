// npkt_spec.hpp — TEST-ONLY text description of .npkt files, turned into NpktBuilder calls
// (support/npkt_writer.hpp), for fixtures whose expected answers are computed by hand.
// Contract: each statement maps to one builder call, so a spec reads as the file it makes. Bad
// specs throw std::invalid_argument naming the line. Nothing else is validated: the writer writes
// what it is told.
//
// One statement per line; '#' starts a comment; numbers are decimal (a leading '-' allowed) or
// 0x-hex. Each `comm` line starts a new file; every other statement applies to the current one.
//   comm hash=H rank=R nranks=N [nnodes= pid= start_ns= end_ns= end_reason= clock_method=
//        profiler_api= host_clock= event_mask= capacity= attempted= dropped= incomplete=
//        after_dump=] [file=NAME]        CommunicatorInfo (CommSpec defaults for the rest); the
//                                        file is NAME, default npkit_<hash %016x>_rank<R>.npkt
//   meta KEY VALUE...                    metadata; VALUE is the rest of the line (may be empty)
//   clock init|end before=N after=N gpu=N
//   names standard                       NpktBuilder::standard_names()
//   name type|state ID TEXT...           one Names entry
//   string ID TEXT...                    one Strings entry
//   thread SLOT TID NAME
//   start ID TYPE host=N [parent=N] [flags=null,foreign,other_comm,unknown|N] [thread=S] FIELDS
//   state ID TYPE host=N state=N|NAME [value=N] [no_args] [thread=S]
//   stop ID TYPE host=N [thread=S]
//   detail ID TYPE host=N kind=ce_coll [send= recv= stream= batch_size= batches=] [thread=S]
//   detail ID TYPE host=N kind=parent_group [group=N] [flags=...] [thread=S]   (minor 3)
//   event_name ID ENTRY|EXIT|instant|N NAME [phase=HINT]     one EventNames entry
//   stream gpu_block|gpu_warp|host|N [clock=timer|cycles|host|N] [device= block= warp= tid=
//        name=TEXT dropped= capacity= cps= first= written=]      starts a stream (StreamSpec;
//                                        name= interns TEXT like func=; first=/written= override)
//   event TS ID [size=N] [user=N]        one EventRecord of the current stream
//   major N | minor N | truncate N | omit KIND    header fields and corruptions
// TYPE: Group Coll P2p ProxyOp ProxyStep ProxyCtrl KernelCh NetPlugin GroupApi CollApi P2pApi
// KernelLaunch CeColl CeSync CeBatch, or a number; a state NAME is one of standard_state_names().
// FIELDS of a start:
//   GroupApi depth graph_captured      CollApi count stream root func datatype graph_captured
//   P2pApi count stream func datatype graph_captured            KernelLaunch stream
//   Coll seq count root func datatype algo proto channels warps
//   P2p count peer func datatype channels    ProxyOp pid peer steps chunk_size rank channel send
//   ProxyStep step rank    KernelCh gpu_start channel    NetPlugin plugin_id
//   CeColl seq count root func datatype sync intra ce_seq    CeSync ranks complete
//   CeBatch total_bytes ops intra
// func, datatype, algo, proto and sync take a string id or a text: a text already given by a
// `string` line reuses that id, a new one gets the next id above every id of the file so far.
// Example (rank 0 of 2, one 1 MiB AllReduce enqueued for 1 µs):
//   comm hash=0xabc rank=0 nranks=2 start_ns=1000
//   names standard
//   start 1 Coll host=2000 seq=0 count=1048576 func=AllReduce datatype=ncclFloat32 channels=2
//   stop 1 Coll host=3000
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "support/npkt_writer.hpp"
#include "support/temp_dir.hpp"

namespace npkit::test {

struct NpktSpecFile {
  std::string name;  // file name inside the dump directory
  NpktBuilder builder;
};

std::vector<NpktSpecFile> parse_npkt_spec(std::string_view text);

// Writes every file of the spec into tmp/`subdir` and returns that directory's path.
std::string write_npkt_spec(const TempDir& tmp, std::string_view text,
                            std::string_view subdir = "dump");

}  // namespace npkit::test
