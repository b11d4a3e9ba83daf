#include "commands/npkt_input.hpp"

#include <fmt/format.h>

#include "import/npkt/npkt_input.hpp"
#include "output/run_text.hpp"

namespace npkit::cli {

std::string describe_comm(const Communicator& comm) {
  std::string s = "comm " + comm_hex(comm.comm_hash);
  if (!comm.name.empty()) s += " (" + comm.name + ")";
  s += fmt::format(", {} of {} rank(s)", comm.ranks.size(), comm.nranks);
  if (!comm.absent_ranks.empty()) s += "; rank(s) " + rank_ranges(comm.absent_ranks) + " absent";
  return s;
}

std::string describe_instance(const CollectiveInstance& inst) {
  if (inst.is_pair()) {
    return fmt::format("Send/Recv {} -> {} #{}", inst.sender, inst.receiver, inst.seq);
  }
  std::string s = fmt::format("{} seq {}", inst.func_name, inst.seq);
  if (inst.occurrence > 0) s += fmt::format(" (occurrence {})", inst.occurrence);
  return s;
}

Result<LoadedCaptures> load_npkt_input(const CommonOptions& o) {
  ImportOptions options;
  options.path = o.path;
  options.ranks = o.ranks;
  options.event_table = o.event_table;
  options.phase_map = o.phase_map;
  options.cpu_record_size = o.cpu_record_size;
  options.skip_bad = o.skip_bad;
  auto user = read_phase_map_file(o.phase_map);
  if (!user) return user.error();
  auto input = NpktInput::open(options, *user);
  if (!input) return input.error();
  LoadedCaptures loaded;
  static_cast<npkit::LoadedCaptures&>(loaded) = std::move((*input)->captures());
  loaded.diagnostics = std::move((*input)->diagnostics());
  return loaded;
}

}  // namespace npkit::cli
